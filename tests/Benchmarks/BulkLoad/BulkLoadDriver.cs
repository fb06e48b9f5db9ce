using System.Diagnostics;
using System.Globalization;
using System.Text;

namespace Folio.Benchmarks.BulkLoad;

/// <summary>
/// <c>dotnet run -c Release --project tests/Benchmarks -- bulk-load [--docs N] [--streams 1,4] [--pouch-docs N] [--no-pouchdb] [--dd-mb N] [--dir PATH]</c>:
/// the disk's sequential write bandwidth, Folio's bulk insert with each stream count (a server process of
/// its own, durable commits), and PouchDB Server's <c>_bulk_docs</c> in batches of 1,000 on the same records;
/// prints a Markdown table.
/// </summary>
public static class BulkLoadDriver
{
    public static async Task<int> RunAsync(string[] args)
    {
        int docs = IntOption(args, "--docs", 1_000_000);
        int pouchDocs = IntOption(args, "--pouch-docs", docs);
        int ddMegaBytes = IntOption(args, "--dd-mb", 1024);
        int[] streamCounts = Option(args, "--streams", "1,4").Split(',').Select(s => int.Parse(s, CultureInfo.InvariantCulture)).ToArray();
        bool pouch = !args.Contains("--no-pouchdb");
        string root = Path.GetFullPath(Option(args, "--dir", Path.Combine(Path.GetTempPath(), "folio-bulk-load")));
        string work = Path.Combine(root, DateTime.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture));
        Directory.CreateDirectory(work);

        Console.WriteLine($"Generating {docs:N0} records …");
        var watch = Stopwatch.StartNew();
        byte[][] records = RecordGenerator.GenerateMany(docs);
        long payload = 0;
        foreach (byte[] record in records)
            payload += record.Length;
        Console.WriteLine($"  {payload / (1024.0 * 1024):F0} MB, {payload / (double)docs:F0} bytes per record on average, in {watch.Elapsed.TotalSeconds:F1} s");

        Console.WriteLine($"Measuring the disk under {work} …");
        (double diskMBps, string ddCommand) = await DiskBandwidth.MeasureAsync(work, ddMegaBytes);
        Console.WriteLine($"  {ddCommand}: {diskMBps:F0} MB/s");

        var results = new List<LoadResult>();
        string serverDll = Path.Combine(AppContext.BaseDirectory, "Folio.Server.dll");
        using (ChildProcess folio = await ChildProcess.StartAsync(
            "dotnet",
            port => [serverDll, "--DataDir=" + Path.Combine(work, "folio"), $"--ServerUrl=http://127.0.0.1:{port}", "--TcpPort=0", "--LogToConsole=false"],
            work,
            "/healthz",
            Path.Combine(work, "folio-server.log")))
        {
            foreach (int streams in streamCounts)
            {
                Console.WriteLine($"Folio bulk_insert, {streams} stream(s) …");
                LoadResult result = await FolioLoader.RunAsync(folio, records, streams, payload);
                results.Add(result);
                Console.WriteLine($"  {result.DocumentsPerSecond:N0} docs/s, {result.Elapsed.TotalSeconds:F1} s, journal {result.JournalBytes / (double)docs:F0} B/doc");
            }

            Console.WriteLine($"  Folio server peak RSS {folio.PeakResidentBytes() / (1024.0 * 1024):F0} MB");
        }

        if (pouch)
        {
            string script = await PouchDbLoader.EnsureInstalledAsync();
            byte[][] pouchRecords = pouchDocs == docs ? records : records[..pouchDocs];
            long pouchPayload = 0;
            foreach (byte[] record in pouchRecords)
                pouchPayload += record.Length;
            Console.WriteLine($"PouchDB Server _bulk_docs, {pouchRecords.Length:N0} records in batches of 1,000 …");
            LoadResult result = await PouchDbLoader.RunAsync(script, work, pouchRecords, 1, 1000, pouchPayload);
            results.Add(result);
            Console.WriteLine($"  {result.DocumentsPerSecond:N0} docs/s, {result.Elapsed.TotalSeconds:F1} s");
        }

        Console.WriteLine();
        Console.WriteLine(Report(results, docs, payload, diskMBps, ddCommand, args));
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

    private static string Report(List<LoadResult> results, int docs, long payload, double diskMBps, string ddCommand, string[] args)
    {
        LoadResult? pouch = results.Find(r => r.System.StartsWith("PouchDB", StringComparison.Ordinal));
        var text = new StringBuilder();
        text.AppendLine(CultureInfo.InvariantCulture, $"Command: `dotnet run -c Release --project tests/Benchmarks -- bulk-load {string.Join(' ', args)}`");
        text.AppendLine(CultureInfo.InvariantCulture, $"Records: {docs:N0}, {payload / (double)docs:F0} bytes each on average ({payload / (1024.0 * 1024):F0} MB). Disk: `{ddCommand}` → {diskMBps:F0} MB/s.");
        text.AppendLine();
        text.AppendLine("| system | streams | documents | seconds | documents/s | MB/s (records) | vs PouchDB | journal bytes/doc | journal MB/s | % of disk bandwidth | transactions | server CPU s |");
        text.AppendLine("|---|---|---|---|---|---|---|---|---|---|---|---|");
        foreach (LoadResult r in results)
        {
            bool folio = r.JournalBytes > 0;
            double journalMBps = r.JournalBytes / r.Elapsed.TotalSeconds / (1024 * 1024);
            string ratio = pouch is null || ReferenceEquals(r, pouch) ? "" : (r.DocumentsPerSecond / pouch.DocumentsPerSecond).ToString("F1", CultureInfo.InvariantCulture) + "×";
            text.AppendLine(CultureInfo.InvariantCulture,
                $"| {r.System} | {r.Streams} | {r.Documents:N0} | {r.Elapsed.TotalSeconds:F1} | {r.DocumentsPerSecond:N0} | {r.MegaBytesPerSecond:F1} | {ratio} | {(folio ? (r.JournalBytes / (double)r.Documents).ToString("F0", CultureInfo.InvariantCulture) : "")} | {(folio ? journalMBps.ToString("F1", CultureInfo.InvariantCulture) : "")} | {(folio ? (100 * journalMBps / diskMBps).ToString("F0", CultureInfo.InvariantCulture) + "%" : "")} | {(folio ? r.Transactions.ToString(CultureInfo.InvariantCulture) : "")} | {r.ServerCpu.TotalSeconds:F1} |");
        }

        text.AppendLine();
        text.AppendLine("Time inside Folio's streams (summed over streams): parse = reading and validating commands, network wait = waiting for the client's bytes, commit wait = waiting for the previous batch's transaction before handing over the next.");
        text.AppendLine();
        text.AppendLine("| streams | batches | parse s | network wait s | commit wait s |");
        text.AppendLine("|---|---|---|---|---|");
        foreach (LoadResult r in results)
        {
            if (r.JournalBytes == 0)
                continue;
            text.AppendLine(CultureInfo.InvariantCulture, $"| {r.Streams} | {r.Batches} | {r.Timings.ParseMs / 1000:F1} | {r.Timings.NetworkWaitMs / 1000:F1} | {r.Timings.CommitWaitMs / 1000:F1} |");
        }

        return text.ToString();
    }

    private static string Option(string[] args, string name, string fallback)
    {
        int at = Array.IndexOf(args, name);
        return at >= 0 && at + 1 < args.Length ? args[at + 1] : fallback;
    }

    private static int IntOption(string[] args, string name, int fallback) =>
        int.Parse(Option(args, name, fallback.ToString(CultureInfo.InvariantCulture)), CultureInfo.InvariantCulture);
}
