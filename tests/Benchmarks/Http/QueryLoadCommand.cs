using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Text;
using System.Text.Json;
using Folio.Indexing.Definitions;
using Folio.Indexing.Documents;
using Folio.Indexing.Engines;
using Folio.Indexing.Search;
using Folio.Storage;

namespace Folio.Benchmarks.Http;

/// <summary>
/// <c>dotnet run -c Release --project tests/Benchmarks -- query-load [--docs 1000000] [--seconds 10] [--warmup 3] [--repeat 2] [--engines Folio,Lucene] [--skip-raw] [--queries-only WORK_DIR]</c>:
/// bulk-loads generated orders into Folio (Folio.Server.dll as a child process) through bulk_docs, creates a
/// 5-field static index and times it until it is not stale; then p50/p99 over HTTP of equality, range and full-text
/// queries with wrk at 1 and 16 clients; then the search engine's raw rate on the same
/// data (SearchIndex and IndexBatch directly, batches of 10,000, in a child process with server GC like the
/// server). <c>--engines</c> runs the server part once per search engine named (the server's
/// <c>Indexing:SearchEngine</c>; Folio alone by default), one server after the other, and compares them
/// (<see cref="EngineComparison"/>); <c>--skip-raw</c> leaves the raw-engine run out.
/// <c>--queries-only</c> runs only the queries, on the data and index an earlier run left in its work directory;
/// <c>--allocations WORK_DIR</c> measures the bytes allocated per query there instead (see <see cref="QueryAllocations"/>).
/// </summary>
public static class QueryLoadCommand
{
    /// <summary>The command name BenchmarkEntry dispatches on.</summary>
    public const string Command = "query-load";

    private const string RawSwitch = "--raw-index";
    private const int RawBatchSize = 10_000;

    // What committing often costs the engine (the server's indexer starts at 1,024 documents a batch and
    // doubles while a batch takes under a second).
    private const int SmallBatchSize = 512;
    private const string QueriesPath = $"/databases/{BenchServers.Database}/queries";

    private sealed record Options(int Documents, TimeSpan Duration, TimeSpan Warmup, int Repeat, string? QueriesOnly, string? Allocations, IReadOnlyList<string> Engines, bool SkipRaw);

    /// <summary>Runs the command.</summary>
    public static int Run(string[] args)
    {
        if (args.Length == 4 && args[0] == RawSwitch)
            return RunRawIndex(int.Parse(args[1], CultureInfo.InvariantCulture), args[2], int.Parse(args[3], CultureInfo.InvariantCulture));
        var options = new Options(1_000_000, TimeSpan.FromSeconds(10), TimeSpan.FromSeconds(3), 2, null, null, [SearchEngines.Default], false);
        for (int i = 0; i < args.Length; i++)
        {
            options = args[i] switch
            {
                "--docs" => options with { Documents = int.Parse(args[++i], CultureInfo.InvariantCulture) },
                "--seconds" => options with { Duration = TimeSpan.FromSeconds(int.Parse(args[++i], CultureInfo.InvariantCulture)) },
                "--warmup" => options with { Warmup = TimeSpan.FromSeconds(int.Parse(args[++i], CultureInfo.InvariantCulture)) },
                "--repeat" => options with { Repeat = int.Parse(args[++i], CultureInfo.InvariantCulture) },
                "--queries-only" => options with { QueriesOnly = args[++i] },
                "--allocations" => options with { Allocations = args[++i] },
                "--engines" => options with { Engines = ParseEngines(args[++i]) },
                "--skip-raw" => options with { SkipRaw = true },
                _ => throw new ArgumentException($"Unknown option '{args[i]}'. Options: --docs N --seconds N --warmup N --repeat N --engines Folio,Lucene --skip-raw --queries-only WORK_DIR --allocations WORK_DIR"),
            };
        }

        return RunAsync(options).GetAwaiter().GetResult();
    }

    private static async Task<int> RunAsync(Options options)
    {
        Wrk.EnsureInstalled();
        if (options.Allocations is not null)
        {
            Console.WriteLine(await QueryAllocations.MeasureAsync(options.Allocations, QueriesPath, options.Warmup, options.Duration, options.Repeat));
            return 0;
        }

        string work = options.QueriesOnly ?? Path.Combine(Path.GetTempPath(), "folio-query-load-" + DateTime.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture));
        Directory.CreateDirectory(work);
        var data = new OrderData(options.Documents);
        Console.WriteLine($"query-load: {data.Count:N0} orders, index {OrderData.IndexName}, {options.Repeat} runs each; work directory {work}");
        var indexing = new StringBuilder();
        indexing.AppendLine("| engine | indexing | run | documents | seconds | documents/s | CPU s (server) | load avg |");
        indexing.AppendLine("|---|---|---:|---:|---:|---:|---:|---:|");
        var queries = new StringBuilder();
        queries.AppendLine("| engine | query | clients | run | queries/s | p50 ms | p99 ms | max ms | errors | TotalResults (a sample) | load avg |");
        queries.AppendLine("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        var comparison = new EngineComparison();
        var serverRates = new List<double>();

        foreach (string engine in options.Engines)
        {
            // Folio's engine keeps the directory names runs before --engines used, so --queries-only still finds them.
            string name = engine == SearchEngines.Default ? "folio" : "folio-" + engine.ToLowerInvariant();
            using HttpServerProcess folio = await BenchServers.StartFolioAsync(Path.Combine(work, name), Path.Combine(work, name + ".log"), $"--Indexing:SearchEngine={engine}");
            using HttpClient client = BenchServers.CreateClient(folio.Url);
            Console.WriteLine($"  engine {engine}: server {folio.Url}, load {BenchServers.LoadAverage()}");
            var rates = new List<double>();
            var cpuSeconds = new List<double>();
            if (options.QueriesOnly is null)
                await LoadAndIndexAsync(folio, client, data, options, engine, indexing, rates, cpuSeconds);
            else
                await WaitUntilNotStaleAsync(client, data.Count, engine); // an index in an older format is rebuilt at startup
            comparison.AddIndexing(engine, rates, cpuSeconds);
            if (engine == SearchEngines.Default)
                serverRates.AddRange(rates);

            foreach ((string kind, Func<Random, string> body) in QueryKinds(data))
            {
                string bodies = Path.Combine(work, $"queries-{kind}.jsonl");
                var random = new Random(42);
                await File.WriteAllLinesAsync(bodies, Enumerable.Range(0, 2000).Select(_ => body(random)));
                long total = await SampleTotalAsync(client, body(new Random(7)));
                foreach (int clients in new[] { 1, 16 })
                {
                    await Wrk.RunAsync(folio.Url, "post-random-body.lua", [QueriesPath, bodies], clients, options.Warmup);
                    for (int run = 1; run <= options.Repeat; run++)
                    {
                        WrkResult r = await Wrk.RunAsync(folio.Url, "post-random-body.lua", [QueriesPath, bodies], clients, options.Duration);
                        string loadAverage = BenchServers.LoadAverage();
                        Console.WriteLine($"  {engine} {kind} c={clients} run {run}: {r.RequestsPerSecond:N0}/s, p50 {r.P50Ms:0.###} ms, p99 {r.P99Ms:0.###} ms, errors {r.Errors}, load {loadAverage}");
                        queries.AppendLine(CultureInfo.InvariantCulture, $"| {engine} | {kind} | {clients} | {run} | {r.RequestsPerSecond:N0} | {r.P50Ms:0.00} | {r.P99Ms:0.00} | {r.MaxMs:0.0} | {r.Errors} | {total:N0} | {loadAverage} |");
                        comparison.AddQuery(engine, kind, clients, r, total);
                    }
                }
            }

            await folio.StopAsync();
        }

        if (options.QueriesOnly is not null || options.SkipRaw)
        {
            Console.WriteLine();
            if (options.QueriesOnly is null)
                Console.WriteLine(indexing.ToString());
            Console.WriteLine(queries.ToString());
            Console.WriteLine(comparison.Report());
            return 0;
        }

        // After the server stopped, so the two do not share the cores.
        var rawRates = new List<double>();
        foreach (string line in await RunRawAsync(data.Count, Path.Combine(work, "raw"), options.Repeat))
        {
            string[] parts = line.Split(' ');
            double seconds = double.Parse(parts[2], CultureInfo.InvariantCulture);
            string loadAverage = parts[4];
            if (parts[0] == "EXTRACT_RESULT")
            {
                int sample = int.Parse(parts[1], CultureInfo.InvariantCulture);
                indexing.AppendLine(CultureInfo.InvariantCulture, $"| {SearchEngines.Default} | field extraction alone (DocumentFieldExtractor over the JSON) | | {sample:N0} | {seconds:0.0} | {sample / seconds:N0} | | {loadAverage} |");
                continue;
            }

            double rate = data.Count / seconds;
            int batchSize = int.Parse(parts[3], CultureInfo.InvariantCulture);
            if (batchSize == RawBatchSize)
                rawRates.Add(rate);
            indexing.AppendLine(CultureInfo.InvariantCulture, $"| {SearchEngines.Default} | raw SearchIndex + IndexBatch, batches of {batchSize:N0} | {parts[1]} | {data.Count:N0} | {seconds:0.0} | {rate:N0} | | {loadAverage} |");
        }

        Console.WriteLine();
        Console.WriteLine(indexing.ToString());
        if (serverRates.Count > 0)
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"Server / raw indexing rate (means, Folio's engine): {serverRates.Average() / rawRates.Average():0.00} (target ≥ 0.80)"));
        Console.WriteLine();
        Console.WriteLine(queries.ToString());
        Console.WriteLine(comparison.Report());
        return 0;
    }

    private static IReadOnlyList<string> ParseEngines(string text)
    {
        var engines = new List<string>();
        foreach (string name in text.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
            engines.Add(SearchEngines.Get(name).Name);
        return engines.Count > 0 ? engines : throw new ArgumentException("--engines names no engine.");
    }

    private static async Task LoadAndIndexAsync(HttpServerProcess folio, HttpClient client, OrderData data, Options options, string engine, StringBuilder indexing, List<double> serverRates, List<double> serverCpuSeconds)
    {
        await BenchServers.CreateFolioDatabaseAsync(client);
        var load = Stopwatch.StartNew();
        await BenchServers.LoadFolioAsync(client, data.Count, 4, OrderData.Id, data.Json);
        Console.WriteLine($"  bulk_docs load: {data.Count:N0} orders in {load.Elapsed.TotalSeconds:0.0} s ({data.Count / load.Elapsed.TotalSeconds:N0}/s), load {BenchServers.LoadAverage()}");

        for (int run = 1; run <= options.Repeat; run++)
        {
            TimeSpan cpu = folio.CpuTime;
            TimeSpan elapsed = await IndexUntilNotStaleAsync(client, data.Count, engine, first: run == 1);
            double seconds = (folio.CpuTime - cpu).TotalSeconds;
            double rate = data.Count / elapsed.TotalSeconds;
            serverRates.Add(rate);
            serverCpuSeconds.Add(seconds);
            string loadAverage = BenchServers.LoadAverage();
            Console.WriteLine($"  {engine}: server index run {run}: {elapsed.TotalSeconds:0.0} s, {rate:N0} documents/s, server CPU {seconds:0.0} s, load {loadAverage}");
            indexing.AppendLine(CultureInfo.InvariantCulture, $"| {engine} | through the server (PUT index → not stale) | {run} | {data.Count:N0} | {elapsed.TotalSeconds:0.0} | {rate:N0} | {seconds:0.0} | {loadAverage} |");
        }
    }

    private static IEnumerable<(string Kind, Func<Random, string> Body)> QueryKinds(OrderData data)
    {
        const string from = $"from index '{OrderData.IndexName}'";
        yield return ("equality", random => Body($"{from} where Customer = $c limit 25", $"{{\"c\":\"customers/{random.Next(data.Customers)}\"}}"));
        // A price band 1.00 wide out of 1,000.00: about 0.1% of the orders.
        yield return ("range", random =>
        {
            int low = random.Next(100_000);
            return Body($"{from} where Price between $lo and $hi limit 25", string.Create(CultureInfo.InvariantCulture, $"{{\"lo\":{low / 100.0},\"hi\":{(low + 100) / 100.0}}}"));
        });
        yield return ("full-text", random => Body($"{from} where search(Notes, $q) limit 25", $"{{\"q\":\"{OrderData.Word(random.Next(OrderData.Vocabulary))}\"}}"));
    }

    private static string Body(string query, string parameters) => $"{{\"Query\":\"{query}\",\"QueryParameters\":{parameters}}}";

    private static async Task<long> SampleTotalAsync(HttpClient client, string body)
    {
        using var content = new StringContent(body, Encoding.UTF8, "application/json");
        using HttpResponseMessage response = await client.PostAsync(QueriesPath, content);
        string text = await response.Content.ReadAsStringAsync();
        if (response.StatusCode != HttpStatusCode.OK)
            throw new InvalidOperationException($"The query {body} answered {(int)response.StatusCode}: {text}");
        using var json = JsonDocument.Parse(text);
        if (json.RootElement.GetProperty("IsStale").GetBoolean())
            throw new InvalidOperationException($"The query {body} was answered from a stale index.");
        return json.RootElement.GetProperty("TotalResults").GetInt64();
    }

    /// <summary>Creates the index (first run) or resets it (later runs) and polls its stats until it is not stale and holds every order.</summary>
    private static async Task<TimeSpan> IndexUntilNotStaleAsync(HttpClient client, int documents, string engine, bool first)
    {
        var watch = Stopwatch.StartNew();
        HttpResponseMessage started = first
            ? await client.PutAsync($"/databases/{BenchServers.Database}/indexes", new StringContent($"{{\"Indexes\":[{OrderData.IndexDefinitionJson}]}}", Encoding.UTF8, "application/json"))
            : await client.PostAsync($"/databases/{BenchServers.Database}/indexes/reset?name={Uri.EscapeDataString(OrderData.IndexName)}", null);
        using (started)
        {
            if (!started.IsSuccessStatusCode)
                throw new InvalidOperationException($"Starting the index answered {(int)started.StatusCode}: {await started.Content.ReadAsStringAsync()}");
        }

        await WaitUntilNotStaleAsync(client, documents, engine);
        return watch.Elapsed;
    }

    /// <summary>Polls the index's stats until it is not stale and holds every order; throws when another engine than <paramref name="engine"/> keeps it.</summary>
    private static async Task WaitUntilNotStaleAsync(HttpClient client, int documents, string engine)
    {
        while (true)
        {
            using (JsonDocument stats = JsonDocument.Parse(await client.GetStringAsync($"/databases/{BenchServers.Database}/indexes/stats")))
            {
                foreach (JsonElement index in stats.RootElement.GetProperty("Results").EnumerateArray())
                {
                    if (index.GetProperty("Name").GetString() != OrderData.IndexName)
                        continue;
                    if (index.GetProperty("SearchEngine").GetString() != engine)
                        throw new InvalidOperationException($"The index runs on {index.GetProperty("SearchEngine").GetString()}, not {engine}.");
                    if (index.TryGetProperty("Failure", out JsonElement failure))
                        throw new InvalidOperationException($"The index failed: {failure}");
                    if (!index.GetProperty("IsStale").GetBoolean() && index.GetProperty("EntriesCount").GetInt64() == documents)
                    {
                        if (index.GetProperty("ErrorsCount").GetInt64() != 0)
                            throw new InvalidOperationException($"The index recorded errors: {index.GetProperty("Errors")}");
                        return;
                    }
                }
            }

            await Task.Delay(50);
        }
    }

    /// <summary>Runs the raw-index measurement in a child process with server GC, as the server runs, and returns its result lines.</summary>
    private static async Task<List<string>> RunRawAsync(int documents, string directory, int repeat)
    {
        var start = new ProcessStartInfo("dotnet") { UseShellExecute = false, RedirectStandardOutput = true };
        foreach (string argument in new[] { Path.Combine(AppContext.BaseDirectory, "Folio.Benchmarks.dll"), Command, RawSwitch, documents.ToString(CultureInfo.InvariantCulture), directory, repeat.ToString(CultureInfo.InvariantCulture) })
            start.ArgumentList.Add(argument);
        start.Environment["DOTNET_gcServer"] = "1";
        using Process process = Process.Start(start) ?? throw new InvalidOperationException("Could not start the raw-index run.");
        var lines = new List<string>();
        while (await process.StandardOutput.ReadLineAsync() is { } line)
        {
            Console.WriteLine("  " + line);
            if (line.StartsWith("RAW_RESULT ", StringComparison.Ordinal) || line.StartsWith("EXTRACT_RESULT ", StringComparison.Ordinal))
                lines.Add(line);
        }

        await process.WaitForExitAsync();
        if (process.ExitCode != 0)
            throw new InvalidOperationException($"The raw-index run exited with {process.ExitCode}.");
        return lines;
    }

    /// <summary>
    /// The search engine alone: the entries the index definition would make, added in batches of 10,000,
    /// each batch committed (and synced) as the server's indexer commits its batches. Prints one RAW_RESULT per run.
    /// </summary>
    private static int RunRawIndex(int documents, string directory, int repeat)
    {
        var data = new OrderData(documents);
        IndexSchema schema = IndexDefinitionJson.Parse(JsonDocument.Parse(OrderData.IndexDefinitionJson).RootElement).ToSchema();
        // The batch size the spec asks for, then the server indexer's starting size, to show what batch size alone costs.
        foreach ((int batchSize, int runs) in new[] { (RawBatchSize, repeat), (SmallBatchSize, 1) })
        {
            for (int run = 1; run <= runs; run++)
            {
                string path = Path.Combine(directory, $"{batchSize}-{run}");
                SearchIndex.Drop(path);
                using SearchIndex index = SearchIndex.Open(StorageOptions.ForPath(path), schema);
                // Up to the return of the last commit, as the server's index counts as caught up then; closing is not timed.
                var watch = Stopwatch.StartNew();
                for (int first = 0; first < documents; first += batchSize)
                {
                    using IndexBatch batch = index.BeginBatch();
                    int last = Math.Min(documents, first + batchSize);
                    for (int n = first; n < last; n++)
                        batch.Add(data.Entry(n));
                    batch.Commit();
                }

                Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"RAW_RESULT {run} {watch.Elapsed.TotalSeconds:0.000} {batchSize} {BenchServers.LoadAverage()}"));
            }
        }

        // How long reading the fields out of the JSON takes on its own: the part of the server's overhead that is field extraction.
        IndexDefinition definition = IndexDefinitionJson.Parse(JsonDocument.Parse(OrderData.IndexDefinitionJson).RootElement);
        int sample = Math.Min(documents, 200_000);
        byte[][] json = new byte[sample][];
        for (int n = 0; n < sample; n++)
            json[n] = data.Json(n);
        var extract = Stopwatch.StartNew();
        for (int n = 0; n < sample; n++)
            DocumentFieldExtractor.Extract(definition, OrderData.Id(n), json[n]);
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"EXTRACT_RESULT {sample} {extract.Elapsed.TotalSeconds:0.000} 0 {BenchServers.LoadAverage()}"));
        return 0;
    }
}
