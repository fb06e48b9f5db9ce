using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Text;
using System.Text.Json;
using Folio.Benchmarks.BulkLoad;
using Folio.Storage;
using Folio.Storage.Documents;
using Folio.Storage.Reporting;

namespace Folio.Benchmarks.Storage;

/// <summary>
/// <c>dotnet run -c Release --project tests/Benchmarks -- storage-cost [--set orders|search|debian] [--docs 200000] [--bytes 720] [--compression off,on] [--no-pouchdb] [--dir PATH]</c>
/// (<c>--bytes</c> is the order generator's target; it lands about 60 bytes above it, 778 B for 720; <c>--docs</c> does
/// not apply to <c>debian</c>, which takes every package stanza, see <see cref="StorageCostSets"/>):
/// loads the same documents over HTTP into Folio (one server process per compression setting) and
/// PouchDB Server, and reports the bytes on disk while live and after a clean stop (SIGTERM), as a multiple
/// of the raw JSON and of PouchDB's footprint, then the fill of Folio's trees after the stop.
/// </summary>
public static class StorageCostCommand
{
    public const string Command = "storage-cost";

    public static async Task<int> RunAsync(string[] args)
    {
        int docs = IntOption(args, "--docs", 200_000);
        int bytes = IntOption(args, "--bytes", 720);
        string[] compression = Option(args, "--compression", "on").Split(',');
        bool pouch = !args.Contains("--no-pouchdb");
        string root = Path.GetFullPath(Option(args, "--dir", Path.Combine(Path.GetTempPath(), "folio-storage-cost")));
        string work = Path.Combine(root, DateTime.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture));
        Directory.CreateDirectory(work);

        string set = Option(args, "--set", "orders");
        Console.WriteLine($"Preparing the {set} set …");
        (byte[][] records, string description) = StorageCostSets.Load(set, docs, bytes);
        docs = records.Length;
        long raw = 0;
        foreach (byte[] record in records)
            raw += record.Length;
        Console.WriteLine($"  {docs:N0} documents, {raw / 1e6:F1} MB of JSON, {raw / (double)docs:F0} B each");

        var rows = new List<Footprint>();
        var reports = new List<(string System, SpaceReport Report)>();
        for (int run = 0; run < compression.Length; run++)
        {
            (Footprint row, SpaceReport report) = await MeasureFolioAsync(work, records, raw, compression[run].Trim(), run);
            rows.Add(row);
            reports.Add((row.System, report));
        }

        if (pouch)
            rows.Add(await MeasurePouchAsync(work, records, raw));

        Console.WriteLine();
        Console.WriteLine(Report(rows, reports, description, docs, raw, args));
        try
        {
            Directory.Delete(work, recursive: true);
        }
        catch (IOException)
        {
            // A server still closing its files; the temp directory is the OS's to clean.
        }

        return 0;
    }

    private static async Task<(Footprint Row, SpaceReport Report)> MeasureFolioAsync(string work, byte[][] records, long raw, string compression, int run)
    {
        // A directory per run: settings may repeat (on,off,on,off) to see run-to-run noise.
        string dataDir = Path.Combine(work, $"folio-{run}-{compression}");
        string system = $"Folio (compression {compression})";
        Console.WriteLine($"{system}: bulk insert …");
        using ChildProcess server = await StartFolioAsync(work, dataDir, compression, "00:00:00", $"folio-{run}-{compression}.log");
        LoadResult load = await FolioLoader.RunAsync(server, records, 1, raw);
        Console.WriteLine($"  {load.DocumentsPerSecond:N0} docs/s, server CPU {load.ServerCpu.TotalSeconds:F1} s, parse {load.Timings.ParseMs / 1000:F1} s, commit wait {load.Timings.CommitWaitMs / 1000:F1} s, transactions {load.Transactions:N0}");
        string databases = Path.Combine(dataDir, "Databases");
        long live = DirectoryBytes(databases);
        LiveBreakdown breakdown;
        using (var client = new HttpClient(new SocketsHttpHandler { UseProxy = false }) { BaseAddress = server.Url })
            breakdown = await LiveBreakdown.MeasureAsync(client, Directory.GetDirectories(databases)[0]);
        Console.WriteLine(breakdown.ToMarkdown(system));
        long liveIdle = await IdleBytesAsync(databases);
        await server.StopAsync(TimeSpan.FromSeconds(60));
        long stopped = DirectoryBytes(databases);
        string database = Directory.GetDirectories(databases)[0];
        SpaceReport report;
        using (DocumentStore store = DocumentStore.Open(StorageOptions.ForPath(database)))
            report = store.Environment.ReportSpace();
        long compacted = await CompactedBytesAsync(work, dataDir, databases, compression, run);
        return (new Footprint(system, live, liveIdle, stopped, load.DocumentsPerSecond, load.JournalBytes / (raw / 1024.0), breakdown, compacted), report);
    }

    private static Task<ChildProcess> StartFolioAsync(string work, string dataDir, string compression, string compactWhenQuietFor, string log) =>
        ChildProcess.StartAsync(
            "dotnet",
            port => [Path.Combine(AppContext.BaseDirectory, "Folio.Server.dll"), "--DataDir=" + dataDir, $"--ServerUrl=http://127.0.0.1:{port}", "--TcpPort=0", "--LogToConsole=false",
                "--DocumentsCompression=" + (compression == "on" ? "true" : "false"), "--Databases:CompactWhenQuietFor=" + compactWhenQuietFor],
            work,
            "/healthz",
            Path.Combine(work, log));

    /// <summary>
    /// Starts the server again on the stopped database, with its automatic compaction after 5 s without writes instead of
    /// the default minute (to keep the run short; what it gives back does not depend on the wait), waits until it has
    /// weighed the database and compacted it or decided not to, stops it and returns the bytes on disk then.
    /// </summary>
    private static async Task<long> CompactedBytesAsync(string work, string dataDir, string databases, string compression, int run)
    {
        using ChildProcess server = await StartFolioAsync(work, dataDir, compression, "00:00:05", $"folio-{run}-{compression}-compact.log");
        using var client = new HttpClient(new SocketsHttpHandler { UseProxy = false }) { BaseAddress = server.Url };
        string db = Path.GetFileName(Directory.GetDirectories(databases)[0]);
        var clock = Stopwatch.StartNew();
        while (true)
        {
            using JsonDocument stats = JsonDocument.Parse(await client.GetStringAsync($"/databases/{db}/stats"));
            JsonElement root = stats.RootElement;
            bool weighed = root.GetProperty("CompactionEstimate").ValueKind == JsonValueKind.Object;
            bool done = root.GetProperty("LastCompaction").ValueKind == JsonValueKind.Object;
            if (done || (weighed && root.GetProperty("Compaction").ValueKind == JsonValueKind.Null && clock.Elapsed > TimeSpan.FromSeconds(10)))
            {
                Console.WriteLine($"  the server's own compaction after {clock.Elapsed.TotalSeconds:F0} s: estimate {root.GetProperty("CompactionEstimate")}, compaction {root.GetProperty("LastCompaction")}");
                break;
            }
            if (clock.Elapsed > TimeSpan.FromMinutes(5))
                throw new InvalidOperationException($"The server neither compacted {db} nor weighed it within 5 minutes: {root}");
            await Task.Delay(500);
        }
        await server.StopAsync(TimeSpan.FromSeconds(60));
        return DirectoryBytes(databases);
    }

    private static async Task<Footprint> MeasurePouchAsync(string work, byte[][] records, long raw)
    {
        string script = await PouchDbLoader.EnsureInstalledAsync();
        string dataDir = Path.Combine(work, "pouchdb");
        Directory.CreateDirectory(dataDir);
        Console.WriteLine("PouchDB Server: _bulk_docs in batches of 1,000 …");
        Task<ChildProcess> StartAsync() => ChildProcess.StartAsync(
            "node",
            port => [script, "--port", port.ToString(CultureInfo.InvariantCulture), "--dir", dataDir, "--config", Path.Combine(dataDir, "config.json"), "--no-stdout-logs"],
            dataDir,
            "/",
            Path.Combine(work, "pouchdb.log"));
        using ChildProcess server = await StartAsync();
        using var client = new HttpClient(new SocketsHttpHandler { UseProxy = false }) { BaseAddress = server.Url, Timeout = Timeout.InfiniteTimeSpan };
        using (HttpResponseMessage created = await client.PutAsync("/bench", null))
        {
            if (created.StatusCode != HttpStatusCode.Created)
                throw new InvalidOperationException($"Creating the PouchDB database answered {(int)created.StatusCode}.");
        }

        var watch = Stopwatch.StartNew();
        var body = new MemoryStream(1000 * 1200);
        for (int first = 0; first < records.Length; first += 1000)
        {
            body.SetLength(0);
            body.Write("{\"docs\":["u8);
            int last = Math.Min(records.Length, first + 1000);
            for (int i = first; i < last; i++)
            {
                if (i > first)
                    body.WriteByte((byte)',');
                body.Write("{\"_id\":\"orders/"u8);
                body.Write(Encoding.ASCII.GetBytes(i.ToString(CultureInfo.InvariantCulture)));
                body.Write("\","u8);
                body.Write(records[i].AsSpan(1));
            }

            body.Write("]}"u8);
            using var content = new ByteArrayContent(body.GetBuffer(), 0, (int)body.Length);
            content.Headers.ContentType = new System.Net.Http.Headers.MediaTypeHeaderValue("application/json");
            using HttpResponseMessage response = await client.PostAsync("/bench/_bulk_docs", content);
            if (response.StatusCode != HttpStatusCode.Created)
                throw new InvalidOperationException($"_bulk_docs answered {(int)response.StatusCode}: {await response.Content.ReadAsStringAsync()}");
        }

        double perSecond = records.Length / watch.Elapsed.TotalSeconds;
        Console.WriteLine($"  {perSecond:N0} docs/s");
        long live = DirectoryBytes(dataDir);
        await server.StopAsync(TimeSpan.FromSeconds(60));
        long stopped = DirectoryBytes(dataDir);

        // LevelDB keeps its last writes in an uncompressed log until the database next opens, so the footprint
        // right after a stop varied from run to run (40–48 MB for the Debian set); opened once more, the log becomes
        // a compressed table. That footprint at rest is the one compared with Folio's (whose stop applies its journals).
        using (ChildProcess again = await StartAsync())
        using (var reopened = new HttpClient(new SocketsHttpHandler { UseProxy = false }) { BaseAddress = again.Url })
        {
            using HttpResponseMessage info = await reopened.GetAsync("/bench");
            info.EnsureSuccessStatusCode();
            await again.StopAsync(TimeSpan.FromSeconds(60));
        }
        long rested = DirectoryBytes(dataDir);
        Console.WriteLine($"  on disk after the stop {stopped / 1e6:F1} MB, after a restart and a stop {rested / 1e6:F1} MB");
        return new Footprint("PouchDB Server (LevelDB)", live, live, rested, perSecond, 0, null, null);
    }

    private static string Report(List<Footprint> rows, List<(string System, SpaceReport Report)> reports, string description, int docs, long raw, string[] args)
    {
        Footprint? pouch = rows.Find(r => r.System.StartsWith("PouchDB", StringComparison.Ordinal));
        var text = new StringBuilder();
        text.AppendLine(CultureInfo.InvariantCulture, $"Command: `dotnet run -c Release --project tests/Benchmarks -- {Command} {string.Join(' ', args)}`");
        text.AppendLine(CultureInfo.InvariantCulture, $"Documents: {description}; {docs:N0}, {raw / (double)docs:F0} B of JSON each, {raw / 1e6:F1} MB raw. Bytes are allocated on disk (du).");
        text.AppendLine();
        text.AppendLine("| system | load docs/s | journal B per committed KB of JSON | live MB | live × raw | live, idle MB | live, idle × raw | after stop MB | after stop × raw | after stop ÷ PouchDB | after its own compaction MB | × raw | ÷ PouchDB |");
        text.AppendLine("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        foreach (Footprint r in rows)
        {
            string vsPouch = pouch is null ? "" : (r.Stopped / (double)pouch.Stopped).ToString("F2", CultureInfo.InvariantCulture) + "×";
            string compacted = r.Compacted is not { } bytes ? " |  | "
                : $"{bytes / 1e6:F1} | {bytes / (double)raw:F2}× | {(pouch is null ? "" : (bytes / (double)pouch.Stopped).ToString("F2", CultureInfo.InvariantCulture) + "×")}";
            text.AppendLine(CultureInfo.InvariantCulture,
                $"| {r.System} | {r.DocumentsPerSecond:N0} | {(r.Breakdown is null ? "" : r.JournalBytesPerKilobyte.ToString("F0", CultureInfo.InvariantCulture))} | {r.Live / 1e6:F1} | {r.Live / (double)raw:F2}× | {r.LiveIdle / 1e6:F1} | {r.LiveIdle / (double)raw:F2}× | {r.Stopped / 1e6:F1} | {r.Stopped / (double)raw:F2}× | {vsPouch} | {compacted} |");
        }

        foreach (Footprint r in rows)
        {
            if (r.Breakdown is null)
                continue;
            text.AppendLine();
            text.Append(r.Breakdown.ToMarkdown(r.System));
        }

        foreach ((string system, SpaceReport report) in reports)
        {
            text.AppendLine();
            text.AppendLine(CultureInfo.InvariantCulture, $"{system} after the stop: {report.DataFilePages:N0} pages in the data file, {report.AllocatedPages:N0} allocated, {report.FreePages:N0} free.");
            text.AppendLine();
            text.AppendLine("| tree | entries | leaf pages | leaf fill | branch pages | overflow pages | overflow fill | MB |");
            text.AppendLine("|---|---|---|---|---|---|---|---|");
            foreach (TreeSpace tree in report.Trees)
            {
                text.AppendLine(CultureInfo.InvariantCulture,
                    $"| {tree.Name} | {tree.Entries:N0} | {tree.LeafPages:N0} | {tree.LeafFill:P0} | {tree.BranchPages:N0} | {tree.OverflowPages:N0} | {(tree.OverflowPages == 0 ? "" : tree.OverflowFill.ToString("P0", CultureInfo.InvariantCulture))} | {tree.Pages * (double)report.PageSize / 1e6:F1} |");
            }
        }

        return text.ToString();
    }

    /// <summary>Allocated bytes of every file under <paramref name="directory"/>, as <c>du</c> counts them.</summary>
    private static long DirectoryBytes(string directory)
    {
        using Process du = Process.Start(new ProcessStartInfo("du", ["-s", "-B1", directory]) { RedirectStandardOutput = true, UseShellExecute = false })
            ?? throw new InvalidOperationException("Could not run du.");
        string output = du.StandardOutput.ReadToEnd();
        du.WaitForExit();
        return long.Parse(output.AsSpan(0, output.IndexOf('\t', StringComparison.Ordinal)), CultureInfo.InvariantCulture);
    }

    internal static string Option(string[] args, string name, string fallback)
    {
        int at = Array.IndexOf(args, name);
        return at >= 0 && at + 1 < args.Length ? args[at + 1] : fallback;
    }

    private static int IntOption(string[] args, string name, int fallback) =>
        int.Parse(Option(args, name, fallback.ToString(CultureInfo.InvariantCulture)), CultureInfo.InvariantCulture);

    /// <summary>
    /// The bytes once the server has gone idle after the load: it deletes a database's journals some seconds after the
    /// last commit, once the data file holds everything (PouchDB's live figure is used as is).
    /// </summary>
    private static async Task<long> IdleBytesAsync(string databases)
    {
        var clock = System.Diagnostics.Stopwatch.StartNew();
        while (clock.Elapsed < TimeSpan.FromSeconds(60) && Directory.GetFiles(databases, "*.journal", SearchOption.AllDirectories).Length > 0)
            await Task.Delay(200);
        return DirectoryBytes(databases);
    }

    private sealed record Footprint(string System, long Live, long LiveIdle, long Stopped, double DocumentsPerSecond, double JournalBytesPerKilobyte, LiveBreakdown? Breakdown, long? Compacted);
}
