using Folio.Client.Changes;
using Folio.Client.Tests.Support;

namespace Folio.Client.Tests.Changes;

[Collection(ServerCollection.Name)]
public class ChangesFeedTests(TestServer server)
{
    [Fact]
    public async Task ForAllDocuments_FromAnEtag_ReportsStoresAndDeletes_InEtagOrder()
    {
        using DocumentStore store = await Seed.OrdersAsync(server);
        await using (var session = store.OpenAsyncSession())
        {
            session.Delete("orders/2");
            await session.SaveChangesAsync();
        }
        using var timeout = new CancellationTokenSource(Wait.Timeout);
        var changes = new List<DocumentChange>();
        await foreach (DocumentChange change in store.Changes().ForAllDocumentsAsync(since: 0, timeout.Token))
        {
            changes.Add(change);
            if (change.ChangeType == "Delete")
                break;
        }
        Assert.Equal(changes.Select(c => c.Etag).Order(), changes.Select(c => c.Etag));
        Assert.Equal("orders/2", changes[^1].Id);
        Assert.Contains(changes, c => c.Id == "companies/1" && c.ChangeType == "Put" && c.Collection == "Companies");
    }

    [Fact]
    public async Task ForDocumentsInCollection_FromNow_ReportsOnlyLaterWritesOfThatCollection()
    {
        using DocumentStore store = await Seed.OrdersAsync(server);
        using var timeout = new CancellationTokenSource(Wait.Timeout);
        await using IAsyncEnumerator<DocumentChange> feed = store.Changes().ForDocumentsInCollectionAsync<Company>(cancellationToken: timeout.Token).GetAsyncEnumerator(timeout.Token);
        Task<bool> next = feed.MoveNextAsync().AsTask();
        // "Now" is the database's last etag when the feed starts, which happens inside the first MoveNextAsync; writes
        // before it are rightly not reported, so keep writing until the first one arrives.
        int written = 0;
        while (!next.IsCompleted)
        {
            await using var session = store.OpenAsyncSession();
            await session.StoreAsync(new Order { Employee = "x" });
            await session.StoreAsync(new Company { Id = "companies/n" + written++, Name = "New" });
            await session.SaveChangesAsync();
            await Task.WhenAny(next, Task.Delay(100, timeout.Token));
        }
        Assert.True(await next);
        Assert.Equal("Companies", feed.Current.Collection);
        Assert.StartsWith("companies/n", feed.Current.Id);
    }

    [Fact]
    public async Task ForIndexes_ReportsAnIndexCreated_AndTheBatchesItIndexes()
    {
        using DocumentStore store = await Seed.OrdersAsync(server);
        using var timeout = new CancellationTokenSource(Wait.Timeout);
        await using IAsyncEnumerator<IndexChange> feed = store.Changes().ForIndexesAsync(timeout.Token).GetAsyncEnumerator(timeout.Token);
        Task<bool> first = feed.MoveNextAsync().AsTask();
        // The watch is on once the server confirmed it; until the first change arrives, keep making some.
        int round = 0;
        while (!first.IsCompleted)
        {
            await store.Maintenance.PutIndexesAsync([new Client.Indexes.IndexDefinition
            {
                Name = "Orders/ByEmployee" + round++,
                Collections = ["Orders"],
                Fields = new Dictionary<string, Client.Indexes.IndexField> { ["Employee"] = new() },
            }]);
            await Task.WhenAny(first, Task.Delay(300, timeout.Token));
        }
        Assert.True(await first);
        Assert.StartsWith("Orders/ByEmployee", feed.Current.Name);
        Assert.Contains(feed.Current.ChangeType, new[] { "Created", "BatchCompleted" });
    }
}
