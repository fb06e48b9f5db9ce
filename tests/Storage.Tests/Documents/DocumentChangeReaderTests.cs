using System.Text;
using Folio.Storage.Documents;

namespace Folio.Storage.Tests.Documents;

public class DocumentChangeReaderTests
{
    private static PreparedDocument Json(string json) => PreparedDocument.Parse(Encoding.UTF8.GetBytes(json));

    private static Task<WriteResult> Put(DocumentStore store, string id, string json = "{}") => store.PutAsync(id, Json(json));

    /// <summary>A change as the reader saw it: (etag, kind, lower-cased id, collection).</summary>
    private static (long Etag, DocumentChangeKind Kind, string Id, string Collection) Seen(DocumentChangeReader changes)
    {
        if (changes.Kind == DocumentChangeKind.Put)
        {
            var document = changes.Document;
            return (changes.Etag, DocumentChangeKind.Put, document.IdString.ToLowerInvariant(), document.CollectionString);
        }
        var tombstone = changes.Tombstone;
        return (changes.Etag, DocumentChangeKind.Delete, tombstone.Id, tombstone.Collection);
    }

    private static List<(long Etag, DocumentChangeKind Kind, string Id, string Collection)> ReadAll(DocumentChangeReader changes)
    {
        var seen = new List<(long, DocumentChangeKind, string, string)>();
        while (changes.MoveNext())
            seen.Add(Seen(changes));
        return seen;
    }

    [Fact]
    public async Task ChangesAfter_AllCollections_ReturnsDocumentsAndTombstonesInEtagOrder()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        await Put(store, "orders/1");
        await Put(store, "users/1");
        await Put(store, "orders/2");
        await store.DeleteAsync("orders/1");
        await Put(store, "users/1", """{"v":2}""");

        using var reader = store.OpenReader();
        var changes = reader.ChangesAfter(0);
        var seen = ReadAll(changes);

        Assert.Equal(
            [(3, DocumentChangeKind.Put, "orders/2", "orders"), (4, DocumentChangeKind.Delete, "orders/1", "orders"), (5, DocumentChangeKind.Put, "users/1", "users")],
            seen);
        Assert.Equal(5, changes.UpToEtag);
        Assert.False(changes.ReachedBound);
    }

    [Fact]
    public async Task ChangesAfter_AnEtag_StartsAfterIt()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        for (var i = 1; i <= 5; i++)
            await Put(store, $"orders/{i}");

        using var reader = store.OpenReader();
        var seen = ReadAll(reader.ChangesAfter(3));

        Assert.Equal([4L, 5L], seen.ConvertAll(change => change.Etag));
    }

    [Fact]
    public async Task ChangesAfter_Collections_ReturnsOnlyTheirChanges_NamedInAnyCaseAndOnce()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        await Put(store, "orders/1");
        await Put(store, "users/1");
        await Put(store, "companies/1");
        await Put(store, "orders/2");
        await store.DeleteAsync("users/1");
        await store.DeleteAsync("companies/1");

        using var reader = store.OpenReader();
        var changes = reader.ChangesAfter(0, ["Orders", "USERS", "orders"]);
        var seen = ReadAll(changes);

        Assert.Equal(
            [(1, DocumentChangeKind.Put, "orders/1", "orders"), (4, DocumentChangeKind.Put, "orders/2", "orders"), (5, DocumentChangeKind.Delete, "users/1", "users")],
            seen);
        Assert.Equal(6, changes.UpToEtag);
    }

    [Fact]
    public async Task ChangesAfter_DocumentMovedToAnotherCollection_LeavesATombstoneInTheOldOne()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        await Put(store, "things/1", """{"@metadata":{"@collection":"Apples"}}""");
        await Put(store, "Things/1", """{"@metadata":{"@collection":"Pears"}}""");

        using var reader = store.OpenReader();

        Assert.Equal([(2, DocumentChangeKind.Delete, "things/1", "Apples")], ReadAll(reader.ChangesAfter(0, ["apples"])));
        Assert.Equal([(3, DocumentChangeKind.Put, "things/1", "Pears")], ReadAll(reader.ChangesAfter(0, ["pears"])));
        Assert.Equal([2L, 3L], ReadAll(reader.ChangesAfter(0, ["Apples", "Pears"])).ConvertAll(change => change.Etag));
    }

    [Fact]
    public async Task MoveNext_CountBound_StopsJustBeforeTheFirstChangeLeftOut()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        for (var i = 1; i <= 4; i++)
        {
            await Put(store, $"orders/{i}");
            await Put(store, $"users/{i}");
        }

        using var reader = store.OpenReader();
        var changes = reader.ChangesAfter(0, ["orders"], maxChanges: 2);
        var seen = ReadAll(changes);

        Assert.Equal([1L, 3L], seen.ConvertAll(change => change.Etag));
        Assert.True(changes.ReachedBound);
        // Etag 4 (users/2) is no change of ours, so the read is complete through the etag before orders/3.
        Assert.Equal(4, changes.UpToEtag);
        Assert.Equal([5L, 7L], ReadAll(reader.ChangesAfter(changes.UpToEtag, ["orders"])).ConvertAll(change => change.Etag));
    }

    [Fact]
    public async Task MoveNext_ByteBound_StopsOnceTheDocumentsReadReachedIt()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        var body = $$"""{"Text":"{{new string('x', 1000)}}"}""";
        for (var i = 1; i <= 5; i++)
            await Put(store, $"notes/{i}", body);

        using var reader = store.OpenReader();
        var changes = reader.ChangesAfter(0, maxBytes: 2_500);
        var seen = ReadAll(changes);

        // Each document is over 1,000 bytes: the third starts before 2,500 bytes were read, the fourth after.
        Assert.Equal([1L, 2L, 3L], seen.ConvertAll(change => change.Etag));
        Assert.True(changes.Bytes >= 2_500);
        Assert.Equal(3, changes.UpToEtag);
    }

    [Fact]
    public async Task MoveNext_ByteBound_CountsDocumentsTheCallerDidNotRead()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        var body = $$"""{"Text":"{{new string('x', 1000)}}"}""";
        for (var i = 1; i <= 5; i++)
            await Put(store, $"notes/{i}", body);

        using var reader = store.OpenReader();
        var changes = reader.ChangesAfter(0, maxBytes: 2_500);
        var count = 0;
        while (changes.MoveNext())
            count++;

        Assert.Equal(3, count);
        Assert.Equal(3, changes.UpToEtag);
    }

    [Fact]
    public async Task MoveNext_BoundAcrossCollections_ReturnsExactlyTheChangesUpToEtag_AndResumesWithoutGapsOrRepeats()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        var random = new Random(42);
        string[] collections = ["alpha", "beta", "gamma"];
        for (var i = 0; i < 300; i++)
        {
            var id = $"{collections[random.Next(3)]}/{random.Next(60)}";
            if (random.Next(4) == 0)
                await store.DeleteAsync(id);
            else
                await Put(store, id);
        }
        string[] indexed = ["alpha", "gamma"];
        using var reader = store.OpenReader();
        var expected = ReadAll(reader.ChangesAfter(0, indexed));

        var pages = new List<(long Etag, DocumentChangeKind Kind, string Id, string Collection)>();
        long after = 0;
        while (true)
        {
            var changes = reader.ChangesAfter(after, indexed, maxChanges: 7);
            var page = ReadAll(changes);
            Assert.All(page, change => Assert.InRange(change.Etag, after + 1, changes.UpToEtag));
            pages.AddRange(page);
            if (!changes.ReachedBound)
                break;
            Assert.Equal(7, page.Count);
            after = changes.UpToEtag;
        }

        Assert.Equal(expected, pages);
        Assert.All(expected, change => Assert.Contains(change.Collection, indexed));
    }

    [Fact]
    public async Task MoveNext_ChangesRanOut_UpToEtagIsTheSnapshotsLastEtag()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        await Put(store, "orders/1");
        await Put(store, "users/1");
        await Put(store, "users/2");

        using var reader = store.OpenReader();
        var changes = reader.ChangesAfter(0, ["orders"], maxChanges: 1);
        Assert.True(changes.MoveNext());
        Assert.False(changes.MoveNext());

        Assert.False(changes.ReachedBound);
        Assert.Equal(3, changes.UpToEtag);
    }

    [Fact]
    public async Task ChangesAfter_ReadsItsSnapshot_NotLaterWrites()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        await Put(store, "orders/1");
        using var reader = store.OpenReader();
        await Put(store, "orders/2");

        var changes = reader.ChangesAfter(0);

        Assert.Single(ReadAll(changes));
        Assert.Equal(1, changes.UpToEtag);
    }

    [Fact]
    public async Task Document_OnADelete_Throws()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        await Put(store, "orders/1");
        await store.DeleteAsync("orders/1");

        using var reader = store.OpenReader();
        var changes = reader.ChangesAfter(0);
        Assert.True(changes.MoveNext());

        Assert.Equal(DocumentChangeKind.Delete, changes.Kind);
        Assert.Throws<InvalidOperationException>(() => changes.Document.Etag);
        Assert.Equal("orders/1", changes.Tombstone.Id);
    }
}
