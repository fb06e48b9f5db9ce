using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Text;
using Folio.Benchmarks.BulkLoad;
using Folio.Benchmarks.Http;

namespace Folio.Benchmarks.ManyDatabases;

/// <summary>
/// <c>dotnet run -c Release --project tests/Benchmarks -- many-dbs [--databases 1000] [--connections 8] [--idle 00:01:00]
/// [--release-after 00:00:30] [--max-loaded 0] [--journal-mb 4] [--skip-pouchdb] [--gc-probe]</c>: a database per tenant, as a new user would set it up over HTTP,
/// on Folio.Server.dll and on PouchDB Server, one after the other in the same run. Each gets N databases with three
/// indexes (Folio static indexes; PouchDB one design document with three views) and three documents, each index queried
/// once so it is built. Samples threads, RSS and open descriptors of each server as the databases are created; restarts
/// each and times it until it answers (Folio <c>/healthz/ready</c>, PouchDB <c>/</c>); then times the first request to
/// every database after the restart (Folio: an unloaded database it opens) and a second one (loaded), and samples again;
/// Folio samples once more when the last database used has been quiet for <c>Databases:ReleasePagesAfter</c> (every one
/// still loaded when the idle unload is longer), then waits for the idle unload of every database and samples again.
/// With <c>--gc-probe</c>, one client GETs a document of the first database over and over through that quiet wait,
/// so the latency before the wave of page releases can be set against the latency during it and the collection that
/// follows it (the server logs that collection's pause); the probe keeps its database in use and allocates, so the
/// quiet sample of such a run is not comparable with one without it.
/// </summary>
public static class ManyDatabasesCommand
{
    /// <summary>The command name BenchmarkEntry dispatches on.</summary>
    public const string Command = "many-dbs";

    private const string FolioIndexes = """{"Indexes":[{"Name":"Users/ByName","Collections":["Users"],"Fields":{"Name":{"Path":"Name"}}},{"Name":"Users/ByAge","Collections":["Users"],"Fields":{"Age":{"Path":"Age","Type":"Long"}}},{"Name":"Users/ByCity","Collections":["Users"],"Fields":{"City":{"Path":"City"}}}]}""";
    private const string PouchDesign = """{"views":{"byName":{"map":"function (doc) { emit(doc.Name); }"},"byAge":{"map":"function (doc) { emit(doc.Age); }"},"byCity":{"map":"function (doc) { emit(doc.City); }"}}}""";

    private static readonly TimeSpan Settled = TimeSpan.FromSeconds(10);

    /// <summary>Runs the command.</summary>
    public static async Task<int> RunAsync(string[] args)
    {
        var settings = new Settings();
        for (int i = 0; i < args.Length; i++)
        {
            switch (args[i])
            {
                case "--databases": settings.Databases = int.Parse(args[++i], CultureInfo.InvariantCulture); break;
                case "--connections": settings.Connections = int.Parse(args[++i], CultureInfo.InvariantCulture); break;
                case "--idle": settings.Idle = TimeSpan.Parse(args[++i], CultureInfo.InvariantCulture); break;
                case "--max-loaded": settings.MaxLoaded = int.Parse(args[++i], CultureInfo.InvariantCulture); break;
                case "--journal-mb": settings.JournalMegabytes = int.Parse(args[++i], CultureInfo.InvariantCulture); break;
                case "--release-after": settings.ReleaseAfter = TimeSpan.Parse(args[++i], CultureInfo.InvariantCulture); break;
                case "--skip-pouchdb": settings.SkipPouchDb = true; break;
                case "--gc-probe": settings.GcProbe = true; break;
                default:
                    Console.Error.WriteLine($"Unknown option '{args[i]}'. Options: --databases N --connections N --idle hh:mm:ss --release-after hh:mm:ss --max-loaded N --journal-mb N --skip-pouchdb --gc-probe");
                    return 2;
            }
        }

        string work = Path.Combine(Path.GetTempPath(), "folio-many-dbs-" + DateTime.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture));
        Directory.CreateDirectory(work);
        var report = new StringBuilder();
        report.AppendLine(CultureInfo.InvariantCulture, $"many-dbs: {settings.Databases} databases × 3 indexes × 3 documents, {settings.Connections} connections, Folio Databases:IdleUnloadAfter={settings.Idle} and ReleasePagesAfter={settings.ReleaseAfter} (after the restart), MaxLoaded={settings.MaxLoaded}, journals {settings.JournalMegabytes} MB; load average at start {BenchServers.LoadAverage()}");
        report.AppendLine();
        report.AppendLine($"| server | moment | databases | {ProcessSample.Header} | load avg |");
        report.AppendLine("|---|---|---:|---:|---:|---:|---:|---:|---:|");
        var timings = new StringBuilder();
        var mappings = new StringBuilder();
        timings.AppendLine("| server | what | p50 ms | p99 ms | max ms | seconds |");
        timings.AppendLine("|---|---|---:|---:|---:|---:|");
        try
        {
            await RunFolioAsync(settings, work, report, timings, mappings);
            if (!settings.SkipPouchDb)
                await RunPouchDbAsync(settings, work, report, timings);
            Console.WriteLine();
            Console.WriteLine(report);
            Console.WriteLine(timings);
            Console.WriteLine(mappings);
            return 0;
        }
        finally
        {
            Directory.Delete(work, recursive: true);
        }
    }

    private static async Task RunFolioAsync(Settings settings, string work, StringBuilder report, StringBuilder timings, StringBuilder mappings)
    {
        string dataDir = Path.Combine(work, "folio");
        string[] common = [$"--JournalFileSizeBytes={settings.JournalMegabytes * 1024L * 1024}", $"--Databases:MaxLoaded={settings.MaxLoaded}"];
        TimeSpan created;
        using (HttpServerProcess folio = await BenchServers.StartFolioAsync(dataDir, Path.Combine(work, "folio-1.log"), [.. common, "--Databases:IdleUnloadAfter=01:00:00"]))
        {
            Row(report, "Folio", "idle server", 0, ProcessSample.Of(folio.Id));
            using HttpClient client = BenchServers.CreateClient(folio.Url);
            created = await CreateAllAsync(settings, report, "Folio", folio.Id, i => CreateFolioDatabaseAsync(client, Name(i)));
            mappings.AppendLine(await HeapAsync(client, $"{settings.Databases} databases created"));
            mappings.AppendLine(MappingBreakdown.Of(folio.Id, dataDir).Table($"{settings.Databases} databases created"));
            await folio.StopAsync();
        }

        Time(timings, "Folio", $"create {settings.Databases} databases with indexes and documents", null, created);
        var restart = Stopwatch.StartNew();
        using HttpServerProcess restarted = await StartFolioAsync(dataDir, Path.Combine(work, "folio-2.log"), [.. common, $"--Databases:IdleUnloadAfter={settings.Idle}", $"--Databases:ReleasePagesAfter={settings.ReleaseAfter}"]);
        restart.Stop();
        Time(timings, "Folio", "restart until /healthz/ready answers (process start included)", null, restart.Elapsed);
        Row(report, "Folio", "just restarted", settings.Databases, ProcessSample.Of(restarted.Id));
        using HttpClient again = BenchServers.CreateClient(restarted.Url);
        var used = Stopwatch.StartNew();
        await TimeRequestsAsync(settings, timings, "Folio", report, restarted.Id, i => again.GetAsync($"/databases/{Name(i)}/docs?id=users/1"));
        used.Stop();
        mappings.AppendLine(MappingBreakdown.Of(restarted.Id, dataDir).Table("every database used after the restart"));
        if (settings.ReleaseAfter > TimeSpan.Zero)
        {
            // The server looks for quiet databases a quarter of the shorter of its two periods apart; two seconds more
            // for the look itself over every loaded database.
            TimeSpan shortest = settings.Idle > TimeSpan.Zero && settings.Idle < settings.ReleaseAfter ? settings.Idle : settings.ReleaseAfter;
            TimeSpan check = TimeSpan.FromTicks(Math.Clamp(shortest.Ticks / 4, TimeSpan.FromMilliseconds(50).Ticks, TimeSpan.FromSeconds(30).Ticks));
            TimeSpan wait = settings.ReleaseAfter + check + TimeSpan.FromSeconds(2);
            // The collection comes at the first check after the wave that releases nothing, up to two checks later.
            if (settings.GcProbe)
                await ReleaseWaveProbe.RunAsync(again, $"/databases/{Name(0)}/docs?id=users/1", wait + check + check, settings.ReleaseAfter - used.Elapsed, timings, Path.Combine(dataDir, "Logs"));
            else
                await Task.Delay(wait);
            int loaded = await LoadedAsync(again);
            string moment = $"every database used, then quiet {(settings.ReleaseAfter + check).TotalSeconds:F0} s+ ({loaded} loaded)";
            Row(report, "Folio", moment, settings.Databases, ProcessSample.Of(restarted.Id));
            mappings.AppendLine(MappingBreakdown.Of(restarted.Id, dataDir).Table(moment));
        }


        var unloading = Stopwatch.StartNew();
        while (await LoadedAsync(again) > 0)
        {
            if (unloading.Elapsed > settings.Idle + TimeSpan.FromMinutes(5))
                throw new TimeoutException("Folio did not unload its idle databases.");
            await Task.Delay(200);
        }

        Time(timings, "Folio", "until every database unloaded, from the last request", null, unloading.Elapsed);
        Row(report, "Folio", "after idle unload (the last ones may still be closing)", settings.Databases, ProcessSample.Of(restarted.Id));
        // The server returns the unloaded databases' memory once their files are closed, after the count of loaded
        // ones reached zero: sampled again once that had time to happen, as a server left idle would be.
        await Task.Delay(Settled);
        Row(report, "Folio", $"after idle unload, {Settled.TotalSeconds:F0} s later", settings.Databases, ProcessSample.Of(restarted.Id));
        await restarted.StopAsync();
    }

    private static async Task RunPouchDbAsync(Settings settings, string work, StringBuilder report, StringBuilder timings)
    {
        string script = await PouchDbLoader.EnsureInstalledAsync();
        string dataDir = Path.Combine(work, "pouchdb");
        Directory.CreateDirectory(dataDir);
        TimeSpan created;
        using (HttpServerProcess pouch = await StartPouchDbAsync(script, dataDir, Path.Combine(work, "pouchdb-1.log")))
        {
            Row(report, "PouchDB Server", "idle server", 0, ProcessSample.Of(pouch.Id));
            using HttpClient client = BenchServers.CreateClient(pouch.Url);
            created = await CreateAllAsync(settings, report, "PouchDB Server", pouch.Id, i => CreatePouchDatabaseAsync(client, Name(i)));
            await pouch.StopAsync();
        }

        Time(timings, "PouchDB Server", $"create {settings.Databases} databases with views and documents", null, created);
        var restart = Stopwatch.StartNew();
        using HttpServerProcess restarted = await StartPouchDbAsync(script, dataDir, Path.Combine(work, "pouchdb-2.log"));
        restart.Stop();
        Time(timings, "PouchDB Server", "restart until / answers (process start included)", null, restart.Elapsed);
        Row(report, "PouchDB Server", "just restarted", settings.Databases, ProcessSample.Of(restarted.Id));
        using HttpClient again = BenchServers.CreateClient(restarted.Url);
        await TimeRequestsAsync(settings, timings, "PouchDB Server", report, restarted.Id, i => again.GetAsync($"/{Name(i)}/users%2F1"));
        await restarted.StopAsync();
    }

    private static async Task<TimeSpan> CreateAllAsync(Settings settings, StringBuilder report, string server, int pid, Func<int, Task> create)
    {
        int step = Math.Max(1, settings.Databases / 5);
        var watch = Stopwatch.StartNew();
        for (int from = 0; from < settings.Databases; from += step)
        {
            int to = Math.Min(settings.Databases, from + step);
            await ForEachAsync(from, to, settings.Connections, create);
            Row(report, server, "creating", to, ProcessSample.Of(pid));
        }

        return watch.Elapsed;
    }

    private static async Task TimeRequestsAsync(Settings settings, StringBuilder timings, string server, StringBuilder report, int pid, Func<int, Task<HttpResponseMessage>> get)
    {
        // One client, one request at a time: the latency of a request, not of a queue. The second GET follows the
        // first at once, so it finds the database loaded whatever the idle setting.
        var first = new double[settings.Databases];
        var second = new double[settings.Databases];
        for (int i = 0; i < settings.Databases; i++)
        {
            first[i] = await TimeOneAsync(get, i);
            second[i] = await TimeOneAsync(get, i);
        }

        Time(timings, server, "first GET of a document in each database after the restart", first, TimeSpan.FromMilliseconds(first.Sum()));
        Time(timings, server, "second GET of it right after (database loaded)", second, TimeSpan.FromMilliseconds(second.Sum()));
        Row(report, server, "every database used after the restart", settings.Databases, ProcessSample.Of(pid));
    }

    private static async Task<double> TimeOneAsync(Func<int, Task<HttpResponseMessage>> get, int i)
    {
        long started = Stopwatch.GetTimestamp();
        using HttpResponseMessage response = await get(i);
        double ms = Stopwatch.GetElapsedTime(started).TotalMilliseconds;
        if (response.StatusCode != HttpStatusCode.OK)
            throw new InvalidOperationException($"GET in database {i} answered {(int)response.StatusCode}: {await response.Content.ReadAsStringAsync()}");
        return ms;
    }

    private static async Task CreateFolioDatabaseAsync(HttpClient client, string name)
    {
        await SendAsync(client, HttpMethod.Put, "/admin/databases", $$"""{"Name":"{{name}}"}""", HttpStatusCode.Created);
        await SendAsync(client, HttpMethod.Put, $"/databases/{name}/indexes", FolioIndexes, HttpStatusCode.Created);
        await SendAsync(client, HttpMethod.Post, $"/databases/{name}/bulk_docs", "{\"Commands\":[" + string.Join(',', Enumerable.Range(1, 3).Select(d =>
            $$"""{"Type":"PUT","Id":"users/{{d}}","Document":{"Name":"n{{d}}","Age":{{20 + d}},"City":"c{{d}}","@metadata":{"@collection":"Users"}""" + "}}")) + "]}", HttpStatusCode.Created);
        foreach (string query in (string[])["from index 'Users/ByName' where Name = 'n1'", "from index 'Users/ByAge' where Age = 21", "from index 'Users/ByCity' where City = 'c1'"])
            await SendAsync(client, HttpMethod.Post, $"/databases/{name}/queries", $$"""{"Query":"{{query}}","WaitForNonStaleResults":true}""", HttpStatusCode.OK);
    }

    private static async Task CreatePouchDatabaseAsync(HttpClient client, string name)
    {
        await SendAsync(client, HttpMethod.Put, $"/{name}", null, HttpStatusCode.Created);
        await SendAsync(client, HttpMethod.Put, $"/{name}/_design/users", PouchDesign, HttpStatusCode.Created);
        await SendAsync(client, HttpMethod.Post, $"/{name}/_bulk_docs", "{\"docs\":[" + string.Join(',', Enumerable.Range(1, 3).Select(d =>
            $$"""{"_id":"users/{{d}}","Name":"n{{d}}","Age":{{20 + d}},"City":"c{{d}}"}""")) + "]}", HttpStatusCode.Created);
        foreach (string view in (string[])["byName?key=%22n1%22", "byAge?key=21", "byCity?key=%22c1%22"])
            await SendAsync(client, HttpMethod.Get, $"/{name}/_design/users/_view/{view}", null, HttpStatusCode.OK);
    }

    private static async Task SendAsync(HttpClient client, HttpMethod method, string path, string? json, HttpStatusCode expected)
    {
        using var request = new HttpRequestMessage(method, path);
        if (json is not null)
            request.Content = new StringContent(json, Encoding.UTF8, "application/json");
        using HttpResponseMessage response = await client.SendAsync(request);
        if (response.StatusCode != expected)
            throw new InvalidOperationException($"{method} {path} answered {(int)response.StatusCode}: {await response.Content.ReadAsStringAsync()}");
    }

    /// <summary>
    /// The server's own view of its managed heap (<c>/admin/stats</c>): how much of the anonymous memory is heap, how
    /// much of that was live at the last collection, and how many collections ran.
    /// </summary>
    private static async Task<string> HeapAsync(HttpClient client, string moment)
    {
        using System.Text.Json.JsonDocument stats = System.Text.Json.JsonDocument.Parse(await client.GetStringAsync("/admin/stats"));
        System.Text.Json.JsonElement memory = stats.RootElement.GetProperty("Memory");
        static string Mb(System.Text.Json.JsonElement e, string name) => (e.GetProperty(name).GetInt64() / (1024.0 * 1024)).ToString("F0", CultureInfo.InvariantCulture);
        return string.Create(CultureInfo.InvariantCulture, $"Folio managed heap, {moment}: committed {Mb(memory, "CommittedBytes")} MB, heap after the last collection {Mb(memory, "HeapAfterLastCollectionBytes")} MB, in use now (garbage not yet collected included) {Mb(memory, "ManagedHeapBytes")} MB, collections gen0 / gen1 / gen2 {memory.GetProperty("Gen0Collections").GetInt32()} / {memory.GetProperty("Gen1Collections").GetInt32()} / {memory.GetProperty("Gen2Collections").GetInt32()}{Environment.NewLine}");
    }

    private static async Task<int> LoadedAsync(HttpClient client)
    {
        using System.Text.Json.JsonDocument stats = System.Text.Json.JsonDocument.Parse(await client.GetStringAsync("/admin/stats"));
        return stats.RootElement.GetProperty("LoadedDatabases").GetInt32();
    }

    private static Task<HttpServerProcess> StartFolioAsync(string dataDir, string log, string[] extra) =>
        HttpServerProcess.StartAsync(
            "dotnet",
            port => [BenchServers.FolioServerDll, $"--DataDir={dataDir}", $"--ServerUrl=http://127.0.0.1:{port}", "--TcpPort=0", "--LogToConsole=false", .. extra],
            "/healthz/ready",
            log,
            pollInterval: TimeSpan.FromMilliseconds(10));

    private static Task<HttpServerProcess> StartPouchDbAsync(string script, string dataDir, string log) =>
        HttpServerProcess.StartAsync(
            "node",
            port => [script, "--port", port.ToString(CultureInfo.InvariantCulture), "--dir", dataDir, "--config", Path.Combine(dataDir, "config.json"), "--no-stdout-logs"],
            "/",
            log,
            pollInterval: TimeSpan.FromMilliseconds(10));

    private static async Task ForEachAsync(int from, int to, int connections, Func<int, Task> action)
    {
        int next = from - 1;
        var workers = new Task[connections];
        for (int c = 0; c < connections; c++)
        {
            workers[c] = Task.Run(async () =>
            {
                for (int i = Interlocked.Increment(ref next); i < to; i = Interlocked.Increment(ref next))
                    await action(i);
            });
        }

        await Task.WhenAll(workers);
    }

    private static string Name(int i) => "tenant-" + i.ToString("D5", CultureInfo.InvariantCulture);

    private static void Row(StringBuilder report, string server, string moment, int databases, ProcessSample sample)
    {
        string line = string.Create(CultureInfo.InvariantCulture, $"| {server} | {moment} | {databases} | {sample.Cells()} | {BenchServers.LoadAverage()} |");
        report.AppendLine(line);
        Console.WriteLine(line);
    }

    private static void Time(StringBuilder timings, string server, string what, double[]? samples, TimeSpan total)
    {
        string percentiles = "– | – | –";
        if (samples is { Length: > 0 })
        {
            double[] sorted = [.. samples.Order()];
            percentiles = string.Create(CultureInfo.InvariantCulture, $"{Percentile(sorted, 50):F1} | {Percentile(sorted, 99):F1} | {sorted[^1]:F1}");
        }

        string line = string.Create(CultureInfo.InvariantCulture, $"| {server} | {what} | {percentiles} | {total.TotalSeconds:F2} |");
        timings.AppendLine(line);
        Console.WriteLine(line);
    }

    private static double Percentile(double[] sorted, double percentile) =>
        sorted[Math.Clamp((int)Math.Ceiling(percentile / 100 * sorted.Length) - 1, 0, sorted.Length - 1)];

    private sealed class Settings
    {
        public int Databases { get; set; } = 1000;

        public int Connections { get; set; } = 8;

        public TimeSpan Idle { get; set; } = TimeSpan.FromMinutes(1);

        public TimeSpan ReleaseAfter { get; set; } = TimeSpan.FromSeconds(30);

        public int MaxLoaded { get; set; }

        public int JournalMegabytes { get; set; } = 4;

        public bool SkipPouchDb { get; set; }

        public bool GcProbe { get; set; }
    }
}
