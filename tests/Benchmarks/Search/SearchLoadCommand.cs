using System.Diagnostics;
using System.Globalization;
using System.Text;
using Folio.Benchmarks.Search.LuceneNet;

namespace Folio.Benchmarks.Search;

/// <summary>
/// <c>dotnet run -c Release --project tests/Benchmarks -- search-load [--records N] [--queries N] [--data DIR] [--only folio|lucene|lucenenet] [--lucenenet niofs,mmap] [--lucene-keys] [--sizes-after-commits] [--host-gc]</c>
/// <para>Generates (once) the records and queries, runs Folio's side in this process, then Lucene.Net 4.8's, in a .NET
/// process of its own for each directory <c>--lucenenet</c> names (both by default: <see cref="LuceneNetSearchLoad"/>), then Java
/// Lucene's side as a child process on the same files, checks that all found the same hits, and
/// prints a markdown report (also saved under the data directory). <c>--lucene-keys</c> runs Lucene a second
/// time indexing each record's key and adding by <c>updateDocument</c> on it, which Folio's index does (it
/// replaces an entry by key), for a comparison of like with like. <c>--sizes-after-commits</c> has Folio and Java Lucene
/// take <c>du</c> of their index right after each batch's commit (outside the timed phases, but the processes it starts
/// cost both sides CPU), for the live size over the whole load rather than at its last commit alone.</para>
/// <para>Folio's engine runs inside src/Server, which uses Server GC with DATAS off (Folio.Server.csproj),
/// so the command starts itself again with those settings unless this process has them already or
/// <c>--host-gc</c> asks for the benchmark host's own (workstation) collector. Lucene runs with the JVM's defaults.</para>
/// </summary>
internal static class SearchLoadCommand
{
    private static readonly string[] Kinds = ["eq", "range", "text", "sort"];

    private static readonly Dictionary<string, string> KindNames = new(StringComparer.Ordinal)
    {
        ["eq"] = "equality (brand)",
        ["range"] = "numeric range (ts)",
        ["text"] = "full-text, 2 terms OR, top-25 by score",
        ["sort"] = "equality (brand) sorted by ts, top-25",
    };

    private const string Usage = "Usage: search-load [--records N] [--queries N] [--data DIR] [--only folio|lucene|lucenenet] [--lucenenet niofs,mmap] [--lucene-keys] [--sizes-after-commits] [--host-gc]";

    private const string LuceneNetChild = "--lucenenet-child";

    public static int Run(string[] args)
    {
        if (args.Length == 6 && args[0] == LuceneNetChild)
            return RunLuceneNetChild(args[1..]);
        var records = 1_000_000;
        var queriesPerKind = 1_000;
        var data = SearchBenchData.DefaultDirectory;
        string? only = null;
        var hostGc = false;
        var luceneKeys = false;
        var sizesAfterCommits = false;
        var luceneNetDirectories = new List<LuceneNetDirectoryKind> { LuceneNetDirectoryKind.NioFs, LuceneNetDirectoryKind.MMap };
        var values = new Dictionary<string, Action<string>>(StringComparer.Ordinal)
        {
            ["--records"] = v => records = CommandOptions.Int(v),
            ["--queries"] = v => queriesPerKind = CommandOptions.Int(v),
            ["--data"] = v => data = v,
            ["--only"] = v => only = v,
            ["--lucenenet"] = v => luceneNetDirectories = ParseDirectories(v),
        };
        var flags = new Dictionary<string, Action>(StringComparer.Ordinal)
        {
            ["--host-gc"] = () => hostGc = true,
            ["--lucene-keys"] = () => luceneKeys = true,
            ["--sizes-after-commits"] = () => sizesAfterCommits = true,
        };
        if (!CommandOptions.Parse(args, Usage, values, flags))
            return 2;
        if (luceneKeys && only is "folio" or "lucenenet")
        {
            Console.Error.WriteLine($"--lucene-keys runs Java Lucene; it cannot go with --only {only}.");
            return 2;
        }
        if (only is not (null or "folio" or "lucene" or "lucenenet") || luceneNetDirectories.Count == 0)
        {
            Console.Error.WriteLine(Usage);
            return 2;
        }
        if (!hostGc && !ServerCollector.IsActive)
            return ServerCollector.Relaunch("search-load", args);

        var log = Console.Error;
        var loads = new LoadLog(log);
        loads.Note("start");
        var generation = Stopwatch.StartNew();
        SearchBenchData.EnsureWritten(data, records, queriesPerKind);
        var recordsPath = SearchBenchData.RecordsPath(data, records);
        var queriesPath = SearchBenchData.QueriesPath(data, records, queriesPerKind);
        log.WriteLine($"data ready in {generation.Elapsed.TotalSeconds:N1} s: {recordsPath} ({new FileInfo(recordsPath).Length / 1e6:N1} MB)");

        EngineResult? folio = null;
        EngineResult? lucene = null;
        var luceneNet = new List<EngineResult>();
        if (only is null or "folio")
        {
            var loaded = SearchBenchData.ReadRecords(recordsPath);
            var queries = SearchBenchData.ReadQueries(queriesPath);
            loads.Note("folio start");
            folio = FolioSearchLoad.Run(loaded, queries, Path.Combine(data, "folio-index"), sizesAfterCommits, log);
            loads.Note("folio end");
            log.WriteLine("folio files after close: " + string.Join(", ",
                DiskUsage.Files(Path.Combine(data, "folio-index")).Select(f => $"{f.Name} {f.Bytes / 1e6:N1} MB")));
        }
        if (only is null or "lucenenet")
        {
            foreach (var kind in luceneNetDirectories)
            {
                loads.Note($"lucene.net {kind} start");
                var result = RunLuceneNet(kind, recordsPath, queriesPath, data, log);
                loads.Note($"lucene.net {kind} end");
                if (result is null)
                    return 1;
                luceneNet.Add(result);
            }
        }
        if (only is null or "lucene")
        {
            loads.Note("lucene start");
            lucene = RunLucene(recordsPath, queriesPath, Path.Combine(data, "lucene-index"), Path.Combine(data, "lucene-results.tsv"), keys: false, sizesAfterCommits, log);
            loads.Note("lucene end");
            if (lucene is null)
                return 1;
        }
        EngineResult? luceneByKey = null;
        if (luceneKeys && only is null or "lucene")
        {
            loads.Note("lucene (keys) start");
            luceneByKey = RunLucene(recordsPath, queriesPath, Path.Combine(data, "lucene-keys-index"), Path.Combine(data, "lucene-keys-results.tsv"), keys: true, sizesAfterCommits, log);
            loads.Note("lucene (keys) end");
            if (luceneByKey is null)
                return 1;
        }

        var report = Report(records, queriesPerKind, folio, lucene, luceneByKey, luceneNet, loads.Entries);
        Console.WriteLine(report);
        var saved = Path.Combine(data, $"search-load-{records}-{DateTime.UtcNow:yyyyMMdd-HHmmss}.md");
        File.WriteAllText(saved, report);
        log.WriteLine($"report saved to {saved}");
        return 0;
    }

    /// <summary>
    /// Each Lucene.Net run gets a process of its own, with the server's collector: as cold as Folio's engine and the JVM
    /// start, rather than indexing with code the run before compiled, and with none of the other engines' garbage.
    /// </summary>
    private static EngineResult? RunLuceneNet(LuceneNetDirectoryKind kind, string recordsPath, string queriesPath, string data, TextWriter log)
    {
        var name = kind.ToString().ToLowerInvariant();
        var resultsPath = Path.Combine(data, $"lucenenet-{name}-results.tsv");
        File.Delete(resultsPath);
        var exitCode = ServerCollector.Relaunch("search-load", [LuceneNetChild, name, recordsPath, queriesPath, Path.Combine(data, $"lucenenet-{name}-index"), resultsPath]);
        if (exitCode != 0 || !File.Exists(resultsPath))
        {
            log.WriteLine($"The Lucene.Net {kind} run failed (exit code {exitCode}).");
            return null;
        }
        return EngineResult.Parse(File.ReadLines(resultsPath));
    }

    private static int RunLuceneNetChild(string[] args)
    {
        var kind = ParseDirectories(args[0])[0];
        var records = SearchBenchData.ReadRecords(args[1]);
        var queries = SearchBenchData.ReadQueries(args[2]);
        var result = LuceneNetSearchLoad.Run(records, queries, args[3], kind, Console.Error);
        using var writer = new StreamWriter(args[4]);
        result.Write(writer);
        return 0;
    }

    private static List<LuceneNetDirectoryKind> ParseDirectories(string text)
    {
        var kinds = new List<LuceneNetDirectoryKind>();
        foreach (var name in text.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            kinds.Add(name.ToLowerInvariant() switch
            {
                "niofs" => LuceneNetDirectoryKind.NioFs,
                "mmap" => LuceneNetDirectoryKind.MMap,
                _ => throw new ArgumentException($"Unknown Lucene.Net directory '{name}': niofs or mmap."),
            });
        }
        return kinds;
    }

    private static EngineResult? RunLucene(string recordsPath, string queriesPath, string indexDirectory, string resultsPath, bool keys, bool sizesAfterCommits, TextWriter log)
    {
        if (LuceneJava.Jars(log, "lucene-core-8*.jar", "lucene-analyzers-common-8*.jar") is not { } jars)
            return null;
        File.Delete(resultsPath);
        string[] arguments = [.. sizesAfterCommits ? new[] { "-Dfolio.sizesAfterCommits=true" } : [], "-cp", string.Join(':', jars), LuceneJava.Program("LuceneBench.java"), recordsPath, queriesPath, indexDirectory, resultsPath, .. keys ? new[] { "keys" } : []];
        var exitCode = LuceneJava.Run(arguments, log);
        if (exitCode != 0 || !File.Exists(resultsPath))
        {
            log.WriteLine($"The Lucene program failed (exit code {exitCode}).");
            return null;
        }
        return EngineResult.Parse(File.ReadLines(resultsPath));
    }

    private static string Report(int records, int queriesPerKind, EngineResult? folio, EngineResult? lucene, EngineResult? luceneByKey, IReadOnlyList<EngineResult> luceneNet, IReadOnlyList<string> loads)
    {
        var s = new StringBuilder();
        s.AppendLine(CultureInfo.InvariantCulture, $"### search-load: {records:N0} records, {queriesPerKind:N0} queries per kind ({DateTime.UtcNow:yyyy-MM-dd HH:mm} UTC)");
        s.AppendLine();
        s.AppendLine(CultureInfo.InvariantCulture, $"Engines: Folio {folio?.Version ?? "-"}, Lucene {lucene?.Version ?? "-"} (Lucene segments after close: {lucene?.Extra.GetValueOrDefault("segments") ?? "-"}).");
        s.AppendLine(CultureInfo.InvariantCulture, $"Folio's collector: {ServerCollector.Describe()}; Lucene: the JVM's defaults.");
        s.AppendLine();
        s.AppendLine("| metric | Folio | Lucene | Folio / Lucene | target | met |");
        s.AppendLine("|---|---:|---:|---:|---|---|");
        Row(s, "indexing rate (records/s)", folio?.IndexRate, lucene?.IndexRate, "N0", "≥ 1.0", higherIsBetter: true, 1.0);
        Row(s, "indexing CPU (process s, to the last commit)", folio?.IndexCpuSeconds, lucene?.IndexCpuSeconds, "N1", "", higherIsBetter: false, null);
        Row(s, "index size live, after last commit (MB, allocated blocks as du counts)", folio?.SizeAfterCommitBytes / 1e6, lucene?.SizeAfterCommitBytes / 1e6, "N1", "≤ 1.2", higherIsBetter: false, 1.2);
        Row(s, "index size live, after last commit (MB, apparent: the files' lengths)", Apparent(folio), Apparent(lucene), "N1", "", higherIsBetter: false, null);
        if (Median(folio) is not null || Median(lucene) is not null)
        {
            Row(s, "index size live, after each commit: median over the load (MB)", Median(folio), Median(lucene), "N1", "", higherIsBetter: false, null);
            Row(s, "index size live, after each commit: largest over the load (MB)", Largest(folio), Largest(lucene), "N1", "", higherIsBetter: false, null);
        }
        Row(s, "index size after close (MB)", folio?.SizeAfterCloseBytes / 1e6, lucene?.SizeAfterCloseBytes / 1e6, "N1", "≤ 1.5", higherIsBetter: false, 1.5);
        foreach (var kind in Kinds)
        {
            Row(s, $"{KindNames[kind]}: p50 (µs)", P(folio, kind, 50), P(lucene, kind, 50), "N0", "≤ 1.0", higherIsBetter: false, 1.0);
            Row(s, $"{KindNames[kind]}: p99 (µs)", P(folio, kind, 99), P(lucene, kind, 99), "N0", "", higherIsBetter: false, null);
        }
        LuceneNetReport.Append(s, folio, lucene, luceneNet, Kinds, KindNames);
        if (luceneByKey is not null)
        {
            s.AppendLine();
            s.AppendLine("Against Lucene indexing each record's key and adding by updateDocument on it (`--lucene-keys`), as Folio's index replaces an entry by key:");
            s.AppendLine();
            s.AppendLine("| metric | Folio | Lucene (keys) | Folio / Lucene (keys) | target | met |");
            s.AppendLine("|---|---:|---:|---:|---|---|");
            Row(s, "indexing rate (records/s)", folio?.IndexRate, luceneByKey.IndexRate, "N0", "≥ 1.0", higherIsBetter: true, 1.0);
            Row(s, "index size after close (MB)", folio?.SizeAfterCloseBytes / 1e6, luceneByKey.SizeAfterCloseBytes / 1e6, "N1", "≤ 1.5", higherIsBetter: false, 1.5);
            foreach (var kind in Kinds)
                Row(s, $"{KindNames[kind]}: p50 (µs)", P(folio, kind, 50), P(luceneByKey, kind, 50), "N0", "≤ 1.0", higherIsBetter: false, 1.0);
        }
        s.AppendLine();
        s.AppendLine("Lucene latencies include reading the 25 keys from stored fields (Folio's results carry keys). Without that, and with Lucene's default total-hit threshold:");
        s.AppendLine();
        s.AppendLine("| Lucene query set | p50 (µs) | p99 (µs) |");
        s.AppendLine("|---|---:|---:|");
        foreach (var kind in new[] { "eq-search", "range-search", "text-search", "sort-search", "text-default", "text-default-search" })
        {
            if (lucene is not null && lucene.Latencies.ContainsKey(kind))
                s.AppendLine(CultureInfo.InvariantCulture, $"| {kind} | {P(lucene, kind, 50):N0} | {P(lucene, kind, 99):N0} |");
        }
        s.AppendLine();
        s.AppendLine("Phases (s): ");
        s.AppendLine();
        s.AppendLine("| engine | index to last commit | in add | in commit | close |");
        s.AppendLine("|---|---:|---:|---:|---:|");
        foreach (var e in new[] { folio, lucene, luceneByKey }.Concat(luceneNet).OfType<EngineResult>())
            s.AppendLine(CultureInfo.InvariantCulture, $"| {e.Engine} | {e.IndexSeconds:N1} | {e.AddSeconds:N1} | {e.CommitSeconds:N1} | {e.CloseSeconds:N1} |");
        s.AppendLine();
        s.AppendLine("Hit-count medians (Folio): " + string.Join(", ", Kinds.Where(k => folio?.Totals.ContainsKey(k) == true)
            .Select(k => $"{k} {EngineResult.Percentile(folio!.Totals[k].Select(t => (double)t).ToArray(), 50):N0} (max {folio.Totals[k].Max():N0})")));
        s.AppendLine();
        foreach (var peer in new[] { lucene, luceneByKey }.Concat(luceneNet).OfType<EngineResult>())
        {
            if (folio is null)
                break;
            s.AppendLine($"Folio against {peer.Engine}:");
            s.AppendLine();
            foreach (var kind in Kinds)
            {
                var a = folio.Totals[kind];
                var b = peer.Totals[kind];
                var mismatches = Enumerable.Range(0, a.Length).Where(i => a[i] != b[i]).ToList();
                s.AppendLine(mismatches.Count == 0
                    ? $"- total hits, {kind}: all {a.Length} queries agree."
                    : $"- total hits, {kind}: {mismatches.Count} of {a.Length} differ, e.g. " +
                      string.Join("; ", mismatches.Take(5).Select(i => $"query {i}: Folio {a[i]}, {peer.Engine} {b[i]}")));
            }
            var sortDiffers = Enumerable.Range(0, folio.SortChecksums.Length).Count(i => folio.SortChecksums[i] != peer.SortChecksums[i]);
            s.AppendLine(sortDiffers == 0
                ? $"- sorted top-25 timestamps: all {folio.SortChecksums.Length} queries agree."
                : $"- sorted top-25 timestamps: {sortDiffers} of {folio.SortChecksums.Length} differ.");
            s.AppendLine();
        }
        if (folio?.Extra.GetValueOrDefault("live") is { } live)
        {
            s.AppendLine("Folio live, after the last commit: " + live);
            s.AppendLine();
        }
        if (folio?.Extra.GetValueOrDefault("journal_gone") is { } gone)
        {
            s.AppendLine("Folio's journal files gone: " + gone);
            s.AppendLine();
        }
        foreach (var engine in new[] { folio, lucene })
        {
            if (engine is { SizesAfterCommits.Length: > 0 } e)
            {
                s.AppendLine(CultureInfo.InvariantCulture, $"{e.Engine} live after each commit (MB, in batch order): {string.Join(", ", e.SizesAfterCommits.Select(b => (b / 1e6).ToString("N1", CultureInfo.InvariantCulture)))}");
                s.AppendLine();
            }
        }
        if (lucene?.Extra.GetValueOrDefault("files_after_commit") is { } luceneFiles)
        {
            s.AppendLine("Lucene live, after the last commit: " + luceneFiles);
            s.AppendLine();
        }
        if (folio?.Extra.GetValueOrDefault("trees") is { } trees)
        {
            s.AppendLine("Folio's trees after close: " + trees);
            s.AppendLine();
        }
        LoadLog.Append(s, loads);
        return s.ToString();
    }

    private static double? Apparent(EngineResult? result) =>
        result?.Extra.GetValueOrDefault("size_after_commit_apparent") is { } bytes ? long.Parse(bytes, CultureInfo.InvariantCulture) / 1e6 : null;

    private static double? P(EngineResult? result, string kind, double percentile) =>
        result is not null && result.Latencies.TryGetValue(kind, out var values) ? EngineResult.Percentile(values, percentile) : null;

    private static double? Median(EngineResult? result) =>
        result is { SizesAfterCommits.Length: > 0 } r ? EngineResult.Percentile([.. r.SizesAfterCommits.Select(b => (double)b)], 50) / 1e6 : null;

    private static double? Largest(EngineResult? result) =>
        result is { SizesAfterCommits.Length: > 0 } r ? r.SizesAfterCommits.Max() / 1e6 : null;

    private static void Row(StringBuilder s, string metric, double? folio, double? lucene, string format, string target, bool higherIsBetter, double? bound)
    {
        string Cell(double? v) => v is { } x ? x.ToString(format, CultureInfo.InvariantCulture) : "-";
        var ratio = folio is { } f && lucene is { } l && l > 0 ? f / l : (double?)null;
        var met = ratio is { } r && bound is { } limit ? (higherIsBetter ? r >= limit : r <= limit) ? "yes" : "**no**" : "";
        s.AppendLine(CultureInfo.InvariantCulture, $"| {metric} | {Cell(folio)} | {Cell(lucene)} | {(ratio is { } q ? q.ToString("0.00", CultureInfo.InvariantCulture) + "×" : "-")} | {target} | {met} |");
    }
}
