using System.Diagnostics;
using System.Globalization;
using System.Net;
using Folio.Server.Tests.Support;
using Xunit.Abstractions;

namespace Folio.Server.Tests.Durability.KillCycles;

/// <summary>
/// The whole server under kill -9, with everything live at once: one data directory, one database with a static index
/// on each search engine and a map/reduce index, a subscription worker connected over TCP and a changes feed consumer,
/// and writers doing PUTs, conditional PUTs, deletes, bulk_docs batches and bulk inserts on a small key space. Each
/// cycle kills the process at a random moment (during a write burst, just after one while the indexes catch up, or
/// idle), starts it again on the same files and checks every document against the writers' acknowledged states; every
/// few cycles, and at the end, each index against an oracle from the documents read back and both consumers against
/// the documents' current states.
/// </summary>
public sealed class ServerKillCycleTests(ITestOutputHelper output)
{
    private const int Writers = 4;
    private const int KeysPerWriter = 40;

    /// <summary>Overrides the number of cycles of either tier.</summary>
    private const string CyclesVariable = "FOLIO_KILL_CYCLES";

    /// <summary>When set, a file that receives a line per cycle while the run goes on (the test output comes at its end).</summary>
    private const string ProgressVariable = "FOLIO_KILL_CYCLES_LOG";

    [Fact]
    public Task Kill9_WithIndexesAndSubscriptionsLive_LosesNoAcknowledgedWrite() => RunAsync(seed: 24, Cycles(4), fullCheckEvery: 2);

    [Fact]
    [Trait("Category", "Slow")]
    public Task Kill9_WithIndexesAndSubscriptionsLive_LosesNoAcknowledgedWrite_OverAThousandCycles() => RunAsync(seed: 1_000, Cycles(1_000), fullCheckEvery: 20);

    private static int Cycles(int tier) =>
        int.TryParse(Environment.GetEnvironmentVariable(CyclesVariable), NumberStyles.None, CultureInfo.InvariantCulture, out int cycles) && cycles > 0 ? cycles : tier;

    private async Task RunAsync(int seed, int cycles, int fullCheckEvery)
    {
        var random = new Random(seed);
        var report = new KillCycleReport();
        string? progressFile = Environment.GetEnvironmentVariable(ProgressVariable);
        string dataDir = RunningServer.NewDataDir();
        var clock = Stopwatch.StartNew();
        try
        {
            await using KillCycleServer servers = await KillCycleServer.StartAsync(dataDir);
            HttpClient setup = servers.Current.Client;
            string database = await FolioApi.CreateDatabaseAsync(setup);
            using (HttpResponseMessage indexes = await setup.PutAsync($"/databases/{database}/indexes", FolioApi.Json(KillCycleChecks.IndexDefinitions)))
                Assert.Equal(HttpStatusCode.Created, indexes.StatusCode);
            using (HttpResponseMessage subscription = await setup.PutAsync($"/databases/{database}/subscriptions", FolioApi.Json("""{"Name":"all","Query":"from Items"}""")))
                Assert.Equal(HttpStatusCode.Created, subscription.StatusCode);

            var writers = new KillCycleWriter[Writers];
            for (int w = 0; w < Writers; w++)
            {
                KeyModel[] keys = [.. Enumerable.Range(0, KeysPerWriter).Select(k => new KeyModel($"items/{(k * Writers) + w}"))];
                writers[w] = new KillCycleWriter(w, keys, new Random(random.Next()), report);
            }

            string[] ids = [.. writers.SelectMany(w => w.Keys).Select(k => k.Id)];
            var delivered = new ChangeLog();
            var changes = new ChangeLog();
            using var stopConsumers = new CancellationTokenSource();
            Task worker = Task.Run(() => new KillCycleSubscriber(servers, database, "all", delivered, report, new Random(random.Next())).RunAsync(stopConsumers.Token));
            Task feed = Task.Run(() => new KillCycleChangesReader(servers, database, changes, report).RunAsync(stopConsumers.Token));
            try
            {
                for (int cycle = 1; cycle <= cycles; cycle++)
                {
                    long started = Stopwatch.GetTimestamp();
                    string landed = await KillSomewhereAsync(servers, database, writers, random, report);
                    await servers.RestartAsync();
                    HttpClient client = servers.Current.Client;
                    await FolioApi.AssertServingAsync(client);
                    Dictionary<string, StoredItem> stored = await KillCycleChecks.CheckDocumentsAsync(client, database, writers, report);
                    if (cycle % fullCheckEvery == 0 || cycle == cycles)
                    {
                        await KillCycleChecks.CheckIndexesAsync(client, database, stored, report);
                        await KillCycleChecks.CheckConsumerAsync("the subscription", delivered, stored, ids, report);
                        await KillCycleChecks.CheckConsumerAsync("the changes feed", changes, stored, ids, report);
                        report.Count("full checks");
                    }

                    report.Count("cycles");
                    string line = $"cycle {cycle}: kill {landed}; {stored.Count} documents; {Stopwatch.GetElapsedTime(started).TotalSeconds:0.00} s;"
                        + $" writes acknowledged so far {report.Get("writes acknowledged")}; anomalies so far {report.Get("anomalies")}";
                    if (progressFile is not null)
                        await File.AppendAllTextAsync(progressFile, line + Environment.NewLine + (cycle % fullCheckEvery == 0 ? report.Summary() : ""));
                }
            }
            catch (Exception) when (ReportDeath(servers))
            {
                throw;
            }
            finally
            {
                await stopConsumers.CancelAsync();
                await Task.WhenAll(worker, feed).WaitAsync(TestTimeouts.Default);
            }
        }
        finally
        {
            RunningServer.DeleteDirectory(dataDir);
            string summary = $"{cycles} cycles in {clock.Elapsed.TotalMinutes:0.0} min (seed {seed}, load {Load()})" + Environment.NewLine + report.Summary()
                + string.Join(Environment.NewLine, report.Anomalies.Take(20));
            output.WriteLine(summary);
            if (progressFile is not null)
                await File.AppendAllTextAsync(progressFile, summary + Environment.NewLine);
        }

        Assert.True(report.Anomalies.Count == 0, $"{report.Get("anomalies")} anomalies, first: {string.Join(Environment.NewLine, report.Anomalies.Take(10))}");
        Assert.True(report.Get("writes acknowledged") > 0, "No write was acknowledged.");
    }

    /// <summary>
    /// Runs the writers and kills the server at a random moment of one of three plans; answers where the kill landed:
    /// with a write in flight, while an index was stale (indexing), or with nothing to do (idle).
    /// </summary>
    private static async Task<string> KillSomewhereAsync(KillCycleServer servers, string database, KillCycleWriter[] writers, Random random, KillCycleReport report)
    {
        HttpClient client = servers.Current.Client;
        using var stopWriters = new CancellationTokenSource();
        Task writing = Task.WhenAll(writers.Select(w => Task.Run(() => w.RunAsync(client, database, stopWriters.Token))));
        int plan = random.Next(100);
        string planName;
        if (plan < 50)
        {
            planName = "during a write burst";
            await Task.WhenAny(writing, Task.Delay(random.Next(20, 700)));
        }
        else
        {
            await Task.WhenAny(writing, Task.Delay(random.Next(100, 500)));
            await stopWriters.CancelAsync();
            await writing.WaitAsync(TestTimeouts.Default);
            if (plan < 85)
            {
                planName = "just after a write burst";
                await Task.Delay(random.Next(0, 150));
            }
            else
            {
                planName = "after the indexes caught up";
                await WaitForIndexesAsync(client, database);
                await Task.Delay(random.Next(0, 100));
            }
        }

        // Where the kill landed, sampled at the kill: a stats request first, so an index stale now is indexing now.
        bool indexing = await KillCycleChecks.AnyIndexStaleAsync(client, database);
        int inFlight = writers.Count(w => w.Pending is not null);
        await servers.KillAsync();
        await stopWriters.CancelAsync();
        await writing.WaitAsync(TestTimeouts.Default);
        string landed = inFlight > 0 ? "with writes in flight" : indexing ? "while indexing" : "idle";
        report.Count("kills planned " + planName);
        report.Count("kills landed " + landed);
        return $"{planName}, landed {landed} ({inFlight} writes in flight)";
    }

    /// <summary>Writes why the server is gone when it died by itself; never catches (an exception filter that only reports).</summary>
    private bool ReportDeath(KillCycleServer servers)
    {
        if (servers.DiedOnItsOwn() is { } death)
            output.WriteLine(death);
        return false;
    }

    private static async Task WaitForIndexesAsync(HttpClient client, string database)
    {
        using var bound = new CancellationTokenSource(TestTimeouts.Default * 2);
        while (await KillCycleChecks.AnyIndexStaleAsync(client, database))
        {
            Assert.False(bound.IsCancellationRequested, "The indexes did not catch up with writes stopped.");
            await Task.Delay(20, CancellationToken.None);
        }
    }

    private static string Load() =>
        File.Exists("/proc/loadavg") ? File.ReadAllText("/proc/loadavg").Split(' ')[0] : "unknown";
}
