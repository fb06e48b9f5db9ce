using System.Diagnostics;
using System.Text.Json;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Monitoring;

public sealed class ServerStatsTests
{
    [Fact]
    public async Task Get_CountsRequestsFailuresAndLatency_AfterTraffic()
    {
        await using RunningServer running = await RunningServer.StartAsync();
        HttpClient client = running.Client;
        string database = await FolioApi.CreateDatabaseAsync(client);
        for (var i = 0; i < 5; i++)
            await FolioApi.StoreAsync(client, database, $"notes/{i}", """{"Text":"x"}""");
        for (var i = 0; i < 40; i++)
            (await client.GetAsync("/healthz")).EnsureSuccessStatusCode();
        Assert.Equal(500, (int)(await client.GetAsync("/test/boom")).StatusCode);
        long sent = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds();

        // Percentiles and samples cover completed seconds: wait for one after the traffic that holds its latency (a
        // request is recorded just after its answer is sent, so the second the client saw end may not hold it yet).
        JsonElement stats = await WaitForStatsAsync(client, s => LastSampleAt(s) > sent && s.GetProperty("Latency").GetProperty("P50Ms").GetDouble() > 0);

        Assert.True(stats.GetProperty("Requests").GetProperty("Total").GetInt64() >= 47);
        Assert.True(stats.GetProperty("Requests").GetProperty("Failed").GetInt64() >= 1);
        long inSamples = 0;
        long writes = 0;
        foreach (JsonElement sample in stats.GetProperty("History").EnumerateArray())
        {
            inSamples += sample.GetProperty("Requests").GetInt64();
            writes += sample.GetProperty("Writes").GetInt64();
        }

        Assert.True(inSamples >= 47, $"the samples hold {inSamples} requests");
        Assert.Equal(5, writes);
        JsonElement latency = stats.GetProperty("Latency");
        Assert.True(latency.GetProperty("P99Ms").GetDouble() >= latency.GetProperty("P50Ms").GetDouble(), stats.GetRawText());
        Assert.True(latency.GetProperty("MaxMs").GetDouble() >= latency.GetProperty("P99Ms").GetDouble(), stats.GetRawText());
        Assert.Equal(1, stats.GetProperty("Databases").GetInt32());
        Assert.True(stats.GetProperty("Disk").GetProperty("UsedBytes").GetInt64() > 0);
        Assert.Equal(Path.GetFullPath(running.DataDir), stats.GetProperty("Disk").GetProperty("DataDirectory").GetString());
        Assert.True(stats.GetProperty("Memory").GetProperty("WorkingSetBytes").GetInt64() > 0);
        Assert.True(stats.GetProperty("Threads").GetProperty("Process").GetInt32() > 1);
    }

    [Fact]
    public async Task Get_LeavesLongPollOutOfLatency_WhenItWaitsForChanges()
    {
        await using RunningServer running = await RunningServer.StartAsync();
        HttpClient client = running.Client;
        string database = await FolioApi.CreateDatabaseAsync(client);

        var waited = Stopwatch.StartNew();
        (await client.GetAsync($"/databases/{database}/changes?feed=longpoll&since=0&timeout=1500")).EnsureSuccessStatusCode();
        Assert.True(waited.ElapsedMilliseconds >= 1400, $"the long poll answered after {waited.ElapsedMilliseconds} ms, before its timeout");
        long answered = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds();

        JsonElement stats = await WaitForStatsAsync(client, s => LastSampleAt(s) > answered);

        Assert.True(stats.GetProperty("Requests").GetProperty("Total").GetInt64() >= 2);
        double max = stats.GetProperty("Latency").GetProperty("MaxMs").GetDouble();
        Assert.True(max < 1000, $"the longest question took {max} ms: the long poll was timed as one");
    }

    [Fact]
    public async Task Get_DoesNotCountAHistoryAsWrites_WhenADatabaseLoads()
    {
        string dataDir = RunningServer.NewDataDir();
        try
        {
            string database;
            await using (RunningServer first = await RunningServer.StartOnAsync(dataDir))
            {
                database = await FolioApi.CreateDatabaseAsync(first.Client);
                var commands = string.Join(',', Enumerable.Range(0, 500).Select(i => $$$"""{"Type":"PUT","Id":"notes/{{{i}}}","Document":{"N":{{{i}}}}}"""));
                using var bulk = await first.Client.PostAsync($"/databases/{database}/bulk_docs", FolioApi.Json($$"""{"Commands":[{{commands}}]}"""));
                bulk.EnsureSuccessStatusCode();
            }

            await using RunningServer second = await RunningServer.StartOnAsync(dataDir);
            await FolioApi.StoreAsync(second.Client, database, "notes/new", """{"N":-1}""");
            long stored = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds();
            JsonElement stats = await WaitForStatsAsync(second.Client, s => LastSampleAt(s) > stored);

            long writes = 0;
            foreach (JsonElement sample in stats.GetProperty("History").EnumerateArray())
                writes += sample.GetProperty("Writes").GetInt64();
            Assert.Equal(1, writes);
        }
        finally
        {
            RunningServer.DeleteDirectory(dataDir);
        }
    }

    private static long LastSampleAt(JsonElement stats)
    {
        JsonElement history = stats.GetProperty("History");
        int count = history.GetArrayLength();
        return count == 0 ? 0 : history[count - 1].GetProperty("At").GetInt64();
    }

    private static async Task<JsonElement> WaitForStatsAsync(HttpClient client, Func<JsonElement, bool> condition)
    {
        var clock = Stopwatch.StartNew();
        while (true)
        {
            JsonElement stats = await FolioApi.GetJsonAsync(client, "/admin/stats");
            if (condition(stats))
                return stats;
            Assert.True(clock.Elapsed < TestTimeouts.Default, $"the stats never showed the traffic: {stats.GetRawText()}");
            await Task.Delay(100);
        }
    }
}
