using System.Collections.Concurrent;
using System.Net;
using Folio.Client.Exceptions;
using Folio.Client.Subscriptions;
using Folio.Client.Tests.Support;
using Folio.Server.Hosting;
using Folio.Server.Security;

namespace Folio.Client.Tests.Store;

/// <summary>The store's API key reaches a server that requires authentication over HTTP and the subscriptions' TCP.</summary>
public sealed class ApiKeyTests : IAsyncLifetime
{
    private readonly string _dataDir = Path.Combine(Path.GetTempPath(), "folio-client-tests", Guid.NewGuid().ToString("N"));
    private FolioServer? _server;
    private string _key = string.Empty;

    public async Task InitializeAsync()
    {
        (_, _key) = new CredentialStore(Path.Combine(_dataDir, "System", "credentials.json")).CreateKey("client", Clearance.Admin, ["*"]);
        _server = FolioServer.Create(["--DataDir=" + _dataDir, "--ServerUrl=http://127.0.0.1:0", "--TcpPort=0", "--LogToConsole=false", "--JournalFileSizeBytes=4194304", "--Security:Authentication=Required"]);
        await _server.StartAsync();
    }

    [Fact]
    public async Task Store_WithApiKey_WritesReadsAndSubscribes_AndWithoutOneIsRefused()
    {
        string url = _server!.Address.ToString().TrimEnd('/');
        using var store = new DocumentStore { Urls = [url], Database = "shop", TcpPort = _server.TcpEndPoint.Port, ApiKey = _key };
        store.Initialize();
        using var anonymous = new DocumentStore { Urls = [url], Database = "shop" };
        anonymous.Initialize();

        await store.Maintenance.CreateDatabaseAsync("shop");
        await using (var session = store.OpenAsyncSession())
        {
            await session.StoreAsync(new Order { Id = "orders/1", Paid = true });
            await session.SaveChangesAsync();
        }

        await store.Subscriptions.CreateAsync(new SubscriptionCreationOptions { Name = "paid", Query = "from Orders where Paid = true" });
        var seen = new ConcurrentBag<string>();
        using var timeout = new CancellationTokenSource(Wait.Timeout);
        await using (SubscriptionWorker<Order> worker = store.Subscriptions.GetSubscriptionWorker<Order>("paid"))
        {
            Task run = worker.RunAsync(batch =>
            {
                foreach (SubscriptionItem<Order> item in batch.Items)
                    seen.Add(item.Id);
                return Task.CompletedTask;
            }, timeout.Token);
            await Wait.UntilAsync(() => Task.FromResult(!seen.IsEmpty), "the paid order through the subscription");
            await worker.DisposeAsync();
            await run;
        }

        FolioException refused = await Assert.ThrowsAsync<FolioException>(async () =>
        {
            await using var session = anonymous.OpenAsyncSession();
            await session.LoadAsync<Order>("orders/1");
        });
        Assert.Equal(HttpStatusCode.Unauthorized, refused.Status);
        Assert.Equal(["orders/1"], seen);
    }

    public async Task DisposeAsync()
    {
        if (_server is not null)
        {
            await _server.StopAsync();
            await _server.DisposeAsync();
        }

        if (Directory.Exists(_dataDir))
            Directory.Delete(_dataDir, recursive: true);
    }
}
