using System.Globalization;
using System.Text;
using Folio.Server.Hosting;

namespace Folio.Benchmarks.Http;

/// <summary>
/// <c>dotnet run -c Release --project tests/Benchmarks -- http-load [--seconds 10] [--connections 64] [--docs 100000]
/// [--warmup 3] [--repeat 2] [--skip-pouchdb] [--documents-compression on|off]</c>: GET by random id and PUT of 1 KB documents with wrk, against
/// a bare Kestrel endpoint, Folio (Folio.Server.dll as a child process) and PouchDB Server, one after another
/// on loopback; then the bytes Folio allocates per GET and per PUT, with Folio in this process for that part.
/// Needs <c>tests/Benchmarks/Http/setup-http-load.sh</c> first.
/// </summary>
public static class HttpLoadCommand
{
    /// <summary>The command name BenchmarkEntry dispatches on.</summary>
    public const string Command = "http-load";

    private const string FolioGetPrefix = $"/databases/{BenchServers.Database}/docs?id=docs/";
    private const string FolioPutPrefix = $"/databases/{BenchServers.Database}/docs?id=put/";

    // CouchDB ids with a slash go in the path with it escaped.
    private const string PouchGetPrefix = $"/{BenchServers.Database}/docs%2F";
    private const string PouchPutPrefix = $"/{BenchServers.Database}/put%2F";

    private sealed record Options(TimeSpan Duration, TimeSpan Warmup, int Connections, int Documents, int Repeat, bool SkipPouchDb, string[] FolioArguments);

    private sealed record Row(string Server, string Operation, int Connections, int Run, WrkResult Result, double CpuMicrosPerRequest, string Load);

    /// <summary>Runs the command.</summary>
    public static int Run(string[] args)
    {
        if (args.Length == 3 && args[0] == BareKestrel.ServeSwitch)
            return BareKestrel.Serve(int.Parse(args[1], CultureInfo.InvariantCulture), args[2]);
        return RunAsync(Parse(args)).GetAwaiter().GetResult();
    }

    private static Options Parse(string[] args)
    {
        var options = new Options(TimeSpan.FromSeconds(10), TimeSpan.FromSeconds(3), 64, 100_000, 2, false, []);
        for (int i = 0; i < args.Length; i++)
        {
            options = args[i] switch
            {
                "--seconds" => options with { Duration = TimeSpan.FromSeconds(int.Parse(args[++i], CultureInfo.InvariantCulture)) },
                "--warmup" => options with { Warmup = TimeSpan.FromSeconds(int.Parse(args[++i], CultureInfo.InvariantCulture)) },
                "--connections" => options with { Connections = int.Parse(args[++i], CultureInfo.InvariantCulture) },
                "--docs" => options with { Documents = int.Parse(args[++i], CultureInfo.InvariantCulture) },
                "--repeat" => options with { Repeat = int.Parse(args[++i], CultureInfo.InvariantCulture) },
                "--skip-pouchdb" => options with { SkipPouchDb = true },
                // The server's default for every database, so GET and PUT can be compared with bodies compressed and not.
                "--documents-compression" => options with { FolioArguments = ["--DocumentsCompression=" + (args[++i] == "on" ? "true" : "false")] },
                _ => throw new ArgumentException($"Unknown option '{args[i]}'. Options: --seconds N --warmup N --connections N --docs N --repeat N --skip-pouchdb --documents-compression on|off"),
            };
        }

        return options;
    }

    private static async Task<int> RunAsync(Options options)
    {
        Wrk.EnsureInstalled();
        string work = Path.Combine(Path.GetTempPath(), "folio-http-load-" + DateTime.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture));
        Directory.CreateDirectory(work);
        Console.WriteLine($"http-load: {options.Documents:N0} documents of {SampleDocument.Size} bytes, {options.Connections} connections, {options.Duration.TotalSeconds:0} s per run after {options.Warmup.TotalSeconds:0} s of warm-up, {options.Repeat} runs each; work directory {work}");

        string putBody = Path.Combine(work, "put-body.json");
        File.WriteAllBytes(putBody, SampleDocument.Create(int.MaxValue / 2));
        var rows = new List<Row>();
        string getCount = options.Documents.ToString(CultureInfo.InvariantCulture);

        // (a) The ceilings: Kestrel answering a fixed body of Folio's GET shape, and taking a PUT's body
        // and answering Folio's 201 without storing anything.
        string bareBody = Path.Combine(work, "bare-body.json");
        File.WriteAllBytes(bareBody, [.. "{\"Results\":["u8, .. SampleDocument.Create(0), .. "],\"Includes\":{}}"u8]);
        using (HttpServerProcess bare = await BareKestrel.StartAsync(bareBody, Path.Combine(work, "bare-kestrel.log")))
        {
            await MeasureAsync(rows, options, bare, "bare Kestrel", "GET", "get-random.lua", ["/doc?id=docs/", getCount], options.Connections);
            await MeasureAsync(rows, options, bare, "bare Kestrel", "PUT", "put-new.lua", ["/doc?id=put/", putBody], options.Connections);
            await bare.StopAsync();
        }

        // (b) Folio as it ships: request log on (the rolling file), every PUT acknowledged after the journal sync.
        string folioData = Path.Combine(work, "folio");
        using (HttpServerProcess folio = await BenchServers.StartFolioAsync(folioData, Path.Combine(work, "folio.log"), options.FolioArguments))
        {
            using (HttpClient client = BenchServers.CreateClient(folio.Url))
            {
                await BenchServers.CreateFolioDatabaseAsync(client);
                await TimedAsync("Folio bulk_docs pre-load", options.Documents,
                    () => BenchServers.LoadFolioAsync(client, options.Documents, 4, i => "docs/" + i.ToString(CultureInfo.InvariantCulture), SampleDocument.Create));
            }

            await MeasureAsync(rows, options, folio, "Folio", "GET", "get-random.lua", [FolioGetPrefix, getCount], options.Connections);
            await MeasureAsync(rows, options, folio, "Folio", "PUT", "put-new.lua", [FolioPutPrefix, putBody], options.Connections);
            await MeasureAsync(rows, options, folio, "Folio", "PUT", "put-new.lua", [FolioPutPrefix, putBody], 1);
            await folio.StopAsync();
        }

        // The same data with the request log line filtered out, to show what that line costs.
        using (HttpServerProcess folio = await BenchServers.StartFolioAsync(folioData, Path.Combine(work, "folio-quiet.log"), ["--Serilog:MinimumLevel:Default=Warning", .. options.FolioArguments]))
        {
            await MeasureAsync(rows, options, folio, "Folio, request log off", "GET", "get-random.lua", [FolioGetPrefix, getCount], options.Connections);
            await folio.StopAsync();
        }

        // (c) PouchDB Server on LevelDB in the work directory.
        if (!options.SkipPouchDb)
        {
            using HttpServerProcess pouch = await BenchServers.StartPouchDbAsync(Path.Combine(work, "pouchdb"), Path.Combine(work, "pouchdb.log"));
            using (HttpClient client = BenchServers.CreateClient(pouch.Url))
            {
                await TimedAsync("PouchDB _bulk_docs pre-load", options.Documents,
                    () => BenchServers.LoadPouchDbAsync(client, options.Documents, 4, i => "docs/" + i.ToString(CultureInfo.InvariantCulture), SampleDocument.Create));
            }

            await MeasureAsync(rows, options, pouch, "PouchDB Server", "GET", "get-random.lua", [PouchGetPrefix, getCount], options.Connections);
            await MeasureAsync(rows, options, pouch, "PouchDB Server", "PUT", "put-new.lua", [PouchPutPrefix, putBody], options.Connections);
            await MeasureAsync(rows, options, pouch, "PouchDB Server", "PUT", "put-new.lua", [PouchPutPrefix, putBody], 1);
            await pouch.StopAsync();
        }

        string allocations = await MeasureAllocationsAsync(options, folioData, putBody, getCount);
        Console.WriteLine();
        Console.WriteLine(Report(rows, options));
        Console.WriteLine(allocations);
        // A run leaves gigabytes of databases and logs; a few runs in a row filled this machine's disk.
        Directory.Delete(work, recursive: true);
        return 0;
    }

    private static async Task MeasureAsync(List<Row> rows, Options options, HttpServerProcess server, string name, string operation, string script, string[] scriptArguments, int connections)
    {
        var url = server.Url;
        await Wrk.RunAsync(url, script, WithTag(scriptArguments, operation, $"warm{connections}"), connections, options.Warmup);
        for (int run = 1; run <= options.Repeat; run++)
        {
            TimeSpan cpuBefore = server.CpuTime;
            WrkResult result = await Wrk.RunAsync(url, script, WithTag(scriptArguments, operation, $"r{run}c{connections}"), connections, options.Duration);
            double cpu = (server.CpuTime - cpuBefore).TotalMicroseconds / Math.Max(1, result.Requests);
            var row = new Row(name, operation, connections, run, result, cpu, BenchServers.LoadAverage());
            rows.Add(row);
            Console.WriteLine($"  {name} {operation} c={connections} run {run}: {result.RequestsPerSecond:N0} req/s, p50 {result.P50Ms:0.###} ms, p99 {result.P99Ms:0.###} ms, errors {result.Errors}, server CPU {cpu:0.#} µs/req, load {row.Load}");
        }
    }

    // PUT runs each write new ids; the tag keeps one run's ids apart from another's.
    private static IReadOnlyList<string> WithTag(string[] arguments, string operation, string tag) =>
        operation == "PUT" ? [.. arguments, tag] : arguments;

    private static async Task TimedAsync(string what, int documents, Func<Task> load)
    {
        var watch = System.Diagnostics.Stopwatch.StartNew();
        await load();
        Console.WriteLine($"  {what}: {documents:N0} documents in {watch.Elapsed.TotalSeconds:0.0} s ({documents / watch.Elapsed.TotalSeconds:N0}/s)");
    }

    /// <summary>
    /// Bytes allocated per request: Folio runs in this process for it, wrk drives it from outside, so the
    /// only other allocations are this process's own idle ones, measured over the same time and taken off.
    /// </summary>
    private static async Task<string> MeasureAllocationsAsync(Options options, string dataDirectory, string putBody, string getCount)
    {
        var text = new StringBuilder();
        text.AppendLine("| Folio in-process, wrk outside | connections | requests | bytes allocated per request | gen0 GCs per 1,000 requests | load avg |");
        text.AppendLine("|---|---:|---:|---:|---:|---:|");
        await MeasureAllocationsAsync(text, options, dataDirectory, putBody, getCount, "");
        await MeasureAllocationsAsync(text, options, dataDirectory, putBody, getCount, ", request log off", "--Serilog:MinimumLevel:Default=Warning");
        return text.ToString();
    }

    private static async Task MeasureAllocationsAsync(StringBuilder text, Options options, string dataDirectory, string putBody, string getCount, string variant, params string[] extraArguments)
    {
        await using FolioServer server = FolioServer.Create([$"--DataDir={dataDirectory}", "--ServerUrl=http://127.0.0.1:0", "--TcpPort=0", "--LogToConsole=false", .. extraArguments]);
        await server.StartAsync();

        long idleBefore = GC.GetTotalAllocatedBytes(precise: true);
        var idleWatch = System.Diagnostics.Stopwatch.StartNew();
        await Task.Delay(options.Duration);
        double idlePerSecond = (GC.GetTotalAllocatedBytes(precise: true) - idleBefore) / idleWatch.Elapsed.TotalSeconds;

        foreach ((string operation, string script, string[] arguments) in new (string, string, string[])[]
        {
            ("GET", "get-random.lua", [FolioGetPrefix, getCount]),
            ("PUT", "put-new.lua", [FolioPutPrefix, putBody]),
        })
        {
            await Wrk.RunAsync(server.Address, script, WithTag(arguments, operation, "alloc-warm"), options.Connections, options.Warmup);
            for (int run = 1; run <= options.Repeat; run++)
            {
                int gen0 = GC.CollectionCount(0);
                long before = GC.GetTotalAllocatedBytes(precise: true);
                var watch = System.Diagnostics.Stopwatch.StartNew();
                WrkResult result = await Wrk.RunAsync(server.Address, script, WithTag(arguments, operation, $"alloc{run}"), options.Connections, options.Duration);
                double bytes = GC.GetTotalAllocatedBytes(precise: true) - before - (idlePerSecond * watch.Elapsed.TotalSeconds);
                double perRequest = bytes / Math.Max(1, result.Requests);
                double gcs = (GC.CollectionCount(0) - gen0) * 1000.0 / Math.Max(1, result.Requests);
                string load = BenchServers.LoadAverage();
                Console.WriteLine($"  allocations {operation}{variant} run {run}: {perRequest:N0} B/request over {result.Requests:N0} requests ({result.Errors} errors), load {load}");
                text.AppendLine(CultureInfo.InvariantCulture, $"| {operation}{variant} (run {run}) | {options.Connections} | {result.Requests:N0} | {perRequest:N0} | {gcs:0.00} | {load} |");
            }
        }

        text.AppendLine(CultureInfo.InvariantCulture, $"(idle allocation of this process{variant}, taken off: {idlePerSecond:N0} B/s)");

        // Separate, sampled runs (the listener allocates too, so it is kept out of the numbers above).
        foreach ((string operation, string script, IReadOnlyList<string> arguments) in new (string, string, IReadOnlyList<string>)[]
        {
            ("GET", "get-random.lua", [FolioGetPrefix, getCount]),
            ("PUT", "put-new.lua", WithTag([FolioPutPrefix, putBody], "PUT", "alloc-sampled")),
        })
        {
            using var sampler = new AllocationSampler();
            sampler.Start();
            WrkResult sampled = await Wrk.RunAsync(server.Address, script, arguments, options.Connections, options.Duration);
            text.AppendLine();
            text.AppendLine(CultureInfo.InvariantCulture, $"| {operation}{variant}: type allocated (sampled every ~100 KB) | share | ≈ bytes per {operation} |");
            text.AppendLine("|---|---:|---:|");
            text.Append(sampler.Stop(12, sampled.Requests));
            text.AppendLine();
        }

        await server.StopAsync();
    }

    private static string Report(List<Row> rows, Options options)
    {
        var text = new StringBuilder();
        text.AppendLine("| server | operation | connections | run | requests/s | p50 ms | p99 ms | errors | server CPU µs/request | load avg |");
        text.AppendLine("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
        foreach (Row row in rows)
        {
            WrkResult r = row.Result;
            text.AppendLine(CultureInfo.InvariantCulture, $"| {row.Server} | {row.Operation} | {row.Connections} | {row.Run} | {r.RequestsPerSecond:N0} | {r.P50Ms:0.00} | {r.P99Ms:0.00} | {r.Errors} | {row.CpuMicrosPerRequest:0} | {row.Load} |");
        }

        double Mean(string server, string operation, int connections)
        {
            double sum = 0;
            int count = 0;
            foreach (Row row in rows)
            {
                if (row.Server == server && row.Operation == operation && row.Connections == connections)
                {
                    sum += row.Result.RequestsPerSecond;
                    count++;
                }
            }

            return count == 0 ? double.NaN : sum / count;
        }

        int c = options.Connections;
        double folioGet = Mean("Folio", "GET", c);
        double folioPut = Mean("Folio", "PUT", c);
        text.AppendLine();
        text.AppendLine("| ratio (means of the runs) | measured | target |");
        text.AppendLine("|---|---:|---:|");
        text.AppendLine(CultureInfo.InvariantCulture, $"| Folio GET / bare Kestrel GET | {folioGet / Mean("bare Kestrel", "GET", c):0.00} | ≥ 0.50 |");
        text.AppendLine(CultureInfo.InvariantCulture, $"| Folio GET / PouchDB Server GET | {folioGet / Mean("PouchDB Server", "GET", c):0.00} | ≥ 3 |");
        text.AppendLine(CultureInfo.InvariantCulture, $"| Folio PUT, {c} writers / 1 sequential writer | {folioPut / Mean("Folio", "PUT", 1):0.00} | ≥ 20 |");
        text.AppendLine(CultureInfo.InvariantCulture, $"| Folio PUT / PouchDB Server PUT, {c} writers | {folioPut / Mean("PouchDB Server", "PUT", c):0.00} | ≥ 3 |");
        // What the writers' target can reach here at all: a server that stores nothing, on the same cores as wrk.
        double barePut = Mean("bare Kestrel", "PUT", c);
        text.AppendLine(CultureInfo.InvariantCulture, $"| Folio PUT / bare Kestrel PUT (no storage), {c} writers | {folioPut / barePut:0.00} | |");
        text.AppendLine(CultureInfo.InvariantCulture, $"| bare Kestrel PUT, {c} writers / Folio's 1 sequential writer (the ceiling of the writers' ratio) | {barePut / Mean("Folio", "PUT", 1):0.00} | |");
        return text.ToString();
    }
}
