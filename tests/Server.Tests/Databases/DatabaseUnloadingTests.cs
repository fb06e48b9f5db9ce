using System.Collections.Concurrent;
using System.Net;
using System.Net.WebSockets;
using System.Text;
using System.Text.Json;
using Folio.Server.Databases;
using Folio.Server.Tests.Support;
using Microsoft.Extensions.DependencyInjection;
using static Folio.Server.Tests.Support.FolioApi;

namespace Folio.Server.Tests.Databases;

/// <summary>
/// Databases open on their first request and unload when idle or over the cap: one open for many first requests,
/// no unload under a pending index batch or a connected feed, requests racing an unload answered.
/// </summary>
public sealed class DatabaseUnloadingTests
{
    private const string NoIdleUnload = "--Databases:IdleUnloadAfter=00:00:00";

    [Fact]
    public async Task Enter_OpensOnce_WhenFirstRequestsComeTogether()
    {
        await using RunningServer server = await RunningServer.StartAsync(NoIdleUnload);
        string db = await CreateDatabaseAsync(server.Client);
        await StoreAsync(server.Client, db, "users/1", """{"Name":"Ada"}""");
        DatabaseRegistry registry = RegistryOf(server);
        Assert.True(registry.TryUnload(db));
        await WaitUntilAsync(() => !IsLoaded(registry, db), "the database unloads");
        int loadsBefore = Loads(server, db);

        var gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        Task<HttpStatusCode>[] requests = Enumerable.Range(0, 32).Select(async _ =>
        {
            await gate.Task;
            using HttpResponseMessage response = await server.Client.GetAsync(DocsUri(db, "users/1"));
            return response.StatusCode;
        }).ToArray();
        gate.SetResult();

        Assert.All(await Task.WhenAll(requests), status => Assert.Equal(HttpStatusCode.OK, status));
        Assert.Equal(loadsBefore + 1, Loads(server, db));
        Assert.True(IsLoaded(registry, db));
    }

    [Fact]
    public async Task IdleUnload_UnloadsAnIdleDatabase_AndTheNextRequestReopensIt()
    {
        await using RunningServer server = await RunningServer.StartAsync("--Databases:IdleUnloadAfter=00:00:00.200");
        string db = await CreateDatabaseAsync(server.Client);
        await StoreAsync(server.Client, db, "users/1", """{"Name":"Ada"}""");

        await WaitUntilAsync(async () => !await ListedAsLoadedAsync(server.Client, db), "the list shows the database unloaded");
        JsonElement stats = await GetJsonAsync(server.Client, "/admin/stats");
        Assert.Equal(0, stats.GetProperty("LoadedDatabases").GetInt32());
        Assert.Equal(1, stats.GetProperty("Databases").GetInt32());
        string metrics = await server.Client.GetStringAsync("/metrics");
        Assert.Contains("folio_databases{state=\"unloaded\"} 1", metrics, StringComparison.Ordinal);

        JsonElement? document = await LoadAsync(server.Client, db, "users/1");
        Assert.Equal("Ada", document!.Value.GetProperty("Name").GetString());
        Assert.True(IsLoaded(RegistryOf(server), db));
    }

    [Fact]
    public async Task TryUnload_Refuses_WhileAnIndexBatchIsPending()
    {
        await using RunningServer server = await RunningServer.StartAsync(NoIdleUnload);
        string db = await CreateDatabaseAsync(server.Client);
        await BulkAsync(server.Client, db, 8_000);
        using (HttpResponseMessage put = await server.Client.PutAsync($"/databases/{db}/indexes",
            FolioApi.Json("""{"Indexes":[{"Name":"Items/ByKey","Collections":["Items"],"Fields":{"Key":{"Path":"Key"},"Pad":{"Path":"Pad"}}}]}""")))
            Assert.Equal(HttpStatusCode.Created, put.StatusCode);
        DatabaseRegistry registry = RegistryOf(server);

        // 8,000 documents to index: the first attempt finds the batch pending.
        Assert.False(registry.TryUnload(db));
        bool unloaded = false;
        await WaitUntilAsync(() => unloaded = registry.TryUnload(db), "the database unloads once the index caught up");

        // Unloaded only once caught up: reopened, the index has nothing left to do.
        JsonElement index = (await GetJsonAsync(server.Client, $"/databases/{db}/indexes/stats")).GetProperty("Results")[0];
        Assert.True(unloaded);
        Assert.Equal(index.GetProperty("LastDocEtag").GetInt64(), index.GetProperty("ProcessedEtag").GetInt64());
        Assert.False(index.GetProperty("IsStale").GetBoolean());
    }

    [Fact]
    public async Task TryUnload_Refuses_WhileAChangesListenerIsConnected()
    {
        await using RunningServer server = await RunningServer.StartAsync("--Databases:IdleUnloadAfter=00:00:00.200");
        string db = await CreateDatabaseAsync(server.Client);
        DatabaseRegistry registry = RegistryOf(server);

        using (var socket = new ClientWebSocket())
        {
            await socket.ConnectAsync(new Uri(server.Server.Address.ToString().Replace("http", "ws", StringComparison.Ordinal) + $"databases/{db}/changes"), CancellationToken.None);
            await socket.SendAsync(Encoding.UTF8.GetBytes("""{"Command":"WatchAllDocuments"}"""), WebSocketMessageType.Text, true, CancellationToken.None);
            Assert.Contains("Confirm", await ReceiveAsync(socket), StringComparison.Ordinal);
            // Past several idle periods the idle check has run and left the database loaded.
            await WaitForIdleChecksAsync(server, 3);
            Assert.True(IsLoaded(registry, db));
            Assert.False(registry.TryUnload(db));

            // The socket still gets changes: the database it listens to was never closed under it.
            await StoreAsync(server.Client, db, "users/1", "{}");
            Assert.Contains("users/1", await ReceiveAsync(socket), StringComparison.Ordinal);
            await socket.CloseAsync(WebSocketCloseStatus.NormalClosure, null, CancellationToken.None);
        }

        await WaitUntilAsync(() => !IsLoaded(registry, db), "the database unloads after the socket closed");
    }

    [Fact]
    public async Task TryUnload_Refuses_WhileASubscriptionWorkerIsConnected()
    {
        await using RunningServer server = await RunningServer.StartAsync("--Databases:IdleUnloadAfter=00:00:00.200");
        string db = await CreateDatabaseAsync(server.Client);
        DatabaseRegistry registry = RegistryOf(server);
        await StoreAsync(server.Client, db, "orders/1", """{"@metadata":{"@collection":"Orders"}}""");
        using (HttpResponseMessage put = await server.Client.PutAsync($"/databases/{db}/subscriptions", FolioApi.Json("""{"Name":"all","Query":"from Orders"}""")))
            Assert.Equal(HttpStatusCode.Created, put.StatusCode);

        using (SubscriptionClient worker = await SubscriptionClient.ConnectAsync(server.Server.TcpEndPoint, SubscriptionClient.Header(db, "all")))
        {
            await worker.ExpectAsync("Connected");
            await worker.AcknowledgeAsync(await worker.ExpectAsync("Batch"));
            // Past several idle periods the idle check has run and left the database loaded under the session.
            await WaitForIdleChecksAsync(server, 3);
            Assert.True(IsLoaded(registry, db));
            Assert.False(registry.TryUnload(db));

            // The session still delivers: the database was never closed under it.
            await StoreAsync(server.Client, db, "orders/2", """{"@metadata":{"@collection":"Orders"}}""");
            Assert.Equal(["orders/2"], SubscriptionClient.Ids(await worker.ExpectAsync("Batch")));
        }

        await WaitUntilAsync(() => !IsLoaded(registry, db), "the database unloads after the worker disconnected");
    }

    [Fact]
    public async Task TryUnload_Refuses_WhileAnHttpFeedWaits()
    {
        await using RunningServer server = await RunningServer.StartAsync(NoIdleUnload);
        string db = await CreateDatabaseAsync(server.Client);
        DatabaseRegistry registry = RegistryOf(server);

        Task<string> feed = server.Client.GetStringAsync($"/databases/{db}/changes?feed=longpoll&timeout=60000");
        await WaitUntilAsync(() => HasListener(registry, db), "the long poll registered");
        Assert.False(registry.TryUnload(db));
        await StoreAsync(server.Client, db, "users/1", "{}");
        Assert.Contains("users/1", await feed.WaitAsync(TestTimeouts.Default), StringComparison.Ordinal);
        await WaitUntilAsync(() => registry.TryUnload(db), "the database unloads after the feed answered");
    }

    [Fact]
    public async Task Requests_RacingUnloads_AreAllAnswered()
    {
        await using RunningServer server = await RunningServer.StartAsync(NoIdleUnload);
        string db = await CreateDatabaseAsync(server.Client);
        await StoreAsync(server.Client, db, "users/1", """{"Name":"Ada"}""");
        DatabaseRegistry registry = RegistryOf(server);

        using var stop = new CancellationTokenSource();
        int unloads = 0;
        Task unloader = Task.Run(async () =>
        {
            while (!stop.IsCancellationRequested)
            {
                if (registry.TryUnload(db))
                    Interlocked.Increment(ref unloads);
                await Task.Yield();
            }
        });
        var failures = new ConcurrentBag<string>();
        int answered = 0;
        Task[] readers = Enumerable.Range(0, 8).Select(w => Task.Run(async () =>
        {
            for (int i = 0; i < 60; i++)
            {
                using HttpResponseMessage response = i % 3 == 0
                    ? await PutAsync(server.Client, db, $"w{w}/{i}", "{}")
                    : await server.Client.GetAsync(DocsUri(db, "users/1"));
                if (!response.IsSuccessStatusCode)
                    failures.Add($"{(int)response.StatusCode}: {await response.Content.ReadAsStringAsync()}");
                Interlocked.Increment(ref answered);
            }
        })).ToArray();
        await Task.WhenAll(readers).WaitAsync(TestTimeouts.Default);
        stop.Cancel();
        await unloader;

        Assert.Empty(failures);
        Assert.Equal(480, answered);
        Assert.True(unloads > 1, $"Only {unloads} unloads raced the requests.");
        Assert.Equal(1 + 8 * 20, (await StatsAsync(server.Client, db)).CountOfDocuments);
    }

    [Fact]
    public async Task MaxLoaded_UnloadsTheLeastRecentlyUsed_ButNotOneWithAListener()
    {
        await using RunningServer server = await RunningServer.StartAsync(NoIdleUnload, "--Databases:MaxLoaded=2");
        string[] dbs = new string[4];
        for (int i = 0; i < dbs.Length; i++)
            dbs[i] = await CreateDatabaseAsync(server.Client, $"cap-{i}");
        DatabaseRegistry registry = RegistryOf(server);
        Assert.True(registry.LoadedCount <= 2, $"{registry.LoadedCount} loaded");
        Assert.True(IsLoaded(registry, dbs[3]));

        Task<string> feed = server.Client.GetStringAsync($"/databases/{dbs[0]}/changes?feed=longpoll&timeout=60000");
        await WaitUntilAsync(() => HasListener(registry, dbs[0]), "the long poll registered");
        for (int i = 1; i < dbs.Length; i++)
            await StoreAsync(server.Client, dbs[i], "x/1", "{}");

        // The cap is enforced when a database opens and again at the next check, once the last request's lease is back.
        await WaitUntilAsync(() => registry.LoadedCount == 2, "two databases are loaded");
        Assert.True(IsLoaded(registry, dbs[0]), "The database with a listener was unloaded.");
        Assert.True(IsLoaded(registry, dbs[3]));
        Assert.False(IsLoaded(registry, dbs[1]));
        await StoreAsync(server.Client, dbs[0], "x/1", "{}");
        await feed.WaitAsync(TestTimeouts.Default);
    }

    [Fact]
    public async Task Kill9_WhileDatabasesUnloadAndReopen_LosesNoAcknowledgedWrite()
    {
        string dataDir = RunningServer.NewDataDir();
        try
        {
            var acknowledged = new ConcurrentDictionary<string, string>();
            string[] dbs = new string[6];
            await using (ServerProcess server = await ServerProcess.StartAsync(dataDir, "--Databases:IdleUnloadAfter=00:00:00.050", "--Databases:MaxLoaded=2"))
            {
                for (int i = 0; i < dbs.Length; i++)
                    dbs[i] = await CreateDatabaseAsync(server.Client);

                // Writers hop between more databases than may stay loaded, so every write lands on one being
                // opened, unloaded or reopened; the kill comes in the middle of that.
                using var stop = new CancellationTokenSource();
                var reached = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
                Task[] writers = Enumerable.Range(0, 6).Select(w => Task.Run(async () =>
                {
                    for (int i = 0; !stop.IsCancellationRequested; i++)
                    {
                        string db = dbs[(w + i) % dbs.Length];
                        string id = $"w{w}/{i}";
                        try
                        {
                            using HttpResponseMessage response = await PutAsync(server.Client, db, id, $$"""{"N":{{i}}}""", null);
                            if (response.StatusCode == HttpStatusCode.Created)
                            {
                                using JsonDocument answer = JsonDocument.Parse(await response.Content.ReadAsStringAsync());
                                acknowledged[db + "|" + id] = answer.RootElement.GetProperty("ChangeVector").GetString()!;
                                if (acknowledged.Count >= 300)
                                    reached.TrySetResult();
                            }
                        }
                        catch (HttpRequestException)
                        {
                            return;
                        }
                    }
                })).ToArray();

                await reached.Task.WaitAsync(TestTimeouts.Default);
                await server.KillAsync();
                stop.Cancel();
                await Task.WhenAll(writers);
            }

            await using ServerProcess restarted = await ServerProcess.StartAsync(dataDir, NoIdleUnload);
            foreach (KeyValuePair<string, string> write in acknowledged)
            {
                string[] parts = write.Key.Split('|');
                JsonElement? document = await LoadAsync(restarted.Client, parts[0], parts[1]);
                Assert.True(document.HasValue, $"Acknowledged document {write.Key} is missing after kill -9.");
                Assert.Equal(write.Value, document.Value.GetProperty("@metadata").GetProperty("@change-vector").GetString());
            }
        }
        finally
        {
            RunningServer.DeleteDirectory(dataDir);
        }
    }

    private static DatabaseRegistry RegistryOf(RunningServer server) => server.Server.Services.GetRequiredService<DatabaseRegistry>();

    private static bool IsLoaded(DatabaseRegistry registry, string db) => registry.TryGet(db, out DatabaseEntry? entry) && entry.IsLoaded;

    private static Database? DatabaseOf(DatabaseRegistry registry, string db) => registry.TryGet(db, out DatabaseEntry? entry) ? entry.Loaded : null;

    private static bool HasListener(DatabaseRegistry registry, string db) =>
        DatabaseOf(registry, db)?.WorkPending() is "a changes feed or subscription is connected";

    private static int Loads(RunningServer server, string db) =>
        server.Log.Events.Count(e => e.MessageTemplate.Text.StartsWith("Loaded database", StringComparison.Ordinal) && CapturingSink.Scalar(e, "Database") as string == db);

    private static async Task<bool> ListedAsLoadedAsync(HttpClient client, string db)
    {
        JsonElement list = await GetJsonAsync(client, "/databases");
        return list.GetProperty("Databases").EnumerateArray().Single(d => d.GetProperty("Name").GetString() == db).GetProperty("Loaded").GetBoolean();
    }

    private static async Task WaitForIdleChecksAsync(RunningServer server, int checks)
    {
        // The idle check logs nothing while it finds nothing to unload; an unrelated database that it does unload marks its ticks.
        for (int i = 0; i < checks; i++)
        {
            string marker = await CreateDatabaseAsync(server.Client);
            await server.Log.WaitForAsync(e => e.MessageTemplate.Text.StartsWith("Unloading database", StringComparison.Ordinal) && CapturingSink.Scalar(e, "Database") as string == marker, $"the idle check unloads {marker}");
        }
    }

    private static async Task<string> ReceiveAsync(ClientWebSocket socket)
    {
        byte[] buffer = new byte[16 * 1024];
        WebSocketReceiveResult received = await socket.ReceiveAsync(buffer, CancellationToken.None).WaitAsync(TestTimeouts.Default);
        return Encoding.UTF8.GetString(buffer, 0, received.Count);
    }

    private static Task WaitUntilAsync(Func<bool> condition, string what) => WaitUntilAsync(() => Task.FromResult(condition()), what);

    private static async Task WaitUntilAsync(Func<Task<bool>> condition, string what)
    {
        using var deadline = new CancellationTokenSource(TestTimeouts.Default);
        while (!await condition())
        {
            if (deadline.IsCancellationRequested)
                throw new TimeoutException($"Timed out waiting until {what}.");
            await Task.Delay(20, CancellationToken.None);
        }
    }

    /// <summary>Puts <paramref name="count"/> Items documents of about 300 bytes through bulk_docs (the resident pages tests load theirs with it too).</summary>
    internal static async Task BulkAsync(HttpClient client, string db, int count)
    {
        string pad = new('p', 300);
        var body = new StringBuilder("{\"Commands\":[");
        for (int i = 0; i < count; i++)
        {
            if (i > 0)
                body.Append(',');
            body.Append($$"""{"Type":"PUT","Id":"items/{{i}}","Document":{"Key":"k-{{i}}","Pad":"{{pad}} {{i}}","@metadata":{"@collection":"Items"}""").Append("}}");
        }

        body.Append("]}");
        using HttpResponseMessage response = await client.PostAsync($"/databases/{db}/bulk_docs", FolioApi.Json(body.ToString()));
        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
    }
}
