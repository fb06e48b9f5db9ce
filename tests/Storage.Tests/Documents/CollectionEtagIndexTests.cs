using System.Buffers.Binary;
using System.Text;
using Folio.Storage.Documents;
using Folio.Storage.Tests.Support;
using Folio.Storage.Trees;

namespace Folio.Storage.Tests.Documents;

/// <summary>
/// The one etag index of documents format 4 and 5 (collection number, then etag; in blocks since format 5): every
/// listing in etag order against a model of what was written, and the move of a format 3 store's two etag indexes and
/// of a format 4 store's entries into it on open.
/// </summary>
public sealed class CollectionEtagIndexTests
{
    private const int Collections = 300;

    [Fact]
    public async Task ByEtag_ThreeHundredCollectionsInterleaved_ListsEveryDocumentOnceInEtagOrder()
    {
        using var directory = new TempDirectory("collection-etags");
        using var store = DocumentStore.Open(StorageOptions.ForPath(directory.Path));
        var model = await WriteChurnAsync(store, new Random(27), 6_000);

        using var reader = store.OpenReader();
        Assert.Equal(Expected(model, collection: null, afterEtag: 0), List(reader.ByEtag()));
        var middle = reader.LastEtag / 2;
        Assert.Equal(Expected(model, null, middle), List(reader.ByEtag(middle)));
        foreach (var collection in new[] { "c0", "C7", "c127", "c128", "c200", "c299" })
        {
            Assert.Equal(Expected(model, collection, 0), List(reader.ByCollection(collection)));
            Assert.Equal(Expected(model, collection, middle), List(reader.ByCollection(collection, middle)));
        }
        Assert.Empty(List(reader.ByCollection("never-written")));
    }

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(777)]
    [InlineData(5_000)]
    [InlineData(100_000)]
    public async Task Skip_AcrossCollections_EndsWhereSteppingEnds(int count)
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        var model = await WriteChurnAsync(store, new Random(3), 3_000);
        var all = Expected(model, null, 0);

        using var reader = store.OpenReader();
        var skipping = reader.ByEtag();
        Assert.Equal(Math.Min(count, all.Count), skipping.Skip(count));
        var rest = List(skipping);
        Assert.Equal(all.Skip(count).ToList(), rest);
    }

    [Fact]
    public async Task Skip_CollectionsWrittenInRuns_EndsWhereSteppingEnds()
    {
        // Runs of one collection at a time, as bulk loads leave them: the merge skips within a run a leaf at a time
        // and must still stop exactly where stepping does, at every run's edges.
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        var runs = new (string Collection, int Count)[] { ("a", 3_000), ("b", 2_000), ("a", 1_000), ("c", 1), ("b", 2_500), ("c", 1_500) };
        var written = 0;
        foreach (var (collection, count) in runs)
        {
            var commands = new List<DocumentCommand>();
            for (var i = 0; i < count; i++)
                commands.Add(new DocumentCommand(DocumentCommandType.Put, $"{collection}/{written++}", Doc(collection, i), null));
            await store.BatchAsync(commands);
        }

        using var reader = store.OpenReader();
        var all = List(reader.ByEtag());
        Assert.Equal(written, all.Count);
        foreach (var count in new[] { 1, 2_999, 3_000, 3_001, 4_999, 5_000, 5_001, 6_000, 6_001, 6_002, 8_500, 9_999, 10_000, 10_001 })
        {
            var skipping = reader.ByEtag();
            Assert.Equal(Math.Min(count, all.Count), skipping.Skip(count));
            Assert.Equal(all.Skip(count).ToList(), List(skipping));
        }
        var middle = reader.ByEtag(all[4_000].Etag);
        Assert.Equal(2_500, middle.Skip(2_500));
        Assert.Equal(all[6_500], (middle.Current.IdString, middle.Current.Etag));
    }

    [Fact]
    public async Task ChangesAfter_AllCollections_MergesEveryCollectionAndTheTombstonesInEtagOrder()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        var random = new Random(11);
        var model = await WriteChurnAsync(store, random, 4_000);
        var deleted = new List<string>();
        foreach (var id in model.Keys.Where((_, i) => i % 9 == 0).ToList())
        {
            await store.DeleteAsync(id);
            model.Remove(id);
            deleted.Add(id);
        }

        using var reader = store.OpenReader();
        var changes = reader.ChangesAfter(0);
        var documents = new List<(string, long)>();
        var tombstones = new List<string>();
        long last = 0;
        while (changes.MoveNext())
        {
            Assert.True(changes.Etag > last, $"etag {changes.Etag} after {last}");
            last = changes.Etag;
            if (changes.Kind == DocumentChangeKind.Put)
                documents.Add((changes.Document.IdString.ToLowerInvariant(), changes.Etag));
            else
                tombstones.Add(changes.Tombstone.Id);
        }
        Assert.Equal(Expected(model, null, 0), documents);
        Assert.Subset(tombstones.ToHashSet(), deleted.ToHashSet());
        Assert.Equal(reader.LastEtag, changes.UpToEtag);
    }

    [Fact]
    public async Task Put_CollectionEmptiedAndRefilled_KeepsItsNumber()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        await store.PutAsync("a/1", Doc("A"));
        await store.PutAsync("b/1", Doc("B"));
        await store.DeleteAsync("a/1");
        await store.PutAsync("a/2", Doc("a"));
        await store.PutAsync("b/1", Doc("C"));

        using var tx = store.Environment.BeginRead();
        var numbers = tx.OpenTree(CollectionNumbers.Tree)!;
        Assert.Equal(3, numbers.Count);
        Assert.True(CollectionNumbers.TryGet(numbers, "a"u8, out var a));
        Assert.True(CollectionNumbers.TryGet(numbers, "c"u8, out var c));
        Assert.Equal(0u, a);
        Assert.Equal(2u, c);
        using var reader = store.OpenReader();
        Assert.Equal(["a/2"], List(reader.ByCollection("A")).Select(d => d.Id));
        Assert.Empty(List(reader.ByCollection("B")));
        Assert.Equal(["b/1"], List(reader.ByCollection("c")).Select(d => d.Id));
    }

    [Fact]
    public async Task Open_Format3Store_MovesItsTwoEtagIndexesIntoOneAndListsTheSame()
    {
        using var directory = new TempDirectory("collection-etags-format3");
        var model = await WriteOldFormatStoreAsync(directory.Path, 3, seed: 8, writes: 2_500, alter: null);

        using (var store = DocumentStore.Open(StorageOptions.ForPath(directory.Path)))
        {
            using (var tx = store.Environment.BeginRead())
            {
                Assert.Null(tx.OpenTree(Format3EtagIndexes.EtagsTree));
                Assert.Null(tx.OpenTree(Format3EtagIndexes.CollectionEtagsTree));
                Assert.True(tx.OpenTree("meta")!.TryGet("documents-format"u8, out var format));
                Assert.Equal(DocumentStore.DocumentsFormat, BinaryPrimitives.ReadInt32LittleEndian(format));
            }
            using (var reader = store.OpenReader())
            {
                Assert.Equal(Expected(model, null, 0), List(reader.ByEtag()));
                Assert.Equal(Expected(model, "c5", 0), List(reader.ByCollection("c5")));
            }
            var written = await store.PutAsync("c5/after", Doc("c5"));
            var fresh = await store.PutAsync("fresh/1", Doc("Fresh"));
            using var after = store.OpenReader();
            Assert.Equal(("c5/after", written.Etag), List(after.ByCollection("C5"))[^1]);
            Assert.Equal([("fresh/1", fresh.Etag)], List(after.ByCollection("fresh")));
            Assert.Equal(model.Count + 2, List(after.ByEtag()).Count);
        }
    }

    [Fact]
    public async Task Open_Format3StoreWhoseEtagIndexPointsNowhere_ThrowsCorruptionAndKeepsTheOldIndexes()
    {
        using var directory = new TempDirectory("collection-etags-dangling");
        await WriteOldFormatStoreAsync(directory.Path, 3, seed: 4, writes: 200, alter: (etags, _) => etags.Put(EtagKey(1_000_000), "nowhere/1"u8));

        AssertOpenFailsOnEtagAndKeepsTheOldFormat(directory.Path, 3, Format3EtagIndexes.EtagsTree);
    }

    [Fact]
    public async Task Open_Format3StoreWhoseEtagIndexMissesADocument_IndexesItFromTheDocumentsTree()
    {
        using var directory = new TempDirectory("collection-etags-missing");
        var model = await WriteOldFormatStoreAsync(directory.Path, 3, seed: 6, writes: 600, alter: (etags, written) =>
        {
            var (id, (etag, _)) = written.First();
            Assert.True(etags.Delete(EtagKey(etag)), $"no old entry for {id}");
        });

        using (var store = DocumentStore.Open(StorageOptions.ForPath(directory.Path)))
        {
            using var reader = store.OpenReader();
            Assert.Equal(Expected(model, null, 0), List(reader.ByEtag()));
            var (_, (_, collection)) = model.First();
            Assert.Equal(Expected(model, collection, 0), List(reader.ByCollection(collection)));
        }
    }

    [Fact]
    public async Task Open_Format4Store_MovesItsEntriesIntoBlocksAndListsTheSame()
    {
        using var directory = new TempDirectory("collection-etags-format4");
        var model = await WriteOldFormatStoreAsync(directory.Path, 4, seed: 9, writes: 4_000, alter: null);

        using var store = DocumentStore.Open(StorageOptions.ForPath(directory.Path));
        using (var tx = store.Environment.BeginRead())
        {
            Assert.Null(tx.OpenTree(Format4EtagIndex.Tree));
            Assert.True(tx.OpenTree("meta")!.TryGet("documents-format"u8, out var format));
            Assert.Equal(DocumentStore.DocumentsFormat, BinaryPrimitives.ReadInt32LittleEndian(format));
            Assert.True(tx.OpenTree(DocumentStore.CollectionDocsTree)!.Count < model.Count, "every document has an entry of its own, not a block's");
        }
        using (var reader = store.OpenReader())
        {
            Assert.Equal(Expected(model, null, 0), List(reader.ByEtag()));
            Assert.Equal(Expected(model, "c17", 0), List(reader.ByCollection("C17")));
        }
        var written = await store.PutAsync("c17/after", Doc("c17"));
        using var after = store.OpenReader();
        Assert.Equal(("c17/after", written.Etag), List(after.ByCollection("c17"))[^1]);
        Assert.Equal(model.Count + 1, List(after.ByEtag()).Count);
    }

    [Fact]
    public async Task Open_Format4StoreWhoseEntryPointsNowhere_ThrowsCorruptionAndKeepsTheOldIndex()
    {
        using var directory = new TempDirectory("collection-etags-dangling4");
        await WriteOldFormatStoreAsync(directory.Path, 4, seed: 5, writes: 200, alter: (index, _) =>
        {
            var cursor = index.CreateCursor();
            Assert.True(cursor.First());
            var key = cursor.Key.ToArray();
            BinaryPrimitives.WriteInt64BigEndian(key.AsSpan(key.Length - 8), 1_000_000);
            index.Put(key, "nowhere/1"u8);
        });

        AssertOpenFailsOnEtagAndKeepsTheOldFormat(directory.Path, 4, Format4EtagIndex.Tree);
    }

    [Fact]
    public async Task Open_Format4StoreWhoseIndexMissesADocument_IndexesItFromTheDocumentsTree()
    {
        using var directory = new TempDirectory("collection-etags-missing4");
        var model = await WriteOldFormatStoreAsync(directory.Path, 4, seed: 7, writes: 600, alter: (index, written) =>
        {
            var id = Encoding.UTF8.GetBytes(written.First().Key);
            var cursor = index.CreateCursor();
            for (var more = cursor.First(); more; more = cursor.MoveNext())
            {
                if (cursor.Value.SequenceEqual(id))
                {
                    Assert.True(index.Delete(cursor.Key.ToArray()));
                    return;
                }
            }
            Assert.Fail("no old entry for the first document");
        });

        using var store = DocumentStore.Open(StorageOptions.ForPath(directory.Path));
        using var reader = store.OpenReader();
        Assert.Equal(Expected(model, null, 0), List(reader.ByEtag()));
        var (_, (_, collection)) = model.First();
        Assert.Equal(Expected(model, collection, 0), List(reader.ByCollection(collection)));
    }

    /// <summary>The open of the store at <paramref name="path"/> is a corruption naming etag 1,000,000, and leaves the store in <paramref name="format"/> with its index.</summary>
    private static void AssertOpenFailsOnEtagAndKeepsTheOldFormat(string path, int format, string oldTree)
    {
        var error = Assert.Throws<CorruptionException>(() => DocumentStore.Open(StorageOptions.ForPath(path)));
        Assert.Contains("etag 1000000", error.Message);
        using var env = StorageEnvironment.Open(StorageOptions.ForPath(path));
        using var read = env.BeginRead();
        Assert.NotNull(read.OpenTree(oldTree));
        Assert.Null(read.OpenTree(DocumentStore.CollectionDocsTree));
        Assert.True(read.OpenTree("meta")!.TryGet("documents-format"u8, out var stored));
        Assert.Equal(format, BinaryPrimitives.ReadInt32LittleEndian(stored));
    }

    /// <summary>
    /// Writes a churn into a store at <paramref name="path"/>, lays it out as documents format <paramref name="format"/>
    /// (3 or 4), lets <paramref name="alter"/> change that format's etag tree (given the model) in a transaction of its
    /// own, and closes it; returns the model.
    /// </summary>
    private static async Task<Dictionary<string, (long Etag, string Collection)>> WriteOldFormatStoreAsync(string path, int format, int seed, int writes, Action<Tree, Dictionary<string, (long Etag, string Collection)>>? alter)
    {
        using var store = DocumentStore.Open(StorageOptions.ForPath(path));
        var model = await WriteChurnAsync(store, new Random(seed), writes);
        if (format == 3)
            Format3EtagIndexes.Write(store);
        else
            Format4EtagIndex.Write(store);
        if (alter is not null)
        {
            using var tx = store.Environment.BeginWrite();
            alter(tx.OpenTree(format == 3 ? Format3EtagIndexes.EtagsTree : Format4EtagIndex.Tree)!, model);
            tx.Commit();
        }
        return model;
    }

    private static PreparedDocument Doc(string collection, int value = 0) =>
        PreparedDocument.Parse(Encoding.UTF8.GetBytes($"{{\"v\":{value},\"@metadata\":{{\"@collection\":\"{collection}\"}}}}"));

    /// <summary>
    /// Puts, updates, deletes and moves between <see cref="Collections"/> collections (named c0..c299, cased at random),
    /// in batches; returns each live document's etag and lower-cased collection by lower-cased id.
    /// </summary>
    private static async Task<Dictionary<string, (long Etag, string Collection)>> WriteChurnAsync(DocumentStore store, Random random, int writes)
    {
        var model = new Dictionary<string, (long Etag, string Collection)>();
        var commands = new List<DocumentCommand>();
        for (var i = 0; i < writes; i++)
        {
            var id = $"d/{random.Next(writes / 2)}";
            if (model.ContainsKey(id) && random.Next(10) == 0)
            {
                commands.Add(new DocumentCommand(DocumentCommandType.Delete, id, null, null));
            }
            else
            {
                var collection = $"c{random.Next(Collections)}";
                var cased = random.Next(2) == 0 ? collection : collection.ToUpperInvariant();
                commands.Add(new DocumentCommand(DocumentCommandType.Put, id, Doc(cased, i), null));
            }
            if (commands.Count == 100 || i == writes - 1)
            {
                var results = await store.BatchAsync(commands);
                for (var k = 0; k < commands.Count; k++)
                {
                    if (commands[k].Type == DocumentCommandType.Delete)
                        model.Remove(commands[k].Id);
                    else
                        model[commands[k].Id] = (results[k]!.Etag, results[k]!.Collection.ToLowerInvariant());
                }
                commands.Clear();
            }
        }
        return model;
    }

    private static List<(string Id, long Etag)> Expected(Dictionary<string, (long Etag, string Collection)> model, string? collection, long afterEtag) =>
        model.Where(p => p.Value.Etag > afterEtag && (collection is null || p.Value.Collection == collection.ToLowerInvariant()))
            .OrderBy(p => p.Value.Etag).Select(p => (p.Key, p.Value.Etag)).ToList();

    private static List<(string Id, long Etag)> List(DocumentCursor cursor)
    {
        var listed = new List<(string, long)>();
        while (cursor.MoveNext())
            listed.Add((cursor.Current.IdString.ToLowerInvariant(), cursor.Current.Etag));
        return listed;
    }

    private static byte[] EtagKey(long etag)
    {
        var key = new byte[8];
        BinaryPrimitives.WriteInt64BigEndian(key, etag);
        return key;
    }
}
