using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Text;
using System.Text.Json;
using Folio.Benchmarks.BulkLoad;
using Folio.Benchmarks.Http;

namespace Folio.Benchmarks.ManyDatabases;

/// <summary>
/// <c>dotnet run -c Release --project tests/Benchmarks -- fairness [--docs 1000000] [--tries 100] [--gap-ms 20]
/// [--indexing-threads 0] [--commit-threads 0] [--busy-indexes 1]</c>: whether one database's bulk insert starves
/// another database. On Folio.Server.dll, database <c>bulk</c> (<c>--busy-indexes</c> live indexes on its Orders, 1–4:
/// Company; Company and Freight; a map/reduce by every line's Product; every line's Product and Quantity) takes
/// <c>--docs</c> documents through one bulk insert stream; meanwhile, one after another, a document is PUT into database <c>other</c> and its index
/// (Items by Tag) is queried without waiting until it finds it: the time from sending the PUT to the first answer
/// holding the document, <c>--tries</c> times. Prints p50/p99/max of that and of the PUTs alone, how many tries ran
/// while the bulk insert was still going, the bulk insert's rate, and the server's threads sampled at each try.
/// </summary>
public static class FairnessCommand
{
    /// <summary>The command name BenchmarkEntry dispatches on.</summary>
    public const string Command = "fairness";

    private const int RecordPool = 4_096;

    /// <summary>The busy database's indexes, the first <c>--busy-indexes</c> of them created.</summary>
    private static readonly string[] BusyIndexes =
    [
        """{"Name":"Orders/ByCompany","Collections":["Orders"],"Fields":{"Company":{"Path":"Company"}}}""",
        MapReduce.MapReduceIndexes.StaticCompanyJson,
        MapReduce.MapReduceIndexes.ByProductJson,
        MapReduce.MapReduceIndexes.StaticProductJson,
    ];

    /// <summary>Runs the command.</summary>
    public static async Task<int> RunAsync(string[] args)
    {
        int docs = 1_000_000, tries = 100, gapMs = 20, indexingThreads = 0, commitThreads = 0, busyIndexes = 1;
        for (int i = 0; i < args.Length; i++)
        {
            switch (args[i])
            {
                case "--docs": docs = int.Parse(args[++i], CultureInfo.InvariantCulture); break;
                case "--tries": tries = int.Parse(args[++i], CultureInfo.InvariantCulture); break;
                case "--gap-ms": gapMs = int.Parse(args[++i], CultureInfo.InvariantCulture); break;
                case "--indexing-threads": indexingThreads = int.Parse(args[++i], CultureInfo.InvariantCulture); break;
                case "--commit-threads": commitThreads = int.Parse(args[++i], CultureInfo.InvariantCulture); break;
                case "--busy-indexes": busyIndexes = int.Parse(args[++i], CultureInfo.InvariantCulture); break;
                default:
                    Console.Error.WriteLine($"Unknown option '{args[i]}'. Options: --docs N --tries N --gap-ms N --indexing-threads N --commit-threads N --busy-indexes 1-4");
                    return 2;
            }
        }

        if (busyIndexes < 1 || busyIndexes > BusyIndexes.Length)
        {
            Console.Error.WriteLine($"--busy-indexes takes 1 to {BusyIndexes.Length}.");
            return 2;
        }

        string work = Path.Combine(Path.GetTempPath(), "folio-fairness-" + DateTime.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture));
        Directory.CreateDirectory(work);
        try
        {
            string load = BenchServers.LoadAverage();
            using HttpServerProcess folio = await BenchServers.StartFolioAsync(Path.Combine(work, "data"), Path.Combine(work, "folio.log"),
                $"--Databases:IndexingThreads={indexingThreads}", $"--Databases:CommitThreads={commitThreads}");
            using HttpClient client = BenchServers.CreateClient(folio.Url);
            await SendAsync(client, HttpMethod.Put, "/admin/databases", """{"Name":"bulk"}""", HttpStatusCode.Created);
            await SendAsync(client, HttpMethod.Put, "/databases/bulk/indexes", "{\"Indexes\":[" + string.Join(',', BusyIndexes[..busyIndexes]) + "]}", HttpStatusCode.Created);
            await SendAsync(client, HttpMethod.Put, "/admin/databases", """{"Name":"other"}""", HttpStatusCode.Created);
            await SendAsync(client, HttpMethod.Put, "/databases/other/indexes", """{"Indexes":[{"Name":"Items/ByTag","Collections":["Items"],"Fields":{"Tag":{"Path":"Tag"}}}]}""", HttpStatusCode.Created);

            byte[][] records = RecordGenerator.GenerateMany(RecordPool);
            var bulkWatch = Stopwatch.StartNew();
            Task bulk = SendAsync(client, HttpMethod.Post, "/databases/bulk/bulk_insert", new PooledCommandContent(records, docs), HttpStatusCode.Created);
            TimeSpan bulkElapsed = TimeSpan.Zero;
            _ = bulk.ContinueWith(_ => bulkElapsed = bulkWatch.Elapsed, TaskScheduler.Default);
            while (!bulk.IsCompleted && await CountAsync(client, "bulk") == 0)
                await Task.Delay(10);

            var visible = new double[tries];
            var put = new double[tries];
            int duringBulk = 0, maxThreads = 0;
            for (int t = 0; t < tries; t++)
            {
                bool bulkRunning = !bulk.IsCompleted;
                long started = Stopwatch.GetTimestamp();
                await SendAsync(client, HttpMethod.Put, $"/databases/other/docs?id=items/{t}", $$$"""{"Tag":"t{{{t}}}","@metadata":{"@collection":"Items"}}""", HttpStatusCode.Created);
                put[t] = Stopwatch.GetElapsedTime(started).TotalMilliseconds;
                while (!await FoundAsync(client, t))
                {
                    if (Stopwatch.GetElapsedTime(started) > TimeSpan.FromMinutes(1))
                        throw new TimeoutException($"Try {t}: the other database's index did not show its document within a minute.");
                }
                visible[t] = Stopwatch.GetElapsedTime(started).TotalMilliseconds;
                if (bulkRunning && !bulk.IsCompleted)
                    duringBulk++;
                maxThreads = Math.Max(maxThreads, ProcessSample.Of(folio.Id).Threads);
                await Task.Delay(gapMs);
            }

            await bulk;
            long stored = await CountAsync(client, "bulk");
            Console.WriteLine();
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"fairness: {docs:N0} documents bulk-inserted into 'bulk' ({busyIndexes} index(es) live) in {bulkElapsed.TotalSeconds:F1} s ({docs / bulkElapsed.TotalSeconds:N0} docs/s, {stored:N0} stored); {tries} tries on 'other', {duringBulk} of them wholly during the bulk insert; load average at start {load}, at end {BenchServers.LoadAverage()}; server threads at most {maxThreads}"));
            Console.WriteLine("| what | p50 ms | p99 ms | max ms |");
            Console.WriteLine("|---|---:|---:|---:|");
            Print("PUT to 'other' acknowledged (durable)", put);
            Print("PUT sent until its index shows it", visible);
            return 0;
        }
        finally
        {
            Directory.Delete(work, recursive: true);
        }
    }

    private static void Print(string what, double[] samples)
    {
        double[] sorted = [.. samples.Order()];
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"| {what} | {Percentile(sorted, 50):F1} | {Percentile(sorted, 99):F1} | {sorted[^1]:F1} |"));
    }

    private static double Percentile(double[] sorted, double percentile) =>
        sorted[Math.Clamp((int)Math.Ceiling(percentile / 100 * sorted.Length) - 1, 0, sorted.Length - 1)];

    private static async Task<bool> FoundAsync(HttpClient client, int t)
    {
        using var content = new StringContent($$"""{"Query":"from index 'Items/ByTag' where Tag = 't{{t}}'"}""", Encoding.UTF8, "application/json");
        using HttpResponseMessage response = await client.PostAsync("/databases/other/queries", content);
        string body = await response.Content.ReadAsStringAsync();
        if (response.StatusCode != HttpStatusCode.OK)
            throw new InvalidOperationException($"The query answered {(int)response.StatusCode}: {body}");
        using JsonDocument result = JsonDocument.Parse(body);
        return result.RootElement.GetProperty("TotalResults").GetInt64() > 0;
    }

    private static async Task<long> CountAsync(HttpClient client, string database)
    {
        using JsonDocument stats = JsonDocument.Parse(await client.GetStringAsync($"/databases/{database}/stats"));
        return stats.RootElement.GetProperty("CountOfDocuments").GetInt64();
    }

    private static Task SendAsync(HttpClient client, HttpMethod method, string path, string json, HttpStatusCode expected) =>
        SendAsync(client, method, path, new StringContent(json, Encoding.UTF8, "application/json"), expected);

    private static async Task SendAsync(HttpClient client, HttpMethod method, string path, HttpContent content, HttpStatusCode expected)
    {
        using var request = new HttpRequestMessage(method, path) { Content = content };
        using HttpResponseMessage response = await client.SendAsync(request);
        if (response.StatusCode != expected)
            throw new InvalidOperationException($"{method} {path} answered {(int)response.StatusCode}: {await response.Content.ReadAsStringAsync()}");
    }

    /// <summary>A bulk insert body of <c>orders/0</c> … <c>orders/{count-1}</c>, cycling through a small pool of records so a million need no gigabyte of memory.</summary>
    private sealed class PooledCommandContent(byte[][] records, int count) : HttpContent
    {
        protected override async Task SerializeToStreamAsync(Stream stream, TransportContext? context)
        {
            byte[] buffer = new byte[256 * 1024];
            int used = 0;
            buffer[used++] = (byte)'[';
            for (int i = 0; i < count; i++)
            {
                byte[] record = records[i % records.Length];
                if (used + record.Length + 128 > buffer.Length)
                {
                    await stream.WriteAsync(buffer.AsMemory(0, used));
                    used = 0;
                }

                if (i > 0)
                    buffer[used++] = (byte)',';
                used += Encoding.UTF8.GetBytes(string.Create(CultureInfo.InvariantCulture, $"{{\"Type\":\"PUT\",\"Id\":\"orders/{i}\",\"Document\":"), buffer.AsSpan(used));
                record.CopyTo(buffer.AsSpan(used));
                used += record.Length;
                buffer[used++] = (byte)'}';
            }

            buffer[used++] = (byte)']';
            await stream.WriteAsync(buffer.AsMemory(0, used));
        }

        protected override bool TryComputeLength(out long length)
        {
            length = 0;
            return false;
        }
    }
}
