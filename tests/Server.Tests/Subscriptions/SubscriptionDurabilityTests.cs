using System.Collections.Concurrent;
using System.Net;
using System.Text.Json;
using Folio.Server.Tests.Support;
using Xunit.Abstractions;

namespace Folio.Server.Tests.Subscriptions;

/// <summary>
/// At-least-once delivery under faults: 16 writers insert while the server is killed with SIGKILL and the worker drops
/// its connection before acknowledging, both at random moments; afterwards every stored document the query matches
/// must have been delivered, in etag order within each session.
/// </summary>
public sealed class SubscriptionDurabilityTests(ITestOutputHelper output)
{
    private const int Writers = 16;

    [Fact]
    public Task Kill9_OfServerAndWorker_SkipsNoMatchingDocument() => RunAsync(seed: 22, serverKills: 1, writesPerWriter: 60);

    [Theory]
    [Trait("Category", "Slow")]
    [InlineData(1)]
    [InlineData(2)]
    public Task Kill9_OfServerAndWorker_SkipsNoMatchingDocument_OverLongerRuns(int seed) => RunAsync(seed, serverKills: 4, writesPerWriter: 600);

    private async Task RunAsync(int seed, int serverKills, int writesPerWriter)
    {
        var random = new Random(seed);
        string dataDir = RunningServer.NewDataDir();
        var delivered = new ConcurrentDictionary<string, long>(StringComparer.OrdinalIgnoreCase);
        var disorder = new ConcurrentBag<string>();
        try
        {
            ServerProcess server = await ServerProcess.StartAsync(dataDir);
            try
            {
                string db = await FolioApi.CreateDatabaseAsync(server.Client);
                using (HttpResponseMessage put = await server.Client.PutAsync($"/databases/{db}/subscriptions", FolioApi.Json("""{"Name":"big","Query":"from Orders where Total > 50"}""")))
                    Assert.Equal(HttpStatusCode.Created, put.StatusCode);

                var current = new ServerHolder(server);
                using var stopWorker = new CancellationTokenSource();
                Task worker = Task.Run(() => WorkAsync(current, db, delivered, disorder, new Random(seed + 1), stopWorker.Token));
                var remaining = Enumerable.Range(0, Writers).Select(w => writesPerWriter).ToArray();
                for (int kill = 0; kill <= serverKills; kill++)
                {
                    // Write a share of the documents, then kill the server in the middle of the next share's writes.
                    int share = writesPerWriter / (serverKills + 1);
                    Task writes = Task.WhenAll(Enumerable.Range(0, Writers).Select(w => WriteAsync(current, db, w, remaining, share)));
                    if (kill < serverKills)
                    {
                        await Task.WhenAny(writes, Task.Delay(random.Next(50, 400)));
                        output.WriteLine($"kill {kill + 1}: SIGKILL with writes in flight");
                        await current.Server.KillAsync();
                        await writes;
                        await current.Server.DisposeAsync();
                        current.Server = await ServerProcess.StartAsync(dataDir);
                    }
                    else
                    {
                        await writes;
                    }
                }

                // Every matching document stored now must arrive.
                List<(string Id, int Total)> stored = await StoredOrdersAsync(current.Server.Client, db);
                var expected = stored.Where(o => o.Total > 50).Select(o => o.Id).ToList();
                using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(2));
                while (expected.Any(id => !delivered.ContainsKey(id)) && !timeout.IsCancellationRequested)
                    await Task.Delay(50);
                await stopWorker.CancelAsync();
                await worker;

                List<string> missing = expected.Where(id => !delivered.ContainsKey(id)).ToList();
                output.WriteLine($"{stored.Count} orders stored, {expected.Count} matching, {delivered.Count} delivered");
                Assert.Empty(disorder);
                Assert.True(missing.Count == 0, $"{missing.Count} matching documents were never delivered, e.g. {string.Join(", ", missing.Take(5))}");
                Assert.DoesNotContain(delivered.Keys, id => stored.Exists(o => string.Equals(o.Id, id, StringComparison.OrdinalIgnoreCase) && o.Total <= 50));
                server = current.Server;
            }
            finally
            {
                await server.DisposeAsync();
            }
        }
        finally
        {
            RunningServer.DeleteDirectory(dataDir);
        }
    }

    /// <summary>A worker that acknowledges most batches but now and then drops the connection with one unacknowledged.</summary>
    private static async Task WorkAsync(ServerHolder current, string db, ConcurrentDictionary<string, long> delivered, ConcurrentBag<string> disorder, Random random, CancellationToken stop)
    {
        while (!stop.IsCancellationRequested)
        {
            try
            {
                // Taking over: the server may not have noticed yet that this worker's last connection is gone.
                using SubscriptionClient client = await SubscriptionClient.ConnectAsync(current.Server.TcpEndPoint, SubscriptionClient.Header(db, "big", strategy: "TakeOver", batchSize: 50));
                if ((await client.ReceiveAsync())?.GetProperty("Type").GetString() != "Connected")
                    continue;
                long lastEtag = 0;
                while (!stop.IsCancellationRequested)
                {
                    Task<JsonElement?> next = client.ReceiveAsync();
                    await Task.WhenAny(next, Task.Delay(Timeout.Infinite, stop));
                    if (stop.IsCancellationRequested)
                        return;
                    JsonElement batch = await next ?? throw new IOException("closed");
                    if (batch.GetProperty("Type").GetString() != "Batch")
                        break;
                    foreach (JsonElement item in batch.GetProperty("Items").EnumerateArray())
                    {
                        long etag = item.GetProperty("Etag").GetInt64();
                        if (etag <= lastEtag)
                            disorder.Add($"etag {etag} after {lastEtag} in one session");
                        lastEtag = etag;
                        if (item.GetProperty("ChangeType").GetString() == "Put")
                            delivered[item.GetProperty("Id").GetString()!] = etag;
                    }

                    if (random.Next(8) == 0)
                        break;
                    await client.AcknowledgeAsync(batch);
                }
            }
            catch (Exception ex) when (ex is IOException or System.Net.Sockets.SocketException or TimeoutException or JsonException or InvalidOperationException)
            {
                // The server was killed, or is restarting: connect again shortly.
                await Task.Delay(20, CancellationToken.None);
            }
        }
    }

    private static async Task WriteAsync(ServerHolder current, string db, int writer, int[] remaining, int count)
    {
        for (int i = 0; i < count && remaining[writer] > 0; i++)
        {
            int n = remaining[writer];
            int total = (writer * 7919 + n * 104729) % 101;
            try
            {
                using HttpResponseMessage put = await current.Server.Client.PutAsync(
                    FolioApi.DocsUri(db, $"orders/{writer}-{n}"), FolioApi.Json($$$"""{"Total":{{{total}}},"@metadata":{"@collection":"Orders"}}"""));
                if (put.StatusCode == HttpStatusCode.Created)
                    remaining[writer]--;
            }
            catch (HttpRequestException)
            {
                // Killed mid-write: whether it committed is the store's business; the final read decides what is stored.
                return;
            }
        }
    }

    private static async Task<List<(string Id, int Total)>> StoredOrdersAsync(HttpClient client, string db)
    {
        var stored = new List<(string, int)>();
        for (int start = 0; ; start += 1024)
        {
            JsonElement page = await FolioApi.GetJsonAsync(client, $"/databases/{db}/collections/docs?name=Orders&start={start}&pageSize=1024");
            JsonElement results = page.GetProperty("Results");
            foreach (JsonElement order in results.EnumerateArray())
                stored.Add((order.GetProperty("@metadata").GetProperty("@id").GetString()!, order.GetProperty("Total").GetInt32()));
            if (results.GetArrayLength() < 1024)
                return stored;
        }
    }

    /// <summary>The server process now, replaced after each kill.</summary>
    private sealed class ServerHolder(ServerProcess server)
    {
        public ServerProcess Server { get; set; } = server;
    }
}
