using System.Globalization;
using System.Text;

namespace Folio.Benchmarks.Search.LuceneNet;

/// <summary>
/// The search load report's Lucene.Net section: Folio, Java Lucene and Lucene.Net through each directory side by side,
/// Folio's ratio to each Lucene.Net run, and MMapDirectory's to NIOFSDirectory's (the directory choice of Folio's
/// Lucene engine rests on it).
/// </summary>
internal static class LuceneNetReport
{
    public static void Append(StringBuilder s, EngineResult? folio, EngineResult? java, IReadOnlyList<EngineResult> luceneNet, IReadOnlyList<string> kinds, IReadOnlyDictionary<string, string> kindNames)
    {
        if (luceneNet.Count == 0)
            return;
        var nio = luceneNet.FirstOrDefault(r => r.Extra.GetValueOrDefault("directory") == "NIOFSDirectory");
        var mmap = luceneNet.FirstOrDefault(r => r.Extra.GetValueOrDefault("directory") == "MMapDirectory");
        s.AppendLine();
        s.AppendLine(CultureInfo.InvariantCulture, $"Lucene.Net {luceneNet[0].Version} in .NET (a process per directory, with the same collector as Folio), same records, batches and queries " +
            $"(segments after close: {string.Join(", ", luceneNet.Select(r => $"{r.Engine} {r.Extra.GetValueOrDefault("segments")}"))}):");
        s.AppendLine();
        s.AppendLine("| metric | Folio | Java Lucene | Lucene.Net (NIOFS) | Lucene.Net (MMap) | Folio / Lucene.Net (NIOFS) | Folio / Lucene.Net (MMap) | MMap / NIOFS |");
        s.AppendLine("|---|---:|---:|---:|---:|---:|---:|---:|");
        Row(s, "indexing rate (records/s)", r => r.IndexRate, "N0", folio, java, nio, mmap);
        Row(s, "indexing CPU (process s, to the last commit)", r => r.IndexCpuSeconds, "N1", folio, java, nio, mmap);
        Row(s, "index size after last commit (MB)", r => r.SizeAfterCommitBytes / 1e6, "N1", folio, java, nio, mmap);
        Row(s, "index size after close (MB)", r => r.SizeAfterCloseBytes / 1e6, "N1", folio, java, nio, mmap);
        foreach (var kind in kinds)
        {
            Row(s, $"{kindNames[kind]}: p50 (µs)", r => Percentile(r, kind, 50), "N0", folio, java, nio, mmap);
            Row(s, $"{kindNames[kind]}: p99 (µs)", r => Percentile(r, kind, 99), "N0", folio, java, nio, mmap);
        }
        s.AppendLine();
        s.AppendLine("Lucene.Net without reading the keys from stored fields (`-search`), p50 / p99 (µs):");
        s.AppendLine();
        s.AppendLine("| query set | Lucene.Net (NIOFS) | Lucene.Net (MMap) |");
        s.AppendLine("|---|---:|---:|");
        foreach (var kind in kinds)
            s.AppendLine(CultureInfo.InvariantCulture, $"| {kind}-search | {Pair(nio, kind + "-search")} | {Pair(mmap, kind + "-search")} |");
    }

    private static void Row(StringBuilder s, string metric, Func<EngineResult, double?> value, string format, EngineResult? folio, EngineResult? java, EngineResult? nio, EngineResult? mmap)
    {
        double? Of(EngineResult? r) => r is null ? null : value(r);
        string Cell(double? v) => v is { } x ? x.ToString(format, CultureInfo.InvariantCulture) : "-";
        static string Ratio(double? a, double? b) => a is { } x && b is { } y && y > 0 ? (x / y).ToString("0.00", CultureInfo.InvariantCulture) + "×" : "-";
        s.AppendLine(CultureInfo.InvariantCulture,
            $"| {metric} | {Cell(Of(folio))} | {Cell(Of(java))} | {Cell(Of(nio))} | {Cell(Of(mmap))} | {Ratio(Of(folio), Of(nio))} | {Ratio(Of(folio), Of(mmap))} | {Ratio(Of(mmap), Of(nio))} |");
    }

    private static double? Percentile(EngineResult result, string kind, double percentile) =>
        result.Latencies.TryGetValue(kind, out var values) ? EngineResult.Percentile(values, percentile) : null;

    private static string Pair(EngineResult? result, string kind) =>
        result is not null && result.Latencies.TryGetValue(kind, out var values)
            ? FormattableString.Invariant($"{EngineResult.Percentile(values, 50):N0} / {EngineResult.Percentile(values, 99):N0}")
            : "-";
}
