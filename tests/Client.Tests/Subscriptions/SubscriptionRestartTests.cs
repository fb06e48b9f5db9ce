using System.Collections.Concurrent;
using System.Net;
using System.Net.Sockets;
using Folio.Client.Subscriptions;
using Folio.Client.Tests.Support;
using Folio.Server.Hosting;

namespace Folio.Client.Tests.Subscriptions;

/// <summary>A worker outlives a server restart: it reconnects by itself and resumes after the last acknowledged batch.</summary>
public class SubscriptionRestartTests
{
    [Fact]
    public async Task Worker_ReconnectsAfterTheServerRestarts_AndResumesWithoutSkipping()
    {
        string dataDir = Path.Combine(Path.GetTempPath(), "folio-client-tests", Guid.NewGuid().ToString("N"));
        int httpPort = FreePort(), tcpPort = FreePort();
        // A connected worker holds the server's stop for the whole shutdown timeout (the subscription session ends only
        // when the databases close, after Kestrel gave up waiting): 1 s instead of 15 keeps the test short.
        string[] args = ["--DataDir=" + dataDir, $"--ServerUrl=http://127.0.0.1:{httpPort}", $"--TcpPort={tcpPort}", "--LogToConsole=false", "--JournalFileSizeBytes=4194304", "--ShutdownTimeout=00:00:01"];
        FolioServer? server = FolioServer.Create(args);
        try
        {
            await server.StartAsync();
            using var store = new DocumentStore { Urls = [$"http://127.0.0.1:{httpPort}"], Database = "shop", TcpPort = tcpPort };
            store.Initialize();
            await store.Maintenance.CreateDatabaseAsync("shop");
            await StoreCompaniesAsync(store, 0, 20);
            await store.Subscriptions.CreateAsync(new SubscriptionCreationOptions { Name = "companies", Query = "from Companies" });

            var delivered = new ConcurrentDictionary<string, int>();
            using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(60));
            await using SubscriptionWorker<Company> worker = store.Subscriptions.GetSubscriptionWorker<Company>(new SubscriptionWorkerOptions
            {
                SubscriptionName = "companies",
                MaxDocsPerBatch = 5,
                RetryDelay = TimeSpan.FromMilliseconds(100),
            });
            Task run = worker.RunAsync(batch =>
            {
                foreach (SubscriptionItem<Company> item in batch.Items)
                    delivered.AddOrUpdate(item.Id, 1, (_, n) => n + 1);
                return Task.CompletedTask;
            }, timeout.Token);
            await Wait.UntilAsync(() => Task.FromResult(delivered.Count == 20), "the first 20 companies");

            await server.StopAsync();
            await server.DisposeAsync();
            server = FolioServer.Create(args);
            await server.StartAsync();
            await StoreCompaniesAsync(store, 20, 10);

            await Wait.UntilAsync(() => Task.FromResult(delivered.Count == 30 || run.IsCompleted), "the 10 companies stored after the restart");
            Assert.False(run.IsFaulted, run.Exception?.ToString());
            Assert.Equal(30, delivered.Count);
            Assert.True(worker.Connections >= 2, $"{worker.Connections} connections");
            await worker.DisposeAsync();
            await run;
        }
        finally
        {
            if (server is not null)
            {
                await server.StopAsync();
                await server.DisposeAsync();
            }
            if (Directory.Exists(dataDir))
                Directory.Delete(dataDir, recursive: true);
        }
    }

    private static async Task StoreCompaniesAsync(DocumentStore store, int first, int count)
    {
        await using var session = store.OpenAsyncSession();
        for (int i = first; i < first + count; i++)
            await session.StoreAsync(new Company { Id = "companies/" + i, Name = "c" + i });
        await session.SaveChangesAsync();
    }

    private static int FreePort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }
}
