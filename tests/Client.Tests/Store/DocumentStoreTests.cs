using Folio.Client.Conventions;
using Folio.Client.DependencyInjection;
using Folio.Client.Exceptions;
using Folio.Client.Tests.Support;
using Microsoft.Extensions.DependencyInjection;

namespace Folio.Client.Tests.Store;

[Collection(ServerCollection.Name)]
public class DocumentStoreTests(TestServer server)
{
    [Theory]
    [InlineData(typeof(Order), "Orders")]
    [InlineData(typeof(Company), "Companies")]
    [InlineData(typeof(Address), "Addresses")]
    [InlineData(typeof(Category), "Categories")]
    public void DefaultCollectionName_IsThePluralOfTheTypeName(Type type, string expected) =>
        Assert.Equal(expected, DocumentConventions.DefaultCollectionName(type));

    [Fact]
    public void OpenAsyncSession_Throws_WithoutUrls()
    {
        using var store = new DocumentStore { Database = "x" };
        Assert.Throws<InvalidOperationException>(() => store.OpenAsyncSession());
    }

    [Fact]
    public async Task AddFolio_RegistersAnInitializedSingletonStore_ThatTheContainerDisposes()
    {
        using DocumentStore seed = await server.NewStoreAsync();
        var services = new ServiceCollection();
        services.AddFolio(options =>
        {
            options.Urls = [server.Url];
            options.Database = seed.Database;
            options.Conventions = c => c.MaxNumberOfRequestsPerSession = 5;
        });
        IDocumentStore store;
        await using (ServiceProvider provider = services.BuildServiceProvider())
        {
            store = provider.GetRequiredService<IDocumentStore>();
            Assert.Same(store, provider.GetRequiredService<IDocumentStore>());
            Assert.Equal(5, store.Conventions.MaxNumberOfRequestsPerSession);
            await using var session = store.OpenAsyncSession();
            await session.StoreAsync(new Company { Name = "Acme" });
            await session.SaveChangesAsync();
        }
        Assert.Throws<ObjectDisposedException>(() => store.OpenAsyncSession());
    }

    [Fact]
    public async Task LoadAsync_ThrowsFolioExceptionWithProblem_ForAMissingDatabase()
    {
        using DocumentStore store = await server.NewStoreAsync();
        await using var session = store.OpenAsyncSession("no-such-database");
        FolioException e = await Assert.ThrowsAsync<FolioException>(() => session.LoadAsync<Order>("orders/1"));
        Assert.Equal(System.Net.HttpStatusCode.NotFound, e.Status);
        Assert.Equal("urn:folio:problem:database-not-found", e.ProblemType);
    }

    [Fact]
    public async Task Requests_GoToTheNextUrl_WhenTheFirstCannotBeReached()
    {
        using DocumentStore seed = await server.NewStoreAsync();
        using var listener = new System.Net.Sockets.TcpListener(System.Net.IPAddress.Loopback, 0);
        listener.Start();
        int closedPort = ((System.Net.IPEndPoint)listener.LocalEndpoint).Port;
        listener.Stop();
        using var store = new DocumentStore { Urls = [$"http://127.0.0.1:{closedPort}", server.Url], Database = seed.Database };
        store.Initialize();
        await using var session = store.OpenAsyncSession();
        await session.StoreAsync(new Company { Id = "companies/1", Name = "Acme" });
        await session.SaveChangesAsync();
        await using var second = store.OpenAsyncSession();
        Assert.Equal("Acme", (await second.LoadAsync<Company>("companies/1"))!.Name);
    }

    [Fact]
    public async Task CreateDatabaseAsync_OfAnExistingDatabase_ThrowsUnlessAskedToIgnoreIt()
    {
        using DocumentStore store = await server.NewStoreAsync();
        FolioException e = await Assert.ThrowsAsync<FolioException>(() => store.Maintenance.CreateDatabaseAsync(store.Database!));
        Assert.Equal("urn:folio:problem:database-exists", e.ProblemType);
        await store.Maintenance.CreateDatabaseAsync(store.Database!, ignoreIfExists: true);
    }
}
