using System.Net;
using System.Runtime.CompilerServices;
using Folio.Server.Databases;
using Folio.Server.Tests.Support;
using Microsoft.Extensions.DependencyInjection;
using static Folio.Server.Tests.Support.FolioApi;

namespace Folio.Server.Tests.Databases;

/// <summary>
/// An unloaded database leaves nothing of itself reachable: its store, storage environments and indexes can be
/// collected, so a thousand databases that were loaded once cost no memory once they have all unloaded.
/// </summary>
public sealed class DatabaseUnloadMemoryTests
{
    [Fact]
    public async Task TryUnload_LeavesNoObjectOfTheDatabaseReachable_OnceClosed()
    {
        await using RunningServer server = await RunningServer.StartAsync("--Databases:IdleUnloadAfter=00:00:00");
        string db = await CreateDatabaseAsync(server.Client);
        using (HttpResponseMessage put = await server.Client.PutAsync($"/databases/{db}/indexes",
            FolioApi.Json("""{"Indexes":[{"Name":"Users/ByName","Collections":["Users"],"Fields":{"Name":{"Path":"Name"}}},{"Name":"Users/ByAge","Collections":["Users"],"Fields":{"Age":{"Path":"Age","Type":"Long"}}}]}""")))
            Assert.Equal(HttpStatusCode.Created, put.StatusCode);
        for (int i = 0; i < 20; i++)
            await StoreAsync(server.Client, db, $"users/{i}", $$$"""{"Name":"n{{{i}}}","Age":{{{i}}},"@metadata":{"@collection":"Users"}}""");
        using (HttpResponseMessage query = await server.Client.PostAsync($"/databases/{db}/queries",
            FolioApi.Json("""{"Query":"from index 'Users/ByAge' where Age = 3","WaitForNonStaleResults":true}""")))
            Assert.Equal(HttpStatusCode.OK, query.StatusCode);
        DatabaseRegistry registry = server.Server.Services.GetRequiredService<DatabaseRegistry>();
        Assert.True(registry.TryGet(db, out DatabaseEntry? entry));
        WeakReference[] parts = PartsOf(entry.Loaded!);

        // The other index may still be catching up, or the last request's lease not yet back: unloading waits for both.
        using var deadline = new CancellationTokenSource(TestTimeouts.Default);
        while (!registry.TryUnload(db))
        {
            if (deadline.IsCancellationRequested)
                Assert.Fail($"The database did not unload: {entry.Loaded?.WorkPending()}.");
            await Task.Delay(20, CancellationToken.None);
        }

        await entry.Unloaded.WaitAsync(TestTimeouts.Default);

        // The server's once-a-second metrics sample may hold the instance until its next tick, hence a wait, not one collection.
        while (Array.Exists(parts, part => part.IsAlive))
        {
            if (deadline.IsCancellationRequested)
                Assert.Fail($"Still reachable after the unload: {string.Join(", ", parts.Select(part => part.Target?.GetType().Name).OfType<string>())}.");
            GC.Collect();
            GC.WaitForPendingFinalizers();
            await Task.Delay(50, CancellationToken.None);
        }
    }

    // Not inlined, so that no strong reference to the instance outlives this frame in the test's own locals.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static WeakReference[] PartsOf(Database database)
    {
        var parts = new List<WeakReference> { new(database), new(database.Store), new(database.Store.Environment), new(database.Indexes) };
        foreach (var index in database.Indexes.All)
            parts.Add(new WeakReference(index));
        Assert.Equal(2, database.Indexes.All.Count);
        return [.. parts];
    }
}
