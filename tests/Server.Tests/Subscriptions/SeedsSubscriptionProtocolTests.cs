using System.Net;
using System.Text.Json;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Subscriptions;

/// <summary>The seeds' clients' subscription protocol on the subscriptions' port, beside Folio's own.</summary>
public class SeedsSubscriptionProtocolTests : IClassFixture<ServerFixture>
{
    private readonly ServerFixture _fixture;
    private readonly HttpClient _client;

    public SeedsSubscriptionProtocolTests(ServerFixture fixture)
    {
        _fixture = fixture;
        _client = fixture.Client;
    }

    private IPEndPoint TcpEndPoint => _fixture.Running.Server.TcpEndPoint;

    [Fact]
    public async Task Worker_GetsBatchesEndedAndConfirmed_AfterAgreeingOnAVersion()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        for (var i = 1; i <= 5; i++)
            await FolioApi.StoreAsync(_client, db, $"users/{i}", $$$"""{"Age":{{{i * 10}}},"@metadata":{"@collection":"Users"}}""");
        await FolioApi.StoreAsync(_client, db, "orders/1", """{"Age":99,"@metadata":{"@collection":"Orders"}}""");
        await CreateAsync(db, "adults", "from 'Users' as doc where Age >= 20");

        using SeedsSubscriptionClient worker = await SeedsSubscriptionClient.ConnectAsync(TcpEndPoint);
        await worker.SendAsync(SeedsSubscriptionClient.Header(db, 60_000));
        JsonElement offer = (await worker.ReceiveAsync())!.Value;
        Assert.Equal("TcpVersionMismatch", offer.GetProperty("Status").GetString());
        Assert.Equal(53_000, offer.GetProperty("Version").GetInt32());
        await worker.SendAsync(SeedsSubscriptionClient.Header(db, 53_000));
        JsonElement agreed = (await worker.ReceiveAsync())!.Value;
        Assert.Equal("Ok", agreed.GetProperty("Status").GetString());
        Assert.False(agreed.GetProperty("LicensedFeatures").GetProperty("DataCompression").GetBoolean());
        await worker.SendAsync("""{"SubscriptionName":"ADULTS","Strategy":"OpenIfFree","MaxDocsPerBatch":3}""");
        Assert.Equal("Accepted", (await worker.ExpectAsync("ConnectionStatus")).GetProperty("Status").GetString());

        (List<JsonElement> first, _) = await worker.ReadBatchAsync();
        Assert.Equal(["users/2", "users/3", "users/4"], first.Select(d => SeedsSubscriptionClient.Metadata(d, "@id")));
        Assert.Equal(30, first[1].GetProperty("Age").GetInt32());
        await worker.AcknowledgeAsync(SeedsSubscriptionClient.Metadata(first[2], "@change-vector"));
        await worker.ExpectAsync("Confirm");
        (List<JsonElement> second, _) = await worker.ReadBatchAsync();
        Assert.Equal(["users/5"], second.Select(d => SeedsSubscriptionClient.Metadata(d, "@id")));
        await worker.AcknowledgeAsync(SeedsSubscriptionClient.Metadata(second[0], "@change-vector"));
        await worker.ExpectAsync("Confirm");

        await FolioApi.StoreAsync(_client, db, "users/2", """{"Age":21,"@metadata":{"@collection":"Users"}}""");
        (List<JsonElement> updated, _) = await worker.ReadBatchAsync();
        Assert.Equal(21, Assert.Single(updated).GetProperty("Age").GetInt32());

        // The position is the etag read through (orders/1, written last, was read and skipped), as a change vector.
        JsonElement state = await FolioApi.GetJsonAsync(_client, $"/databases/{db}/subscriptions/state?name=adults");
        Assert.Equal(6, state.GetProperty("AcknowledgedEtag").GetInt64());
        Assert.StartsWith("A:6-", state.GetProperty("ChangeVectorForNextBatchStartingPoint").GetString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Worker_GetsTheDocumentsTheQueryIncludes_WithEachBatch()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        await FolioApi.StoreAsync(_client, db, "categories/1", """{"Name":"Tea","@metadata":{"@collection":"Categories"}}""");
        await FolioApi.StoreAsync(_client, db, "products/1", """{"Category":"categories/1","Supplier":"suppliers/404","@metadata":{"@collection":"Products"}}""");
        await CreateAsync(db, "products", "from 'Products' as doc include doc.Category,doc.Supplier");

        (SeedsSubscriptionClient worker, JsonElement status) = await SeedsSubscriptionClient.OpenAsync(TcpEndPoint, db, "products");
        using (worker)
        {
            Assert.Equal("Accepted", status.GetProperty("Status").GetString());
            (List<JsonElement> documents, List<JsonElement> includes) = await worker.ReadBatchAsync();
            Assert.Single(documents);
            JsonElement included = Assert.Single(includes);
            Assert.Equal("Tea", included.GetProperty("categories/1").GetProperty("Name").GetString());
            Assert.False(included.TryGetProperty("suppliers/404", out _));
        }
    }

    [Fact]
    public async Task SecondWorker_IsTold_InUse_NotFound_Closed_AsTheSubscriptionChanges()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        await CreateAsync(db, "s", "from Orders");
        (SeedsSubscriptionClient first, JsonElement accepted) = await SeedsSubscriptionClient.OpenAsync(TcpEndPoint, db, "s");
        using (first)
        {
            Assert.Equal("Accepted", accepted.GetProperty("Status").GetString());

            (SeedsSubscriptionClient second, JsonElement inUse) = await SeedsSubscriptionClient.OpenAsync(TcpEndPoint, db, "s");
            using (second)
            {
                Assert.Equal("InUse", inUse.GetProperty("Status").GetString());
                Assert.Null(await second.ReceiveAsync());
            }

            (SeedsSubscriptionClient missing, JsonElement notFound) = await SeedsSubscriptionClient.OpenAsync(TcpEndPoint, db, "nobody");
            using (missing)
                Assert.Equal("NotFound", notFound.GetProperty("Status").GetString());

            using (HttpResponseMessage dropped = await _client.PostAsync($"/databases/{db}/subscriptions/drop?name=s", null))
                Assert.Equal(HttpStatusCode.NoContent, dropped.StatusCode);
            JsonElement closed = await first.ExpectAsync("ConnectionStatus");
            Assert.Equal("Closed", closed.GetProperty("Status").GetString());
            Assert.False(closed.GetProperty("Data").GetProperty("CanReconnect").GetBoolean());
            Assert.Null(await first.ReceiveAsync());
        }

        // The drop freed it: the next worker is accepted at once.
        (SeedsSubscriptionClient next, JsonElement again) = await SeedsSubscriptionClient.OpenAsync(TcpEndPoint, db, "s");
        using (next)
            Assert.Equal("Accepted", again.GetProperty("Status").GetString());
    }

    [Fact]
    public async Task WaitForFree_Worker_IsAccepted_WhenTheHolderLeaves()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        await CreateAsync(db, "s", "from Orders");
        (SeedsSubscriptionClient holder, _) = await SeedsSubscriptionClient.OpenAsync(TcpEndPoint, db, "s");
        Task<(SeedsSubscriptionClient Client, JsonElement Status)> waiting;
        using (holder)
        {
            waiting = SeedsSubscriptionClient.OpenAsync(TcpEndPoint, db, "s", strategy: "WaitForFree");
            await Task.Delay(300);
            Assert.False(waiting.IsCompleted);
        }

        (SeedsSubscriptionClient waiter, JsonElement status) = await waiting;
        using (waiter)
            Assert.Equal("Accepted", status.GetProperty("Status").GetString());
    }

    [Theory]
    [InlineData("""{"Strategy":"OpenIfFree"}""")]
    [InlineData("""{"SubscriptionName":"s","Strategy":"Concurrent"}""")]
    [InlineData("""{"SubscriptionName":"s","MaxDocsPerBatch":0}""")]
    [InlineData("""[1,2]""")]
    public async Task BadOptions_GetTheInvalidStatus_AndTheServerKeepsServing(string options)
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        await CreateAsync(db, "s", "from Orders");

        using (SeedsSubscriptionClient worker = await SeedsSubscriptionClient.ConnectAsync(TcpEndPoint))
        {
            await worker.SendAsync(SeedsSubscriptionClient.Header(db, 53_000));
            Assert.Equal("Ok", (await worker.ReceiveAsync())!.Value.GetProperty("Status").GetString());
            await worker.SendAsync(options);
            Assert.Equal("Invalid", (await worker.ExpectAsync("ConnectionStatus")).GetProperty("Status").GetString());
            Assert.Null(await worker.ReceiveAsync());
        }

        (SeedsSubscriptionClient next, JsonElement status) = await SeedsSubscriptionClient.OpenAsync(TcpEndPoint, db, "s");
        using (next)
            Assert.Equal("Accepted", status.GetProperty("Status").GetString());
        using SubscriptionClient folio = await SubscriptionClient.ConnectAsync(TcpEndPoint, SubscriptionClient.Header(db, "s", strategy: "TakeOver"));
        await folio.ExpectAsync("Connected");
    }

    [Theory]
    [InlineData("""{"DatabaseName":"x","Operation":"Replication","OperationVersion":53000}""", "TcpVersionMismatch")]
    [InlineData("""{"DatabaseName":"x","Operation":"Subscription","OperationVersion":10}""", "TcpVersionMismatch")]
    [InlineData("""{"Operation":"Subscription","OperationVersion":53000}""", "TcpVersionMismatch")]
    public async Task BadHeader_IsAnswered_AndTheConnectionClosed(string header, string status)
    {
        using SeedsSubscriptionClient worker = await SeedsSubscriptionClient.ConnectAsync(TcpEndPoint);
        await worker.SendAsync(header);
        JsonElement answer = (await worker.ReceiveAsync())!.Value;
        Assert.Equal(status, answer.GetProperty("Status").GetString());
        Assert.Equal(-1, answer.GetProperty("Version").GetInt32());
        Assert.Null(await worker.ReceiveAsync());
        await FolioApi.AssertServingAsync(_client);
    }

    [Fact]
    public async Task MissingDatabase_IsAnError_NamingTheClientsException()
    {
        (SeedsSubscriptionClient worker, JsonElement status) = await SeedsSubscriptionClient.OpenAsync(TcpEndPoint, "no-such-db", "s");
        using (worker)
        {
            Assert.Equal("Error", status.GetProperty("Type").GetString());
            Assert.Contains("DatabaseDoesNotExistException", status.GetProperty("Exception").GetString(), StringComparison.Ordinal);
        }
    }

    [Fact]
    public async Task DisabledSubscription_RefusesWorkers_UntilEnabled()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        await CreateAsync(db, "s", "from Orders");
        (SeedsSubscriptionClient holder, _) = await SeedsSubscriptionClient.OpenAsync(TcpEndPoint, db, "s");
        using (holder)
        {
            using (HttpResponseMessage disabled = await _client.PostAsync($"/databases/{db}/admin/tasks/state?taskName=s&type=Subscription&disable=true", null))
                Assert.Equal(HttpStatusCode.OK, disabled.StatusCode);
            Assert.Equal("Closed", (await holder.ExpectAsync("ConnectionStatus")).GetProperty("Status").GetString());
        }

        (SeedsSubscriptionClient refused, JsonElement closed) = await SeedsSubscriptionClient.OpenAsync(TcpEndPoint, db, "s");
        using (refused)
            Assert.Equal("Closed", closed.GetProperty("Status").GetString());

        using (HttpResponseMessage enabled = await _client.PostAsync($"/databases/{db}/admin/tasks/state?taskName=s&type=Subscription&disable=false", null))
            Assert.Equal(HttpStatusCode.OK, enabled.StatusCode);
        (SeedsSubscriptionClient accepted, JsonElement status) = await SeedsSubscriptionClient.OpenAsync(TcpEndPoint, db, "s");
        using (accepted)
            Assert.Equal("Accepted", status.GetProperty("Status").GetString());
    }

    [Fact]
    public async Task AcknowledgedPosition_SurvivesAKill9()
    {
        string dataDir = RunningServer.NewDataDir();
        try
        {
            string db;
            string acknowledged;
            await using (ServerProcess server = await ServerProcess.StartAsync(dataDir))
            {
                db = await FolioApi.CreateDatabaseAsync(server.Client);
                for (var i = 1; i <= 3; i++)
                    await FolioApi.StoreAsync(server.Client, db, $"orders/{i}", """{"@metadata":{"@collection":"Orders"}}""");
                using (HttpResponseMessage put = await server.Client.PutAsync($"/databases/{db}/subscriptions", FolioApi.Json("""{"Name":"all","Query":"from Orders"}""")))
                    Assert.Equal(HttpStatusCode.Created, put.StatusCode);
                (SeedsSubscriptionClient worker, _) = await SeedsSubscriptionClient.OpenAsync(server.TcpEndPoint, db, "all", maxDocsPerBatch: 2);
                using (worker)
                {
                    (List<JsonElement> batch, _) = await worker.ReadBatchAsync();
                    acknowledged = SeedsSubscriptionClient.Metadata(batch[1], "@change-vector");
                    await worker.AcknowledgeAsync(acknowledged);
                    await worker.ExpectAsync("Confirm");
                    await worker.ReadBatchAsync();
                    await server.KillAsync();
                }
            }

            await using (ServerProcess restarted = await ServerProcess.StartAsync(dataDir))
            {
                JsonElement state = await FolioApi.GetJsonAsync(restarted.Client, $"/databases/{db}/subscriptions/state?name=all");
                Assert.Equal(acknowledged, state.GetProperty("ChangeVectorForNextBatchStartingPoint").GetString());
                (SeedsSubscriptionClient worker, _) = await SeedsSubscriptionClient.OpenAsync(restarted.TcpEndPoint, db, "all");
                using (worker)
                {
                    (List<JsonElement> batch, _) = await worker.ReadBatchAsync();
                    Assert.Equal(["orders/3"], batch.Select(d => SeedsSubscriptionClient.Metadata(d, "@id")));
                }
            }
        }
        finally
        {
            RunningServer.DeleteDirectory(dataDir);
        }
    }

    private async Task CreateAsync(string db, string name, string query)
    {
        using HttpResponseMessage put = await _client.PutAsync($"/databases/{db}/subscriptions", FolioApi.Json(JsonSerializer.Serialize(new { Name = name, Query = query })));
        Assert.Equal(HttpStatusCode.Created, put.StatusCode);
    }
}
