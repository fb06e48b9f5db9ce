using System.Globalization;
using System.Text;
using Folio.Benchmarks.Search;

namespace Folio.Benchmarks.Facets;

/// <summary>
/// <c>dotnet run -c Release --project tests/Benchmarks -- facet-load [--records N] [--text-queries N] [--repeats N] [--naive-runs N] [--data DIR] [--only folio [--sets term,text,all]] [--host-gc]</c>
/// <para>Facets over the search benchmark's records (<see cref="SearchBenchData"/>, generated once and shared with
/// search-load): Folio's RQL facet queries (<see cref="FolioFacetLoad"/>) and, in the same run, Java Lucene 8's facet
/// module over the same matched sets (Search/lucene/FacetBench.java), then the naive way on Folio (a count query per
/// facet value). Both engines' counts are compared value by value, and the naive way's with Folio's facets: any
/// difference fails the run (exit code 1), since timing different work would mean nothing. Prints a markdown report,
/// also saved under the data directory. Runs under the server's collector settings as search-load does. <c>--only folio</c>
/// times Folio's facets alone, without a report (for a profiler, or a quick before-and-after of a change); with
/// <c>--sets</c>, only the matched sets named (so a profile shows one set's path). The term and all sets each run
/// <c>--repeats</c> times untimed, then as many times timed; the text set runs its queries once untimed, then once timed.</para>
/// </summary>
internal static class FacetLoadCommand
{
    public const string Command = "facet-load";

    private const string Usage = "Usage: facet-load [--records N] [--text-queries N] [--repeats N] [--naive-runs N] [--data DIR] [--only folio [--sets term,text,all]] [--host-gc]";

    private static readonly Dictionary<string, string> SetNames = new(StringComparer.Ordinal)
    {
        ["term"] = "(a) term query (Category)",
        ["text"] = "(b) full-text, 2 terms OR",
        ["all"] = "(c) all records",
    };

    public static async Task<int> RunAsync(string[] args)
    {
        var records = 1_000_000;
        var textQueries = 100;
        // Each set runs as many times untimed before it is timed. At 50 .NET had not finished compiling the hot paths at
        // their final tier (Folio's term set: 7.3 ms p50 at 50, 4.4 ms at 400, quiet machine); Java's were done by then.
        var repeats = 400;
        var naiveRuns = 3;
        var data = SearchBenchData.DefaultDirectory;
        var hostGc = false;
        var onlyFolio = false;
        string[] sets = FacetBenchSpec.Sets;
        var values = new Dictionary<string, Action<string>>(StringComparer.Ordinal)
        {
            ["--records"] = v => records = CommandOptions.Int(v),
            ["--text-queries"] = v => textQueries = CommandOptions.Int(v),
            ["--repeats"] = v => repeats = CommandOptions.Int(v),
            ["--naive-runs"] = v => naiveRuns = CommandOptions.Int(v),
            ["--data"] = v => data = v,
            ["--only"] = v => onlyFolio = v == "folio" ? true : throw new ArgumentException($"--only takes folio, not '{v}'."),
            ["--sets"] = v => sets = Sets(v),
        };
        if (!CommandOptions.Parse(args, Usage, values, new(StringComparer.Ordinal) { ["--host-gc"] = () => hostGc = true }))
            return 2;
        if (!onlyFolio && sets.Length != FacetBenchSpec.Sets.Length)
        {
            Console.Error.WriteLine("--sets needs --only folio: the report compares every set with Lucene.");
            return 2;
        }
        if (!hostGc && !ServerCollector.IsActive)
            return ServerCollector.Relaunch(Command, args);

        var log = Console.Error;
        var loads = new LoadLog(log);
        loads.Note("start");
        // The search benchmark's files, with its default query count, so both commands share them.
        SearchBenchData.EnsureWritten(data, records, 1_000);
        var recordsPath = SearchBenchData.RecordsPath(data, records);
        var generated = SearchBenchData.ReadRecords(recordsPath);
        var spec = FacetBenchSpec.Create(generated, SearchBenchData.ReadQueries(SearchBenchData.QueriesPath(data, records, 1_000))["text"], textQueries, repeats);
        var specPath = Path.Combine(data, $"facet-spec-{records}.tsv");
        spec.Write(specPath);
        log.WriteLine($"term query: Category = '{spec.TermCategory}' ({spec.TermHits:N0} records); {spec.TextQueries.Count} text queries; {repeats} repeats");

        EngineResult folio, naive;
        FacetCounts folioCounts, naiveCounts;
        loads.Note("folio start");
        using (var engine = await FolioFacetLoad.OpenAsync(Path.Combine(data, $"facet-folio-{records}"), generated, log))
        {
            // The records (hundreds of megabytes at 1M) are garbage from here: collected now, not during the timings.
            generated = null;
            GC.Collect(2, GCCollectionMode.Forced, blocking: true, compacting: true);
            loads.Note("folio facets start");
            (folio, folioCounts) = await engine.RunAsync(spec, sets, log);
            if (onlyFolio)
                return 0;
            loads.Note("folio naive start");
            (naive, naiveCounts) = await engine.RunNaiveAsync(spec, folioCounts, naiveRuns, log);
        }
        loads.Note("lucene start");
        if (RunLucene(recordsPath, specPath, data, log) is not var (lucene, luceneCounts))
            return 1;
        loads.Note("lucene end");

        var report = Report(spec, records, folio, folioCounts, naive, naiveCounts, lucene, luceneCounts, loads.Entries, out var agree);
        Console.WriteLine(report);
        var saved = Path.Combine(data, $"facet-load-{records}-{DateTime.UtcNow:yyyyMMdd-HHmmss}.md");
        File.WriteAllText(saved, report);
        log.WriteLine($"report saved to {saved}");
        if (!agree)
        {
            log.WriteLine("FAILED: the engines (or Folio's facets and its count queries) counted differently; see the report.");
            return 1;
        }
        return 0;
    }

    private static string[] Sets(string list)
    {
        var sets = list.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        foreach (var set in sets)
        {
            if (Array.IndexOf(FacetBenchSpec.Sets, set) < 0)
                throw new ArgumentException($"--sets takes {string.Join(", ", FacetBenchSpec.Sets)}, not '{set}'.");
        }
        return sets;
    }

    /// <summary>Compiles the Java side with LuceneBench.java (whose analyzer and readers it shares) and runs it; null when it fails.</summary>
    private static (EngineResult, FacetCounts)? RunLucene(string recordsPath, string specPath, string data, TextWriter log)
    {
        if (LuceneJava.Jars(log, "lucene-core-8*.jar", "lucene-analyzers-common-8*.jar", "lucene-facet-8*.jar") is not { } jars)
            return null;
        var classes = Path.Combine(data, "facet-lucene-classes");
        var classPath = string.Join(':', jars);
        if (LuceneJava.Compile(["-d", classes, "-cp", classPath, LuceneJava.Program("LuceneBench.java"), LuceneJava.Program("FacetBench.java")], log) != 0)
        {
            log.WriteLine("Compiling the Lucene programs failed.");
            return null;
        }
        var results = Path.Combine(data, "facet-lucene-results.tsv");
        var counts = Path.Combine(data, "facet-lucene-counts.tsv");
        File.Delete(results);
        File.Delete(counts);
        var exitCode = LuceneJava.Run(["-cp", $"{classes}:{classPath}", "FacetBench", recordsPath, specPath, Path.Combine(data, "facet-lucene-index"), results, counts], log);
        if (exitCode != 0 || !File.Exists(results) || !File.Exists(counts))
        {
            log.WriteLine($"The Lucene program failed (exit code {exitCode}).");
            return null;
        }
        return (EngineResult.Parse(File.ReadLines(results)), FacetCounts.Read(counts));
    }

    private static string Met(bool met) => met ? "yes" : "**no**";

    /// <summary>The p50s and p99s of each set, the wall times' or (with <paramref name="suffix"/> "-cpu") the CPU times', against the targets.</summary>
    private static void Table(StringBuilder s, EngineResult folio, EngineResult lucene, EngineResult naive, string suffix)
    {
        var what = suffix.Length == 0 ? "" : " CPU";
        s.AppendLine(CultureInfo.InvariantCulture, $"| matched set | Folio{what} p50 (µs) | Lucene{what} p50 (µs) | Folio / Lucene p50 | target | met | Folio{what} p99 (µs) | Lucene{what} p99 (µs) | naive{what} p50 (ms) | naive / Folio facets | target | met |");
        s.AppendLine("|---|---:|---:|---:|---|---|---:|---:|---:|---:|---|---|");
        foreach (var set in FacetBenchSpec.Sets)
        {
            var key = set + suffix;
            var f50 = EngineResult.Percentile(folio.Latencies[key], 50);
            var l50 = EngineResult.Percentile(lucene.Latencies[key], 50);
            var n50 = EngineResult.Percentile(naive.Latencies[key], 50);
            // The naive runs of the text set are its first queries: compared with Folio's facets over the same ones.
            var facetsOverNaive = set == "text" ? EngineResult.Percentile(folio.Latencies[key][..naive.Latencies[key].Length], 50) : f50;
            s.AppendLine(CultureInfo.InvariantCulture,
                $"| {SetNames[set]} | {f50:N0} | {l50:N0} | {f50 / l50:0.00}× | ≤ 0.5 | {Met(f50 / l50 <= 0.5)} | {EngineResult.Percentile(folio.Latencies[key], 99):N0} | {EngineResult.Percentile(lucene.Latencies[key], 99):N0} | {n50 / 1000:N0} | {n50 / facetsOverNaive:N0}× | ≥ 20 | {Met(n50 / facetsOverNaive >= 20)} |");
        }
        s.AppendLine();
    }

    private static string Report(FacetBenchSpec spec, int records, EngineResult folio, FacetCounts folioCounts, EngineResult naive, FacetCounts naiveCounts,
        EngineResult lucene, FacetCounts luceneCounts, IReadOnlyList<string> loads, out bool agree)
    {
        var s = new StringBuilder();
        s.AppendLine(CultureInfo.InvariantCulture, $"### facet-load: {records:N0} records ({DateTime.UtcNow:yyyy-MM-dd HH:mm} UTC)");
        s.AppendLine();
        s.AppendLine(CultureInfo.InvariantCulture, $"Engines: Folio {folio.Version} (RQL through QueryRunner, index {FolioFacetLoad.IndexName}), Lucene {lucene.Version} facet module ({lucene.Extra.GetValueOrDefault("segments") ?? "?"} segments).");
        s.AppendLine(CultureInfo.InvariantCulture, $"Folio's collector: {ServerCollector.Describe()}; Lucene: the JVM's defaults.");
        s.AppendLine();
        s.AppendLine("Facets: `Category` (terms), `Brand` (terms), `Month` (terms), `Price` (5 ranges). Folio's query:");
        s.AppendLine();
        s.AppendLine("```");
        s.AppendLine(FolioFacetLoad.FacetQuery(FolioFacetLoad.Condition(spec, "term", 0).Where));
        s.AppendLine("```");
        s.AppendLine();
        var textHits = Enumerable.Range(0, spec.TextQueries.Count).Select(q => (double)folioCounts.TotalHits("text", q)).ToArray();
        s.AppendLine(CultureInfo.InvariantCulture, $"Matched sets: (a) `Category = '{spec.TermCategory}'`, {spec.TermHits:N0} hits, timed {spec.Repeats} times; " +
            $"(b) the first {spec.TextQueries.Count} two-word queries of search-load's text set, each timed once, hits median {EngineResult.Percentile(textHits, 50):N0} " +
            $"(min {textHits.Min():N0}, max {textHits.Max():N0}); (c) all {records:N0} records, timed {spec.Repeats} times. Each after an untimed pass of the same runs.");
        s.AppendLine();
        s.AppendLine("Wall time (what a caller waits), per request:");
        s.AppendLine();
        Table(s, folio, lucene, naive, "");
        s.AppendLine("CPU time of the thread that ran each request (moves far less with the machine's load than wall time; the collectors' threads are not in it on either side):");
        s.AppendLine();
        Table(s, folio, lucene, naive, FolioFacetLoad.CpuSuffix);
        var naiveQueries = 1 + FacetBenchSpec.TermFields.Sum(f => folioCounts.Values("all", 0, f).Count) + FacetBenchSpec.Ranges.Length;
        s.AppendLine(CultureInfo.InvariantCulture, $"The naive way: {naiveQueries:N0} RQL count queries (`limit 0`) per request, the total and one per value and range, timed {naive.Latencies["term"].Length} times per set (the text set: its first {naive.Latencies["text"].Length} queries).");
        s.AppendLine();
        var (differences, examples, compared) = folioCounts.Compare(luceneCounts, "Folio", "Lucene");
        var (naiveDifferences, naiveExamples, naiveCompared) = naiveCounts.Compare(folioCounts, "count queries", "facets", onlyOwnQueries: true);
        agree = differences == 0 && naiveDifferences == 0;
        s.AppendLine(differences == 0
            ? $"Counts: Folio and Lucene agree on the total and every facet value of all {compared} distinct queries."
            : $"**Counts differ: {differences} values of {compared} queries.** " + string.Join("; ", examples));
        s.AppendLine();
        s.AppendLine(naiveDifferences == 0
            ? $"Folio's count queries agree with its facets on all {naiveCompared} queries they ran."
            : $"**Folio's count queries and facets differ: {naiveDifferences} values.** " + string.Join("; ", naiveExamples));
        s.AppendLine();
        LoadLog.Append(s, loads);
        return s.ToString();
    }
}
