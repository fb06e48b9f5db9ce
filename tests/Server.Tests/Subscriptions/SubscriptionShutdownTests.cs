using System.Diagnostics;
using System.Net;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Subscriptions;

public sealed class SubscriptionShutdownTests
{
    [Fact]
    public async Task Stop_EndsAConnectedWorkersSession_WithoutWaitingOutTheShutdownTimeout()
    {
        await using RunningServer running = await RunningServer.StartAsync("--ShutdownTimeout=00:00:30");
        HttpClient client = running.Client;
        string database = await FolioApi.CreateDatabaseAsync(client);
        await FolioApi.StoreAsync(client, database, "orders/1", """{"@metadata":{"@collection":"Orders"}}""");
        using (HttpResponseMessage put = await client.PutAsync($"/databases/{database}/subscriptions", FolioApi.Json("""{"Name":"all","Query":"from Orders"}""")))
            Assert.Equal(HttpStatusCode.Created, put.StatusCode);
        using SubscriptionClient worker = await SubscriptionClient.ConnectAsync(running.Server.TcpEndPoint, SubscriptionClient.Header(database, "all"));
        await worker.ExpectAsync("Connected");
        await worker.ExpectAsync("Batch");

        var clock = Stopwatch.StartNew();
        await running.StopAsync();

        Assert.True(clock.Elapsed < TimeSpan.FromSeconds(10), $"the stop took {clock.Elapsed.TotalSeconds:F1} s with a worker connected");
        var ended = await worker.ExpectAsync("Error");
        Assert.Equal("DatabaseClosed", ended.GetProperty("Code").GetString());
    }
}
