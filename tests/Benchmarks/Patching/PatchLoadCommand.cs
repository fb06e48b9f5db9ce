using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Text;
using System.Text.Json;
using Folio.Benchmarks.Http;

namespace Folio.Benchmarks.Patching;

/// <summary>
/// <c>dotnet run -c Release --project tests/Benchmarks -- patch-load [--docs 100000] [--repeat 2]</c>: in one run against
/// Folio.Server.dll as a child process, stores the orders with bulk PUTs (8 connections, 1,000 per request), then patches
/// every one of them with a patch by query (<c>from Orders update { this.Total = this.Total + 1; … }</c>), while
/// another client stores single documents one after another, whose write latency (p50/p99) is measured during the
/// patch and, for comparison, for 5 seconds before it with no patch running. Reports documents per second of each and the machine's load.
/// </summary>
public static class PatchLoadCommand
{
    /// <summary>The command name BenchmarkEntry dispatches on.</summary>
    public const string Command = "patch-load";

    /// <summary>Runs the command.</summary>
    public static async Task<int> RunAsync(string[] args)
    {
        int documents = 100_000;
        int repeat = 2;
        for (int i = 0; i < args.Length; i++)
        {
            switch (args[i])
            {
                case "--docs": documents = int.Parse(args[++i], CultureInfo.InvariantCulture); break;
                case "--repeat": repeat = int.Parse(args[++i], CultureInfo.InvariantCulture); break;
                default:
                    Console.Error.WriteLine($"Unknown option '{args[i]}'. Options: --docs N --repeat N");
                    return 2;
            }
        }

        string work = Path.Combine(Path.GetTempPath(), "folio-patch-load-" + DateTime.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture));
        Directory.CreateDirectory(work);
        try
        {
            using HttpServerProcess folio = await BenchServers.StartFolioAsync(Path.Combine(work, "folio"), Path.Combine(work, "folio.log"));
            using HttpClient client = BenchServers.CreateClient(folio.Url);
            await BenchServers.CreateFolioDatabaseAsync(client);
            var report = new StringBuilder();
            report.AppendLine("| what | run | documents | seconds | documents/s | other writer p50 / p99 ms | load avg |");
            report.AppendLine("|---|---:|---:|---:|---:|---:|---:|");

            for (int run = 1; run <= repeat; run++)
            {
                var put = Stopwatch.StartNew();
                await BenchServers.LoadFolioAsync(client, documents, 8, i => $"orders/{i}", i => Encoding.UTF8.GetBytes(
                    $"{{\"Company\":\"companies/{i % 1000}\",\"Total\":{i % 997},\"Lines\":[{{\"Product\":\"products/{i % 77}\",\"Quantity\":{i % 9 + 1}}}],\"@metadata\":{{\"@collection\":\"Orders\"}}}}"));
                put.Stop();
                Add(report, "bulk PUT (8 connections, 1,000 per request)", run, documents, put.Elapsed, null);
                var idle = await WriterLatencyAsync(client, TimeSpan.FromSeconds(5), CancellationToken.None);
                Add(report, "the other writer alone, 5 s (no patch running)", run, idle.Count, TimeSpan.FromSeconds(5), idle);

                using var stop = new CancellationTokenSource();
                var writer = WriterLatencyAsync(client, TimeSpan.FromHours(1), stop.Token);
                var (patched, patch) = await PatchAllAsync(client, documents);
                await stop.CancelAsync();
                Add(report, "patch by query `update { this.Total = this.Total + 1; this.Lines.push(…) }`", run, patched, patch, await writer);
            }

            await folio.StopAsync();
            Console.WriteLine();
            Console.WriteLine(report);
            return 0;
        }
        finally
        {
            Directory.Delete(work, recursive: true);
        }
    }

    private static void Add(StringBuilder report, string what, int run, long count, TimeSpan elapsed, Latency? writer)
    {
        string load = BenchServers.LoadAverage();
        double rate = count / elapsed.TotalSeconds;
        string latency = writer is { } w ? $"{w.P50:N2} / {w.P99:N2} ({w.Count:N0} writes)" : "-";
        Console.WriteLine($"  {what}, run {run}: {count:N0} documents in {elapsed.TotalSeconds:N2} s = {rate:N0}/s, other writer {latency} (load {load})");
        report.AppendLine(CultureInfo.InvariantCulture, $"| {what} | {run} | {count:N0} | {elapsed.TotalSeconds:N2} | {rate:N0} | {latency} | {load} |");
    }

    /// <summary>Starts the patch by query and waits for it to complete; the time runs from the request to the completed state.</summary>
    private static async Task<(long Processed, TimeSpan Elapsed)> PatchAllAsync(HttpClient client, int documents)
    {
        var watch = Stopwatch.StartNew();
        using var request = new HttpRequestMessage(HttpMethod.Patch, $"/databases/{BenchServers.Database}/queries")
        {
            Content = new StringContent("""{"Query":"from Orders update { this.Total = this.Total + 1; this.Lines.push({ Product: 'products/0', Quantity: 1 }); }"}""", Encoding.UTF8, "application/json"),
        };
        using HttpResponseMessage started = await client.SendAsync(request);
        if (started.StatusCode != HttpStatusCode.Accepted)
            throw new InvalidOperationException(await started.Content.ReadAsStringAsync());
        long id = JsonDocument.Parse(await started.Content.ReadAsStringAsync()).RootElement.GetProperty("OperationId").GetInt64();
        while (true)
        {
            await Task.Delay(20);
            using JsonDocument state = JsonDocument.Parse(await client.GetStringAsync($"/databases/{BenchServers.Database}/operations/state?id={id}"));
            string status = state.RootElement.GetProperty("Status").GetString()!;
            if (status == "InProgress")
                continue;
            if (status != "Completed")
                throw new InvalidOperationException(state.RootElement.ToString());
            long processed = state.RootElement.GetProperty("Processed").GetInt64();
            if (processed != documents)
                throw new InvalidOperationException($"Patched {processed} of {documents}.");
            return (processed, watch.Elapsed);
        }
    }

    /// <summary>One client storing single documents back to back until <paramref name="stop"/> or <paramref name="limit"/>.</summary>
    private static async Task<Latency> WriterLatencyAsync(HttpClient client, TimeSpan limit, CancellationToken stop)
    {
        var latencies = new List<double>();
        var clock = Stopwatch.StartNew();
        int n = 0;
        while (!stop.IsCancellationRequested && clock.Elapsed < limit)
        {
            long started = Stopwatch.GetTimestamp();
            using var content = new StringContent($"{{\"N\":{n}}}", Encoding.UTF8, "application/json");
            using HttpResponseMessage response = await client.PutAsync($"/databases/{BenchServers.Database}/docs?id=other/{n++}", content, CancellationToken.None);
            response.EnsureSuccessStatusCode();
            latencies.Add(Stopwatch.GetElapsedTime(started).TotalMilliseconds);
        }
        latencies.Sort();
        return latencies.Count == 0
            ? new Latency(0, 0, 0)
            : new Latency(latencies.Count, latencies[latencies.Count / 2], latencies[Math.Min(latencies.Count - 1, (int)(latencies.Count * 0.99))]);
    }

    private readonly record struct Latency(int Count, double P50, double P99);
}
