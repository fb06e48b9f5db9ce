using System.Globalization;
using System.Text;
using Folio.Server.Hosting;

namespace Folio.Benchmarks.Http;

/// <summary>
/// <c>query-load --allocations WORK_DIR</c>: bytes allocated and gen0 collections per query, with Folio in this
/// process on an earlier run's data and wrk driving it from outside at one client, with the request log on and
/// off; then the allocated types, sampled. Garbage per query is what the collector's pauses scale with, and
/// those pauses are what the one-client p99 is made of.
/// </summary>
internal static class QueryAllocations
{
    /// <summary>Measures each query kind's bodies file in the work directory and returns markdown tables.</summary>
    public static async Task<string> MeasureAsync(string work, string queriesPath, TimeSpan warmup, TimeSpan duration, int repeat)
    {
        var text = new StringBuilder();
        text.AppendLine("| Folio in-process, wrk -c1 outside | request log | run | queries | bytes allocated per query | gen0 GCs per 1,000 queries | load avg |");
        text.AppendLine("|---|---|---:|---:|---:|---:|---:|");
        var sampled = new StringBuilder();
        foreach ((string log, string[] arguments) in new (string, string[])[] { ("on", []), ("off", ["--Serilog:MinimumLevel:Default=Warning"]) })
        {
            await using FolioServer server = FolioServer.Create([$"--DataDir={Path.Combine(work, "folio")}", "--ServerUrl=http://127.0.0.1:0", "--TcpPort=0", "--LogToConsole=false", .. arguments]);
            await server.StartAsync();
            foreach (string kind in new[] { "equality", "range", "full-text" })
            {
                string bodies = Path.Combine(work, $"queries-{kind}.jsonl");
                await Wrk.RunAsync(server.Address, "post-random-body.lua", [queriesPath, bodies], 1, warmup);
                for (int run = 1; run <= repeat; run++)
                {
                    int gen0 = GC.CollectionCount(0);
                    long before = GC.GetTotalAllocatedBytes(precise: true);
                    WrkResult result = await Wrk.RunAsync(server.Address, "post-random-body.lua", [queriesPath, bodies], 1, duration);
                    double perQuery = (double)(GC.GetTotalAllocatedBytes(precise: true) - before) / Math.Max(1, result.Requests);
                    double gcs = (GC.CollectionCount(0) - gen0) * 1000.0 / Math.Max(1, result.Requests);
                    string load = BenchServers.LoadAverage();
                    Console.WriteLine($"  allocations {kind}, log {log}, run {run}: {perQuery:N0} B/query over {result.Requests:N0}, p99 {result.P99Ms:0.00} ms, load {load}");
                    text.AppendLine(CultureInfo.InvariantCulture, $"| {kind} | {log} | {run} | {result.Requests:N0} | {perQuery:N0} | {gcs:0.00} | {load} |");
                }

                if (kind != "equality")
                    continue;
                using var sampler = new AllocationSampler();
                sampler.Start();
                WrkResult sample = await Wrk.RunAsync(server.Address, "post-random-body.lua", [queriesPath, bodies], 1, duration);
                sampled.AppendLine();
                sampled.AppendLine(CultureInfo.InvariantCulture, $"| equality, request log {log}: type allocated (sampled every ~100 KB) | share | ≈ bytes per query |");
                sampled.AppendLine("|---|---:|---:|");
                sampled.Append(sampler.Stop(15, sample.Requests));
            }

            await server.StopAsync();
        }

        return text.Append(sampled).ToString();
    }
}
