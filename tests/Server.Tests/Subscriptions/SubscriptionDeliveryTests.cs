using System.Net;
using System.Text.Json;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Subscriptions;

public class SubscriptionDeliveryTests : IClassFixture<ServerFixture>
{
    private readonly ServerFixture _fixture;
    private readonly HttpClient _client;

    public SubscriptionDeliveryTests(ServerFixture fixture)
    {
        _fixture = fixture;
        _client = fixture.Client;
    }

    [Fact]
    public async Task Worker_GetsMatchingDocumentsInEtagOrder_InAcknowledgedBatches()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        for (var i = 1; i <= 10; i++)
            await FolioApi.StoreAsync(_client, db, $"orders/{i}", $$$"""{"Total":{{{i * 30}}},"@metadata":{"@collection":"Orders"}}""");
        await FolioApi.StoreAsync(_client, db, "users/1", """{"Total":1000}""");
        await CreateAsync(db, "big", "from Orders where Total > 100");

        using SubscriptionClient worker = await SubscriptionClient.ConnectAsync(TcpEndPoint, SubscriptionClient.Header(db, "big", batchSize: 4));
        await worker.ExpectAsync("Connected");
        JsonElement first = await worker.ExpectAsync("Batch");
        Assert.Equal(["orders/4", "orders/5", "orders/6", "orders/7"], SubscriptionClient.Ids(first));
        Assert.Equal(210, first.GetProperty("Items")[3].GetProperty("Document").GetProperty("Total").GetInt32());
        await worker.AcknowledgeAsync(first);
        JsonElement second = await worker.ExpectAsync("Batch");
        Assert.Equal(["orders/8", "orders/9", "orders/10"], SubscriptionClient.Ids(second));
        await worker.AcknowledgeAsync(second);

        await FolioApi.StoreAsync(_client, db, "orders/11", """{"Total":5,"@metadata":{"@collection":"Orders"}}""");
        await FolioApi.StoreAsync(_client, db, "orders/4", """{"Total":999,"@metadata":{"@collection":"Orders"}}""");
        JsonElement updated = await worker.ExpectAsync("Batch");
        Assert.Equal(["orders/4"], SubscriptionClient.Ids(updated));
        await worker.AcknowledgeAsync(updated);

        using (await _client.DeleteAsync(FolioApi.DocsUri(db, "orders/5")))
        {
        }

        JsonElement deleted = await worker.ExpectAsync("Batch");
        Assert.Equal("Delete", Assert.Single(deleted.GetProperty("Items").EnumerateArray()).GetProperty("ChangeType").GetString());
        await worker.AcknowledgeAsync(deleted);
        await WaitForAcknowledgedAsync(db, "big", deleted.GetProperty("LastEtag").GetInt64());
    }

    [Fact]
    public async Task Worker_GetsAnUnacknowledgedBatchAgain_AfterReconnecting()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        for (var i = 1; i <= 5; i++)
            await FolioApi.StoreAsync(_client, db, $"orders/{i}", """{"@metadata":{"@collection":"Orders"}}""");
        await CreateAsync(db, "all", "from Orders");

        using (SubscriptionClient first = await SubscriptionClient.ConnectAsync(TcpEndPoint, SubscriptionClient.Header(db, "all", batchSize: 2)))
        {
            await first.ExpectAsync("Connected");
            await first.AcknowledgeAsync(await first.ExpectAsync("Batch"));
            Assert.Equal(["orders/3", "orders/4"], SubscriptionClient.Ids(await first.ExpectAsync("Batch")));
        }

        JsonElement state = await WaitForAsync(db, "all", s => s.GetProperty("Worker").ValueKind == JsonValueKind.Null);
        Assert.Equal(2, state.GetProperty("AcknowledgedEtag").GetInt64());
        using SubscriptionClient second = await SubscriptionClient.ConnectAsync(TcpEndPoint, SubscriptionClient.Header(db, "all", batchSize: 2));
        Assert.Equal(2, (await second.ExpectAsync("Connected")).GetProperty("AcknowledgedEtag").GetInt64());
        Assert.Equal(["orders/3", "orders/4"], SubscriptionClient.Ids(await second.ExpectAsync("Batch")));
    }

    [Fact]
    public async Task SecondWorker_IsRefusedAsInUse_UnlessItTakesOver()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        await FolioApi.StoreAsync(_client, db, "orders/1", """{"@metadata":{"@collection":"Orders"}}""");
        await CreateAsync(db, "all", "from Orders");
        using SubscriptionClient first = await SubscriptionClient.ConnectAsync(TcpEndPoint, SubscriptionClient.Header(db, "all"));
        await first.ExpectAsync("Connected");
        await first.ExpectAsync("Batch");

        using (SubscriptionClient refused = await SubscriptionClient.ConnectAsync(TcpEndPoint, SubscriptionClient.Header(db, "all")))
        {
            Assert.Equal("InUse", (await refused.ExpectAsync("Error")).GetProperty("Code").GetString());
            Assert.Null(await refused.ReceiveAsync());
        }

        using SubscriptionClient taker = await SubscriptionClient.ConnectAsync(TcpEndPoint, SubscriptionClient.Header(db, "all", strategy: "TakeOver"));
        await taker.ExpectAsync("Connected");
        Assert.Equal(["orders/1"], SubscriptionClient.Ids(await taker.ExpectAsync("Batch")));
        Assert.Equal("TakenOver", (await first.ExpectAsync("Error")).GetProperty("Code").GetString());
        Assert.Null(await first.ReceiveAsync());
    }

    [Fact]
    public async Task Worker_IsToldAndDisconnected_WhenItsSubscriptionIsDeleted()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        await CreateAsync(db, "all", "from Orders");
        using SubscriptionClient worker = await SubscriptionClient.ConnectAsync(TcpEndPoint, SubscriptionClient.Header(db, "all"));
        await worker.ExpectAsync("Connected");
        await WaitForAsync(db, "all", s => s.GetProperty("Worker").ValueKind == JsonValueKind.Object);

        using (HttpResponseMessage deleted = await _client.DeleteAsync($"/databases/{db}/subscriptions?name=all"))
            Assert.Equal(HttpStatusCode.NoContent, deleted.StatusCode);

        Assert.Equal("Deleted", (await worker.ExpectAsync("Error")).GetProperty("Code").GetString());
        Assert.Null(await worker.ReceiveAsync());
    }

    [Theory]
    [InlineData("not json", "Invalid")]
    [InlineData("""{"Database":"x"}""", "Invalid")]
    [InlineData("""{"Database":"no-such-db","Subscription":"s"}""", "DatabaseNotFound")]
    [InlineData("""{"Database":"{db}","Subscription":"nobody"}""", "NotFound")]
    [InlineData("""{"Database":"{db}","Subscription":"s","Strategy":"Grab"}""", "Invalid")]
    [InlineData("""{"Database":"{db}","Subscription":"s","BatchSize":0}""", "Invalid")]
    public async Task Worker_IsRefusedWithACode_ForABadHeader(string header, string code)
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        await CreateAsync(db, "s", "from Orders");

        using SubscriptionClient worker = await SubscriptionClient.ConnectAsync(TcpEndPoint, header.Replace("{db}", db, StringComparison.Ordinal));

        Assert.Equal(code, (await worker.ExpectAsync("Error")).GetProperty("Code").GetString());
        Assert.Null(await worker.ReceiveAsync());
        await FolioApi.AssertServingAsync(_client);
    }

    [Fact]
    public async Task Position_SurvivesARestart_AndDeliveryResumesAfterIt()
    {
        string dataDir = RunningServer.NewDataDir();
        try
        {
            string db;
            long acknowledged;
            await using (RunningServer server = await RunningServer.StartOnAsync(dataDir))
            {
                db = await FolioApi.CreateDatabaseAsync(server.Client);
                for (var i = 1; i <= 3; i++)
                    await FolioApi.StoreAsync(server.Client, db, $"orders/{i}", """{"@metadata":{"@collection":"Orders"}}""");
                using (HttpResponseMessage put = await server.Client.PutAsync($"/databases/{db}/subscriptions", FolioApi.Json("""{"Name":"all","Query":"from Orders"}""")))
                    Assert.Equal(HttpStatusCode.Created, put.StatusCode);
                using SubscriptionClient worker = await SubscriptionClient.ConnectAsync(server.Server.TcpEndPoint, SubscriptionClient.Header(db, "all", batchSize: 2));
                await worker.ExpectAsync("Connected");
                JsonElement batch = await worker.ExpectAsync("Batch");
                await worker.AcknowledgeAsync(batch);
                acknowledged = batch.GetProperty("LastEtag").GetInt64();
                await worker.ExpectAsync("Batch");
            }

            await using (RunningServer restarted = await RunningServer.StartOnAsync(dataDir))
            {
                await FolioApi.StoreAsync(restarted.Client, db, "orders/4", """{"@metadata":{"@collection":"Orders"}}""");
                using SubscriptionClient worker = await SubscriptionClient.ConnectAsync(restarted.Server.TcpEndPoint, SubscriptionClient.Header(db, "all"));
                Assert.Equal(acknowledged, (await worker.ExpectAsync("Connected")).GetProperty("AcknowledgedEtag").GetInt64());
                Assert.Equal(["orders/3", "orders/4"], SubscriptionClient.Ids(await worker.ExpectAsync("Batch")));
            }
        }
        finally
        {
            RunningServer.DeleteDirectory(dataDir);
        }
    }

    private IPEndPoint TcpEndPoint => _fixture.Running.Server.TcpEndPoint;

    private async Task CreateAsync(string db, string name, string query)
    {
        using HttpResponseMessage put = await _client.PutAsync($"/databases/{db}/subscriptions", FolioApi.Json(JsonSerializer.Serialize(new { Name = name, Query = query })));
        Assert.Equal(HttpStatusCode.Created, put.StatusCode);
    }

    private async Task<JsonElement> WaitForAsync(string db, string name, Func<JsonElement, bool> condition)
    {
        using var timeout = new CancellationTokenSource(TestTimeouts.Default);
        while (true)
        {
            JsonElement state = await FolioApi.GetJsonAsync(_client, $"/databases/{db}/subscriptions?name={name}");
            if (condition(state))
                return state;
            await Task.Delay(20, timeout.Token);
        }
    }

    private Task WaitForAcknowledgedAsync(string db, string name, long etag) =>
        WaitForAsync(db, name, s => s.GetProperty("AcknowledgedEtag").GetInt64() == etag);
}
