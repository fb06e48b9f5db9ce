using System.Globalization;

namespace Folio.Benchmarks.Search;

/// <summary>
/// What one engine measured in the search load test. The Java program prints the same fields as
/// tab-separated lines (<see cref="Parse"/>), so both sides land in one table.
/// </summary>
internal sealed class EngineResult
{
    public string Engine { get; set; } = "";

    public string Version { get; set; } = "";

    public int Records { get; set; }

    /// <summary>From the first add to the return of the last batch's commit.</summary>
    public double IndexSeconds { get; set; }

    /// <summary>Time inside the add calls (analysis and buffering), summed over batches.</summary>
    public double AddSeconds { get; set; }

    /// <summary>Time inside the commit calls, summed over batches.</summary>
    public double CommitSeconds { get; set; }

    /// <summary>
    /// The process's CPU time (all its threads: merges, collector, compiler) from the first add to the return of the
    /// last commit; on a machine other work shares, it moves far less with that work than the wall time does.
    /// </summary>
    public double IndexCpuSeconds { get; set; }

    /// <summary>Closing the writer after the last commit (Folio: flushing the journal; Lucene: waiting for merges).</summary>
    public double CloseSeconds { get; set; }

    public long SizeAfterCommitBytes { get; set; }

    public long SizeAfterCloseBytes { get; set; }

    /// <summary>
    /// The index's allocated bytes (as <c>du</c> counts them) sampled right after each batch's commit returned, in
    /// batch order: the last commit's alone shows whatever that one commit left in flight (a merge, a journal record).
    /// </summary>
    public long[] SizesAfterCommits { get; set; } = [];

    /// <summary>Per query kind, latencies in microseconds, in query order.</summary>
    public Dictionary<string, double[]> Latencies { get; } = new(StringComparer.Ordinal);

    /// <summary>Per query kind, each query's total hit count, in query order.</summary>
    public Dictionary<string, long[]> Totals { get; } = new(StringComparer.Ordinal);

    /// <summary>Per sorted query, a hash of the timestamps of its top hits in order (ties may differ in id, never in value).</summary>
    public long[] SortChecksums { get; set; } = [];

    /// <summary>Other facts an engine reports (Lucene: its segment count), shown as they are.</summary>
    public Dictionary<string, string> Extra { get; } = new(StringComparer.Ordinal);

    public double IndexRate => Records / IndexSeconds;

    /// <summary>Nearest-rank percentile (the same definition the Java side uses).</summary>
    public static double Percentile(double[] values, double percentile)
    {
        var sorted = (double[])values.Clone();
        Array.Sort(sorted);
        var rank = (int)Math.Ceiling(percentile / 100 * sorted.Length);
        return sorted[Math.Clamp(rank - 1, 0, sorted.Length - 1)];
    }

    /// <summary>The hash both sides compute over a sorted query's top hits: FNV-1a over the values.</summary>
    public static long Checksum(IEnumerable<long> values)
    {
        var hash = unchecked((long)0xCBF2_9CE4_8422_2325UL);
        foreach (var value in values)
            hash = unchecked((hash ^ value) * 0x0100_0000_01B3L);
        return hash;
    }

    public static EngineResult Parse(IEnumerable<string> lines)
    {
        var result = new EngineResult();
        foreach (var line in lines)
        {
            var f = line.Split('\t');
            switch (f[0])
            {
                case "engine": result.Engine = f[1]; break;
                case "version": result.Version = f[1]; break;
                case "records": result.Records = int.Parse(f[1], CultureInfo.InvariantCulture); break;
                case "index_seconds": result.IndexSeconds = Double(f[1]); break;
                case "add_seconds": result.AddSeconds = Double(f[1]); break;
                case "commit_seconds": result.CommitSeconds = Double(f[1]); break;
                case "close_seconds": result.CloseSeconds = Double(f[1]); break;
                case "index_cpu_seconds": result.IndexCpuSeconds = Double(f[1]); break;
                case "size_after_commit": result.SizeAfterCommitBytes = long.Parse(f[1], CultureInfo.InvariantCulture); break;
                case "size_after_close": result.SizeAfterCloseBytes = long.Parse(f[1], CultureInfo.InvariantCulture); break;
                case "latencies": result.Latencies[f[1]] = f[2].Split(',').Select(Double).ToArray(); break;
                case "totals": result.Totals[f[1]] = f[2].Split(',').Select(s => long.Parse(s, CultureInfo.InvariantCulture)).ToArray(); break;
                case "sizes_after_commits": result.SizesAfterCommits = f[1].Split(',', StringSplitOptions.RemoveEmptyEntries).Select(s => long.Parse(s, CultureInfo.InvariantCulture)).ToArray(); break;
                case "sort_checksums": result.SortChecksums = f[1].Split(',').Select(s => long.Parse(s, CultureInfo.InvariantCulture)).ToArray(); break;
                default: result.Extra[f[0]] = string.Join('\t', f[1..]); break;
            }
        }
        return result;
    }

    /// <summary>Writes this result as the lines <see cref="Parse"/> reads (what a child process hands back).</summary>
    public void Write(TextWriter writer)
    {
        writer.WriteLine($"engine\t{Engine}");
        writer.WriteLine($"version\t{Version}");
        writer.WriteLine(FormattableString.Invariant($"records\t{Records}"));
        writer.WriteLine(FormattableString.Invariant($"index_seconds\t{IndexSeconds:0.000}"));
        writer.WriteLine(FormattableString.Invariant($"add_seconds\t{AddSeconds:0.000}"));
        writer.WriteLine(FormattableString.Invariant($"commit_seconds\t{CommitSeconds:0.000}"));
        writer.WriteLine(FormattableString.Invariant($"close_seconds\t{CloseSeconds:0.000}"));
        writer.WriteLine(FormattableString.Invariant($"index_cpu_seconds\t{IndexCpuSeconds:0.000}"));
        writer.WriteLine(FormattableString.Invariant($"size_after_commit\t{SizeAfterCommitBytes}"));
        writer.WriteLine(FormattableString.Invariant($"size_after_close\t{SizeAfterCloseBytes}"));
        foreach (var (kind, values) in Latencies)
            writer.WriteLine($"latencies\t{kind}\t{string.Join(',', values.Select(v => v.ToString("0.0", CultureInfo.InvariantCulture)))}");
        foreach (var (kind, values) in Totals)
            writer.WriteLine($"totals\t{kind}\t{string.Join(',', values.Select(v => v.ToString(CultureInfo.InvariantCulture)))}");
        if (SizesAfterCommits.Length > 0)
            writer.WriteLine($"sizes_after_commits\t{string.Join(',', SizesAfterCommits.Select(v => v.ToString(CultureInfo.InvariantCulture)))}");
        writer.WriteLine($"sort_checksums\t{string.Join(',', SortChecksums.Select(v => v.ToString(CultureInfo.InvariantCulture)))}");
        foreach (var (name, value) in Extra)
            writer.WriteLine($"{name}\t{value}");
    }

    private static double Double(string text) => double.Parse(text, CultureInfo.InvariantCulture);
}
