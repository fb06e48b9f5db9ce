using Folio.Server.Configuration;
using Folio.Server.Databases;
using Folio.Server.Http;
using Folio.Server.Tests.Support;
using Microsoft.Extensions.Logging.Abstractions;

namespace Folio.Server.Tests.Databases;

public sealed class DatabaseRegistryTests : IAsyncLifetime
{
    private readonly string _dataDir = RunningServer.NewDataDir();
    private DatabaseRegistry _registry = null!;

    public Task InitializeAsync()
    {
        _registry = Create();
        return Task.CompletedTask;
    }

    public async Task DisposeAsync()
    {
        await _registry.DisposeAsync();
        RunningServer.DeleteDirectory(_dataDir);
    }

    [Fact]
    public async Task Enter_FindsAnyCasing_WithoutAllocating()
    {
        await _registry.CreateAsync("Northwind", CancellationToken.None);
        string path = "/databases/NORTHWIND/docs";
        ReadOnlySpan<char> segment = path.AsSpan(11, 9);
        _registry.Enter(segment).Exit();

        long before = GC.GetAllocatedBytesForCurrentThread();
        for (int i = 0; i < 1000; i++)
            _registry.Enter(segment).Exit();
        long allocated = GC.GetAllocatedBytesForCurrentThread() - before;

        Assert.Equal(0, allocated);
        Database found = _registry.Enter(segment);
        found.Exit();
        Assert.Equal("Northwind", found.Name);
    }

    [Fact]
    public async Task Lease_FindsAnyCasingThroughTheCache_WithoutAllocating()
    {
        Database created = await _registry.CreateAsync("Northwind", CancellationToken.None);
        string path = "/databases/NORTHWIND/docs";
        ReadOnlySpan<char> segment = path.AsSpan(11, 9);
        using (_registry.Lease(segment))
        {
        }

        long before = GC.GetAllocatedBytesForCurrentThread();
        for (int i = 0; i < 1000; i++)
        {
            using DatabaseLease lease = _registry.Lease(segment);
            Assert.Same(created, lease.Database);
        }

        long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        Assert.Equal(0, allocated);
        using DatabaseLease northwind = _registry.Lease("northwind");
        Assert.Equal("Northwind", northwind.Database.Name);
    }

    [Fact]
    public async Task Lease_HoldsOffDelete_UntilItsUsingBlockEnds()
    {
        await _registry.CreateAsync("Busy", CancellationToken.None);
        Task<bool> deleting;
        using (DatabaseLease lease = _registry.Lease("BUSY"))
        {
            deleting = _registry.DeleteAsync("busy", CancellationToken.None);

            using (Folio.Storage.Documents.DocumentReader reader = lease.Database.Store.OpenReader())
                Assert.Equal(0, reader.CountOfDocuments);
            Assert.False(deleting.IsCompleted);
        }

        Assert.True(await deleting.WaitAsync(TestTimeouts.Default));
    }

    [Fact]
    public async Task Enter_Throws404ForUnknown_And400ForImpossibleNames()
    {
        await _registry.CreateAsync("Northwind", CancellationToken.None);

        var unknown = Assert.Throws<FolioHttpException>(() => _registry.Enter("Southwind"));
        var invalid = Assert.Throws<FolioHttpException>(() => _registry.Enter("../Northwind"));

        Assert.Equal(404, unknown.StatusCode);
        Assert.Equal(400, invalid.StatusCode);
    }

    [Fact]
    public async Task Delete_WaitsForLeases_BeforeClosingTheStore()
    {
        Database database = await _registry.CreateAsync("Busy", CancellationToken.None);
        Database leased = _registry.Enter("busy");

        Task<bool> deleting = _registry.DeleteAsync("BUSY", CancellationToken.None);

        // The lease is out, so the store must stay open and readable; new leases are refused at once.
        Assert.Throws<FolioHttpException>(() => _registry.Enter("busy"));
        using (Folio.Storage.Documents.DocumentReader reader = leased.Store.OpenReader())
            Assert.Equal(0, reader.CountOfDocuments);
        Assert.False(deleting.IsCompleted);
        leased.Exit();
        Assert.True(await deleting.WaitAsync(TestTimeouts.Default));
        Assert.False(Directory.Exists(database.Directory));
    }

    [Fact]
    public async Task Reopen_FindsDatabasesOnDisk_AndIgnoresDirectoriesWithInvalidNames()
    {
        await _registry.CreateAsync("Kept", CancellationToken.None);
        Directory.CreateDirectory(Path.Combine(_registry.RootDirectory, ".not-a-database"));
        await _registry.DisposeAsync();

        _registry = Create();

        Assert.Equal(["Kept"], _registry.List().Select(d => d.Name).ToArray());
    }

    [Fact]
    public async Task Enter_Fails_WhenAnotherStoreHoldsTheDirectory_AndOpensItOnceReleased()
    {
        await _registry.CreateAsync("Free", CancellationToken.None);
        await _registry.CreateAsync("Held", CancellationToken.None);
        await _registry.DisposeAsync();
        _registry = Create();
        using (Folio.Storage.Documents.DocumentStore.Open(Folio.Storage.StorageOptions.ForPath(Path.Combine(_registry.RootDirectory, "Held"))))
        {
            // Only the catalog is read at start, so a held directory fails its own first request, not the server.
            Assert.ThrowsAny<Folio.Storage.StorageException>(() => _registry.Enter("Held"));
            _registry.Enter("Free").Exit();
        }

        // The failed open left nothing behind: once released, the database opens.
        _registry.Enter("Held").Exit();
        Assert.Equal(2, _registry.LoadedCount);
    }

    [Fact]
    public async Task Create_ReadsOnlyTheCatalog_AtStart()
    {
        await _registry.CreateAsync("One", CancellationToken.None);
        await _registry.CreateAsync("Two", CancellationToken.None);
        await _registry.DisposeAsync();

        _registry = Create();

        Assert.Equal(2, _registry.Count);
        Assert.Equal(0, _registry.LoadedCount);
        Assert.All(_registry.List(), entry => Assert.False(entry.IsLoaded));
        _registry.Enter("two").Exit();
        Assert.Equal(1, _registry.LoadedCount);
    }

    private DatabaseRegistry Create() =>
        new(new ServerOptions { DataDir = _dataDir, JournalFileSizeBytes = 4L << 20 }, NullLogger<DatabaseRegistry>.Instance);
}
