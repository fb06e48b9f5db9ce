using System.Diagnostics;
using System.Globalization;
using System.Text.Json;
using Folio.Benchmarks.Search;
using Folio.Indexing.Definitions;
using Folio.Indexing.Documents;
using Folio.Indexing.Querying;
using Folio.Storage;
using Folio.Storage.Documents;
using Microsoft.Extensions.Logging.Abstractions;

namespace Folio.Benchmarks.Facets;

/// <summary>
/// Folio's side of facet-load: the records as <c>Products</c> documents in a database on disk (a document store and its
/// indexes, as the server opens one), a static index over them, and the facet queries run as RQL through
/// <see cref="QueryRunner"/>, the path a <c>POST /queries</c> takes once its body is read. The database is kept
/// between runs and reused when it holds the same number of records.
/// </summary>
internal sealed class FolioFacetLoad : IDisposable
{
    public const string IndexName = "Products/Facets";

    private const string Definition = """
        {"Name":"Products/Facets","Collections":["Products"],"Fields":{"Category":{"Path":"Category"},"Brand":{"Path":"Brand"},
         "Month":{"Path":"Month"},"Text":{"Path":"Text","Search":true},"Price":{"Path":"Price","Type":"Double"}}}
        """;

    /// <summary>The suffix of a set's name under which its runs' thread CPU times are kept, beside their wall times.</summary>
    public const string CpuSuffix = "-cpu";

    private const int PutBatch = 1_000;

    private readonly DocumentStore _store;
    private readonly IndexStore _indexes;
    private readonly QueryRunner _runner;

    private FolioFacetLoad(DocumentStore store, IndexStore indexes)
    {
        _store = store;
        _indexes = indexes;
        _runner = new QueryRunner(store, indexes);
    }

    /// <summary>Opens (or first loads and indexes) the database of <paramref name="records"/> under <paramref name="directory"/>.</summary>
    public static async Task<FolioFacetLoad> OpenAsync(string directory, BenchRecord[] records, TextWriter log)
    {
        var marker = Path.Combine(directory, "loaded.txt");
        var count = records.Length.ToString(CultureInfo.InvariantCulture);
        var reuse = File.Exists(marker) && File.ReadAllText(marker) == count;
        if (!reuse && Directory.Exists(directory))
            Directory.Delete(directory, recursive: true);
        Directory.CreateDirectory(directory);
        var store = DocumentStore.Open(StorageOptions.ForPath(directory));
        var load = new FolioFacetLoad(store, new IndexStore(store, Path.Combine(directory, "indexes"), NullLoggerFactory.Instance));
        try
        {
            if (!reuse)
                await load.PutAsync(records, log);
            var indexing = Stopwatch.StartNew();
            load._indexes.Put([IndexDefinitionJson.Parse(JsonDocument.Parse(Definition).RootElement)]);
            var index = load._indexes.Get(IndexName) ?? throw new InvalidOperationException($"{IndexName} was not created.");
            if (!await index.WaitForEtagAsync(store.LastEtag, TimeSpan.FromHours(1)))
                throw new TimeoutException($"{IndexName} did not catch up within an hour.");
            if (!reuse)
                log.WriteLine($"  folio: {IndexName} built in {indexing.Elapsed.TotalSeconds:N1} s ({records.Length / indexing.Elapsed.TotalSeconds:N0} docs/s)");
            File.WriteAllText(marker, count);
            return load;
        }
        catch
        {
            load.Dispose();
            throw;
        }
    }

    /// <summary>The facet query of a matched set: the three term facets and the range facet, in one <c>select</c>.</summary>
    public static string FacetQuery(string? where)
    {
        var ranges = string.Join(", ", FacetBenchSpec.Ranges.Select(r => r.Label));
        var facets = string.Join(", ", FacetBenchSpec.TermFields.Select(f => $"facet({f})"));
        return $"from index '{IndexName}'{(where is null ? "" : " where " + where)} select {facets}, facet({ranges}) as {FacetBenchSpec.RangeField}";
    }

    /// <summary>A set's condition (null: every record) and its parameters for the <paramref name="query"/>-th query.</summary>
    public static (string? Where, Dictionary<string, string> Parameters) Condition(FacetBenchSpec spec, string set, int query) => set switch
    {
        "term" => ("Category = $c", new() { ["c"] = spec.TermCategory }),
        "text" => ("search(Text, $q)", new() { ["q"] = spec.TextQueries[query] }),
        _ => (null, []),
    };

    /// <summary>
    /// Times the facet query of each of <paramref name="sets"/> (an untimed pass first, as the Java side does) and keeps what each distinct
    /// query counted.
    /// </summary>
    public async Task<(EngineResult Timings, FacetCounts Counts)> RunAsync(FacetBenchSpec spec, IReadOnlyList<string> sets, TextWriter log)
    {
        var timings = new EngineResult { Engine = "Folio", Version = typeof(QueryRunner).Assembly.GetName().Version?.ToString() ?? "" };
        var counts = new FacetCounts();
        foreach (var set in sets)
        {
            var runs = new List<(int Query, string Text, QueryOptions Options)>();
            for (var run = 0; run < spec.TimedRuns(set); run++)
            {
                var query = set == "text" ? run : 0;
                var (where, parameters) = Condition(spec, set, query);
                runs.Add((query, FacetQuery(where), Options(parameters)));
            }
            foreach (var (_, text, options) in runs)
                (await _runner.RunAsync(text, options)).Dispose();
            var latencies = new double[runs.Count];
            var cpu = new double[runs.Count];
            var allocated = new double[runs.Count];
            for (var i = 0; i < runs.Count; i++)
            {
                var clock = RequestClock.Start();
                using var result = await _runner.RunAsync(runs[i].Text, runs[i].Options);
                (latencies[i], cpu[i], allocated[i]) = clock.Stop();
                if (i > 0 && runs[i].Query == runs[i - 1].Query)
                    continue;
                counts.Add(set, runs[i].Query, FacetCounts.Total, "", result.TotalResults);
                foreach (var facet in result.Facets)
                {
                    foreach (var value in facet.Values)
                        counts.Add(set, runs[i].Query, facet.Name, value.Range ?? "null", value.Count);
                }
            }
            timings.Latencies[set] = latencies;
            timings.Latencies[set + CpuSuffix] = cpu;
            // The fastest run beside the median: on a shared machine the least disturbed run says most about a change.
            log.WriteLine($"  folio: {set} p50 {EngineResult.Percentile(latencies, 50):N0} µs (CPU {EngineResult.Percentile(cpu, 50):N0} µs, fastest {Fastest(cpu):N0} µs) over {latencies.Length} runs, {EngineResult.Percentile(allocated, 50) / 1024:N0} KB allocated per request (p50)");
        }
        return (timings, counts);
    }

    /// <summary>
    /// The naive way, as users counted before facets: one count query (<c>limit 0</c>) for the matched set's total and one
    /// per value of each term facet (the values every record has, as a client lists them) and per range, each its own
    /// RQL query. Runs each set <paramref name="runs"/> times (the text set: its first <paramref name="runs"/> queries).
    /// </summary>
    public async Task<(EngineResult Timings, FacetCounts Counts)> RunNaiveAsync(FacetBenchSpec spec, FacetCounts facets, int runs, TextWriter log)
    {
        var timings = new EngineResult { Engine = "Folio, one count query per value" };
        var counts = new FacetCounts();
        foreach (var set in FacetBenchSpec.Sets)
        {
            var latencies = new double[Math.Min(runs, spec.QueryCount(set) == 1 ? runs : spec.QueryCount(set))];
            var cpu = new double[latencies.Length];
            for (var run = 0; run < latencies.Length; run++)
            {
                var query = set == "text" ? run : 0;
                var queries = NaiveQueries(spec, facets, set, query);
                var clock = RequestClock.Start();
                foreach (var (facet, value, text, options) in queries)
                {
                    using var result = await _runner.RunAsync(text, options);
                    counts.Add(set, query, facet, value, result.TotalResults);
                }
                (latencies[run], cpu[run], _) = clock.Stop();
            }
            timings.Latencies[set] = latencies;
            timings.Latencies[set + CpuSuffix] = cpu;
            log.WriteLine($"  folio naive: {set} p50 {EngineResult.Percentile(latencies, 50) / 1000:N0} ms (CPU {EngineResult.Percentile(cpu, 50) / 1000:N0} ms) over {latencies.Length} runs");
        }
        return (timings, counts);
    }

    /// <summary>The count queries of the naive way for one query of a set, made before the clock starts.</summary>
    private static List<(string Facet, string Value, string Text, QueryOptions Options)> NaiveQueries(FacetBenchSpec spec, FacetCounts facets, string set, int query)
    {
        var (where, parameters) = Condition(spec, set, query);
        var prefix = $"from index '{IndexName}' where {(where is null ? "" : $"({where}) and ")}";
        var queries = new List<(string, string, string, QueryOptions)>
        {
            (FacetCounts.Total, "", $"from index '{IndexName}'{(where is null ? "" : " where " + where)} limit 0", Options(parameters)),
        };
        foreach (var field in FacetBenchSpec.TermFields)
        {
            foreach (var value in facets.Values("all", 0, field).Keys)
                queries.Add((field, value, $"{prefix}{field} = $v limit 0", Options(new(parameters) { ["v"] = value })));
        }
        foreach (var range in FacetBenchSpec.Ranges)
            queries.Add((FacetBenchSpec.RangeField, range.Label, $"{prefix}{range.Label} limit 0", Options(parameters)));
        return queries;
    }

    private static QueryOptions Options(Dictionary<string, string> parameters) =>
        new() { Parameters = parameters.Count == 0 ? null : JsonSerializer.SerializeToElement(parameters) };

    private async Task PutAsync(BenchRecord[] records, TextWriter log)
    {
        var watch = Stopwatch.StartNew();
        var commands = new List<DocumentCommand>(PutBatch);
        var buffer = new System.Buffers.ArrayBufferWriter<byte>(1024);
        for (var start = 0; start < records.Length; start += PutBatch)
        {
            commands.Clear();
            for (var i = start; i < Math.Min(records.Length, start + PutBatch); i++)
            {
                var r = records[i];
                buffer.ResetWrittenCount();
                using (var writer = new Utf8JsonWriter(buffer))
                {
                    writer.WriteStartObject();
                    writer.WriteString("Category", r.Category);
                    writer.WriteString("Brand", r.Brand);
                    writer.WriteString("Month", FacetBenchSpec.Month(r.Timestamp));
                    writer.WriteString("Text", r.Text);
                    writer.WriteNumber("Ts", r.Timestamp);
                    writer.WriteNumber("Price", r.Price);
                    writer.WriteStartObject("@metadata");
                    writer.WriteString("@collection", "Products");
                    writer.WriteEndObject();
                    writer.WriteEndObject();
                }
                commands.Add(new DocumentCommand(DocumentCommandType.Put, $"products/{r.Id}", PreparedDocument.Parse(buffer.WrittenSpan), null));
            }
            await _store.BatchAsync(commands);
            if ((start / PutBatch) % 100 == 99)
                log.WriteLine($"  folio: {start + PutBatch:N0} documents stored, {(start + PutBatch) / watch.Elapsed.TotalSeconds:N0}/s");
        }
        log.WriteLine($"  folio: {records.Length:N0} documents stored in {watch.Elapsed.TotalSeconds:N1} s");
    }

    public void Dispose()
    {
        _indexes.Dispose();
        _store.Dispose();
    }

    /// <summary>The least of <paramref name="times"/> that were measured (a run that changed threads has no CPU time).</summary>
    private static double Fastest(double[] times)
    {
        var fastest = double.NaN;
        foreach (var time in times)
        {
            if (!double.IsNaN(time) && !(time >= fastest))
                fastest = time;
        }
        return fastest;
    }

    /// <summary>
    /// One timed request's clocks: wall time, the thread's CPU time, which both sides compare on, and the bytes the
    /// thread allocated, which the collections that CPU time leaves out (they run on their own threads) grow with.
    /// </summary>
    private readonly record struct RequestClock(int Thread, double CpuStarted, long Started, long AllocatedBefore)
    {
        public static RequestClock Start() =>
            new(Environment.CurrentManagedThreadId, ThreadCpu.Microseconds(), Stopwatch.GetTimestamp(), GC.GetAllocatedBytesForCurrentThread());

        /// <summary>
        /// Microseconds of wall time, then of CPU time, then bytes allocated; a request that finished on another thread
        /// than it started on has no CPU time or allocations of its own to read (NaN).
        /// </summary>
        public (double Wall, double Cpu, double Allocated) Stop()
        {
            var wall = Stopwatch.GetElapsedTime(Started).TotalMicroseconds;
            return Environment.CurrentManagedThreadId == Thread
                ? (wall, ThreadCpu.Microseconds() - CpuStarted, GC.GetAllocatedBytesForCurrentThread() - AllocatedBefore)
                : (wall, double.NaN, double.NaN);
        }
    }
}
