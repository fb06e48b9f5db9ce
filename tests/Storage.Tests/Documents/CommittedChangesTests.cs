using System.Text;
using Folio.Storage.Documents;
using Folio.Storage.Tests.Support;

namespace Folio.Storage.Tests.Documents;

public class CommittedChangesTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(30);

    private static PreparedDocument Json(string json) => PreparedDocument.Parse(Encoding.UTF8.GetBytes(json));

    private static DocumentCommand PutCommand(string id, string json = "{}") => new(DocumentCommandType.Put, id, Json(json), null);

    private static DocumentCommand DeleteCommand(string id) => new(DocumentCommandType.Delete, id, null, null);

    [Fact]
    public async Task Put_PublishesTheCommit_WithItsIdCollectionAndEtag()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        var opened = store.LastChanges;

        var result = await store.PutAsync("Orders/1", Json("{}"));

        Assert.True(opened.Next.IsCompletedSuccessfully, "the commit was not published before the write completed");
        var commit = await opened.Next;
        Assert.Same(commit, store.LastChanges);
        Assert.Equal(0, commit.AfterEtag);
        Assert.Equal(result.Etag, commit.LastEtag);
        Assert.Equal(result.Etag, store.LastEtag);
        Assert.Equal([new DocumentChange(result.Etag, "Orders/1", "Orders", DocumentChangeKind.Put)], commit.Changes);
        Assert.Equal(["Orders"], commit.Collections);
        Assert.Equal(0, commit.DeleteCount);
        Assert.True(commit.ListsAll);
    }

    [Fact]
    public async Task BatchAsync_OneCommit_ListsPutsDeletesAndMovesInEtagOrder()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        await store.PutAsync("orders/1", Json("{}"));
        await store.PutAsync("things/1", Json("""{"@metadata":{"@collection":"Apples"}}"""));
        var before = store.LastChanges;

        await store.BatchAsync([PutCommand("users/1"), DeleteCommand("orders/1"), PutCommand("things/1", """{"@metadata":{"@collection":"Pears"}}"""), DeleteCommand("missing/1")]);

        var commit = await before.Next;
        Assert.Equal(2, commit.AfterEtag);
        Assert.Equal(6, commit.LastEtag);
        Assert.Equal(
            [
                new DocumentChange(3, "users/1", "users", DocumentChangeKind.Put),
                new DocumentChange(4, "orders/1", "orders", DocumentChangeKind.Delete),
                new DocumentChange(5, "things/1", "Apples", DocumentChangeKind.Delete),
                new DocumentChange(6, "things/1", "Pears", DocumentChangeKind.Put),
            ],
            commit.Changes);
        Assert.Equal(4, commit.Count);
        Assert.Equal(2, commit.DeleteCount);
        Assert.Equal(["users", "orders", "Apples", "Pears"], commit.Collections);
    }

    [Fact]
    public async Task BatchAsync_NothingChanged_PublishesNothing()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        var before = store.LastChanges;

        await store.BatchAsync([DeleteCommand("missing/1")]);

        Assert.False(before.Next.IsCompleted);
        Assert.Same(before, store.LastChanges);
    }

    [Fact]
    public async Task Writes_MergedIntoOneTransaction_PublishOneCommit()
    {
        // The merger closes a transaction after MergerMaxDuration; the gate's wait must not count against it.
        using var store = DocumentStore.Open(StorageOptions.InMemory() with { MergerMaxDuration = TimeSpan.FromMinutes(1) });
        var before = store.LastChanges;
        using var gate = new ManualResetEventSlim(false);
        // Holds the merger inside a transaction, so the writes queued meanwhile join it.
        var blocker = store.Environment.Merger.EnqueueAsync(_ => gate.Wait());
        var writes = new[] { store.PutAsync("orders/1", Json("{}")), store.PutAsync("users/1", Json("{}")), store.PutAsync("orders/2", Json("{}")) };
        gate.Set();
        await blocker;
        await Task.WhenAll(writes);

        var commit = await before.Next;
        Assert.Same(commit, store.LastChanges);
        Assert.Equal(3, commit.Count);
        Assert.Equal([1L, 2L, 3L], commit.Changes.Select(change => change.Etag));
        Assert.Equal(["orders", "users"], commit.Collections);
    }

    [Fact]
    public async Task FailedOperation_InAMergedTransaction_IsNotPublished()
    {
        // The merger closes a transaction after MergerMaxDuration; the gate's wait must not count against it.
        using var store = DocumentStore.Open(StorageOptions.InMemory() with { MergerMaxDuration = TimeSpan.FromMinutes(1) });
        await store.PutAsync("orders/1", Json("{}"));
        var before = store.LastChanges;
        using var gate = new ManualResetEventSlim(false);
        var blocker = store.Environment.Merger.EnqueueAsync(_ => gate.Wait());
        var first = store.PutAsync("users/1", Json("{}"));
        var stale = store.PutAsync("orders/1", Json("{}"), expectedChangeVector: "A:99-" + store.DatabaseId);
        var last = store.PutAsync("users/2", Json("{}"));
        gate.Set();
        await blocker;
        await first;
        await last;
        await Assert.ThrowsAsync<ConcurrencyException>(() => stale);

        var commit = await before.Next;
        Assert.Equal(["users/1", "users/2"], commit.Changes.Select(change => change.Id));
        Assert.Equal(["users"], commit.Collections);
        Assert.Equal(store.LastEtag, commit.LastEtag);
    }

    [Fact]
    public async Task Commits_LinkInCommitOrder_WithoutGapsOrRepeats()
    {
        using var dir = new TempDirectory("changes");
        using var store = DocumentStore.Open(StorageOptions.ForPath(dir.Path));
        var first = store.LastChanges;

        await Task.WhenAll(Enumerable.Range(0, 400).Select(i => Task.Run(() => store.PutAsync($"orders/{i}", Json("{}")))));

        var ids = new HashSet<string>();
        var commit = first;
        while (commit.LastEtag < store.LastEtag)
        {
            var next = await commit.Next.WaitAsync(Timeout);
            Assert.Equal(commit.LastEtag, next.AfterEtag);
            Assert.Equal(next.LastEtag - next.AfterEtag, next.Count);
            Assert.True(next.ListsAll);
            foreach (var change in next.Changes)
                Assert.True(ids.Add(change.Id), $"{change.Id} was published twice");
            commit = next;
        }
        Assert.Equal(400, ids.Count);
    }

    [Fact]
    public async Task LargeCommit_ListsTheFirstChanges_AndCountsThemAll()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        var before = store.LastChanges;
        var commands = new List<DocumentCommand>();
        for (var i = 0; i < CommittedChanges.MaxListed + 500; i++)
            commands.Add(PutCommand($"orders/{i}"));

        await store.BatchAsync(commands);

        var commit = await before.Next;
        Assert.Equal(CommittedChanges.MaxListed + 500, commit.Count);
        Assert.Equal(CommittedChanges.MaxListed, commit.Changes.Count);
        Assert.False(commit.ListsAll);
        Assert.Equal("orders/0", commit.Changes[0].Id);
        Assert.Equal(["orders"], commit.Collections);
    }

    [Fact]
    public async Task Touches_ComparesCollectionsIgnoringCase()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        await store.PutAsync("Orders/1", Json("{}"));

        var commit = store.LastChanges;

        Assert.True(commit.Touches(["users", "ORDERS"]));
        Assert.False(commit.Touches(["users"]));
    }

    [Fact]
    public async Task WaitForChangeAsync_ReturnsBeforeTheCommit_AndCompletesWithIt()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        await store.PutAsync("orders/1", Json("{}"));
        var seen = store.LastEtag;
        // Ten thousand waiters hold no thread each: every call returns at once with a pending task.
        var waiters = Enumerable.Range(0, 10_000).Select(_ => store.WaitForChangeAsync(seen)).ToArray();
        Assert.All(waiters, waiter => Assert.False(waiter.IsCompleted));

        var result = await store.PutAsync("users/1", Json("{}"));

        var woken = await Task.WhenAll(waiters).WaitAsync(Timeout);
        Assert.All(woken, commit => Assert.Equal(result.Etag, commit.LastEtag));
    }

    [Fact]
    public async Task WaitForChangeAsync_AfterAnOlderEtag_CompletesAtOnceWithTheLastCommit()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        await store.PutAsync("orders/1", Json("{}"));
        await store.PutAsync("orders/2", Json("{}"));

        var waiting = store.WaitForChangeAsync(1);

        Assert.True(waiting.IsCompletedSuccessfully);
        Assert.Same(store.LastChanges, await waiting);
    }

    [Fact]
    public async Task WaitForChangeAsync_Cancelled_Throws()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        using var cancel = new CancellationTokenSource();

        var waiting = store.WaitForChangeAsync(store.LastEtag, cancel.Token);
        await cancel.CancelAsync();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => waiting);
    }

    [Fact]
    public async Task LastChanges_AfterReopening_StartsAtTheStoredEtag()
    {
        using var dir = new TempDirectory("changes");
        using (var store = DocumentStore.Open(StorageOptions.ForPath(dir.Path)))
        {
            await store.PutAsync("orders/1", Json("{}"));
            await store.PutAsync("orders/2", Json("{}"));
        }

        using var reopened = DocumentStore.Open(StorageOptions.ForPath(dir.Path));
        var opened = reopened.LastChanges;

        Assert.Equal(2, opened.LastEtag);
        Assert.Equal(2, opened.AfterEtag);
        Assert.Equal(0, opened.Count);
        Assert.Empty(opened.Collections);
        Assert.False(opened.Next.IsCompleted);
    }
}
