using System.Text;
using Folio.Storage.Documents;

namespace Folio.Storage.Tests.Documents;

/// <summary>
/// The blocks of the collection etag index (<see cref="EtagBlock"/>): where a block ends, ids of every shape read back
/// through the shared-prefix coding, removals at a block's first, middle and last entry, starts and skips at every
/// position, and a block cut short read as a corruption.
/// </summary>
public sealed class EtagBlockTests
{
    [Theory]
    [InlineData(1, 1)]
    [InlineData(EtagBlock.MaxEntries, 1)]
    [InlineData(EtagBlock.MaxEntries + 1, 2)]
    [InlineData(10 * EtagBlock.MaxEntries, 10)]
    public async Task Put_ShortSequentialIds_FillsBlocksOfMaxEntries(int documents, long blocks)
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        var ids = new List<string>();
        for (var i = 0; i < documents; i++)
            ids.Add($"orders/{i}");
        await PutAsync(store, "Orders", ids);

        Assert.Equal(blocks, BlockCount(store));
        using var reader = store.OpenReader();
        Assert.Equal(ids, ListIds(reader.ByCollection("orders")));
    }

    [Fact]
    public async Task Put_LongIds_StartsABlockBeforeItPassesMaxBytes()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        var ids = new List<string>();
        for (var i = 0; i < 100; i++)
            ids.Add($"{Guid.NewGuid()}/{new string('x', 100)}");
        await PutAsync(store, "Things", ids);

        using (var tx = store.Environment.BeginRead())
        {
            var cursor = tx.OpenTree(DocumentStore.CollectionDocsTree)!.CreateCursor();
            for (var more = cursor.First(); more; more = cursor.MoveNext())
                Assert.InRange(cursor.Value.Length, 1, EtagBlock.MaxBytes);
        }
        Assert.True(BlockCount(store) >= 100 * 140 / EtagBlock.MaxBytes);
        using var reader = store.OpenReader();
        Assert.Equal(ids, ListIds(reader.ByCollection("things")));
    }

    [Fact]
    public async Task Put_IdsOfEveryShape_ListsThemBackWithTheirCasing()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        var ids = new List<string> { "a", "orders/1", "orders/10", "orders/2", "orders/17-A", "Orders/17-B", "ÖRDERS/ü", "orders/1", "x" };
        for (var i = 0; i < 40; i++)
            ids.Add(Guid.NewGuid().ToString());
        ids.Add(new string('z', DocumentIds.MaxIdBytes));
        ids.Add(new string('z', DocumentIds.MaxIdBytes - 1) + "y");
        ids.Add("z");
        await PutAsync(store, "Mixed", ids);

        // "orders/1" was written twice: its first entry went with the update.
        var expected = ids.Where((id, i) => i != 1).ToList();
        using var reader = store.OpenReader();
        Assert.Equal(expected, ListIds(reader.ByCollection("mixed")));
    }

    [Fact]
    public async Task Delete_FirstMiddleLastAndEveryEntryOfABlock_ListsTheRestAndDropsTheEmptyBlock()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        var ids = new List<string>();
        for (var i = 0; i < 3 * EtagBlock.MaxEntries; i++)
            ids.Add($"orders/{i}");
        await PutAsync(store, "Orders", ids);

        var deleted = new List<string> { "orders/0", "orders/30", $"orders/{EtagBlock.MaxEntries - 1}", $"orders/{EtagBlock.MaxEntries}" };
        for (var i = 2 * EtagBlock.MaxEntries; i < 3 * EtagBlock.MaxEntries; i++)
            deleted.Add($"orders/{i}");
        var commands = deleted.Select(id => new DocumentCommand(DocumentCommandType.Delete, id, null, null)).ToList();
        await store.BatchAsync(commands);

        Assert.Equal(2, BlockCount(store));
        var expected = ids.Except(deleted).ToList();
        using var reader = store.OpenReader();
        Assert.Equal(expected, ListIds(reader.ByCollection("orders")));
        // A block whose first entry went keeps its key: starts before and after what is left of it still find it.
        Assert.Equal(expected, ListIds(reader.ByCollection("orders", 1)));
        Assert.Equal(expected.Skip(1).ToList(), ListIds(reader.ByCollection("orders", 2)));

        await PutAsync(store, "Orders", ["orders/new"]);
        using var after = store.OpenReader();
        Assert.Equal([.. expected, "orders/new"], ListIds(after.ByCollection("orders")));
    }

    [Fact]
    public async Task Batch_ReplacingOlderDocumentsBetweenNewOnes_ListsEachOnceInEtagOrder()
    {
        // Replacing a document rewrites an older block while the batch appends to the last one, which the writer keeps
        // decoded between appends.
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        var ids = new List<string>();
        for (var i = 0; i < 3 * EtagBlock.MaxEntries; i++)
            ids.Add($"orders/{i}");
        await PutAsync(store, "Orders", ids);
        var batch = new List<string>();
        var random = new Random(5);
        for (var i = 0; i < 200; i++)
            batch.Add(random.Next(3) == 0 ? $"orders/new-{i}" : $"orders/{random.Next(ids.Count + i)}");
        await PutAsync(store, "Orders", batch);

        var expected = ids.Concat(batch).Select((id, i) => (id, i)).GroupBy(p => p.id).Select(g => (Id: g.Key, Last: g.Max(p => p.i)))
            .OrderBy(p => p.Last).Select(p => p.Id).ToList();
        using var reader = store.OpenReader();
        Assert.Equal(expected, ListIds(reader.ByCollection("orders")));
        Assert.Equal(expected, ListIds(reader.ByEtag()));
    }

    [Fact]
    public async Task ByCollection_AfterEveryEtag_ListsWhatFollows()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        var ids = new List<string>();
        for (var i = 0; i < 2 * EtagBlock.MaxEntries + 5; i++)
            ids.Add($"a/{i}");
        // Another collection's writes in between leave gaps in a's etags, inside blocks and between them.
        await PutAsync(store, "A", ids.Take(70).ToList());
        await PutAsync(store, "B", ["b/1", "b/2"]);
        await PutAsync(store, "A", ids.Skip(70).ToList());

        using var reader = store.OpenReader();
        var all = List(reader.ByCollection("a"));
        for (var after = 0L; after <= reader.LastEtag + 1; after++)
            Assert.Equal(all.Where(d => d.Etag > after).ToList(), List(reader.ByCollection("a", after)));
    }

    [Fact]
    public async Task Skip_EveryCountAcrossBlocks_EndsWhereSteppingEnds()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        // Runs of one collection, long and short, so the other collection's writes cut blocks into stretches of every
        // length and a merged skip meets the next stream's etag inside a block, at its edges and between blocks.
        int[] lengths = [50, 3, 1, 17, 64, 2, 9, 130, 1, 1, 40];
        for (var run = 0; run < 3 * lengths.Length; run++)
        {
            var ids = new List<string>();
            for (var i = 0; i < lengths[run % lengths.Length]; i++)
                ids.Add($"{(run % 2 == 0 ? "a" : "b")}/{run}-{i}");
            await PutAsync(store, run % 2 == 0 ? "A" : "B", ids);
        }
        await store.DeleteAsync("a/0-10");
        await store.DeleteAsync("a/2-0");

        using var reader = store.OpenReader();
        var collection = List(reader.ByCollection("a"));
        var all = List(reader.ByEtag());
        for (var count = 0; count <= all.Count + 1; count++)
        {
            var inCollection = reader.ByCollection("a");
            Assert.Equal(Math.Min(count, collection.Count), inCollection.Skip(count));
            if (count > 0 && count <= collection.Count)
                Assert.Equal(collection[count - 1], (inCollection.Current.IdString, inCollection.Current.Etag));
            Assert.Equal(collection.Skip(count).ToList(), List(inCollection));
            var merged = reader.ByEtag();
            Assert.Equal(Math.Min(count, all.Count), merged.Skip(count));
            if (count > 0 && count <= all.Count)
                Assert.Equal(all[count - 1], (merged.Current.IdString, merged.Current.Etag));
            Assert.Equal(all.Skip(count).ToList(), List(merged));
        }
    }

    [Fact]
    public void ReadEntry_BlockCutAtEveryLength_ThrowsCorruption()
    {
        var block = new byte[EtagBlock.MaxBytes];
        var offset = 1;
        offset = EtagBlock.WriteEntry(block, offset, 0, [], "orders/1"u8);
        offset = EtagBlock.WriteEntry(block, offset, 300, "orders/1"u8, "orders/12"u8);
        offset = EtagBlock.WriteEntry(block, offset, 1, "orders/12"u8, "other"u8);
        block[0] = 3;
        Assert.Equal(["orders/1", "orders/12", "other"], ReadAll(block.AsSpan(0, offset), out var last));
        Assert.Equal(301 + 100, last);
        Assert.Equal(last, EtagBlock.LastEtag(block.AsSpan(0, offset), 100));

        for (var length = 0; length < offset; length++)
        {
            var cut = block.AsSpan(0, length).ToArray();
            Assert.Throws<CorruptionException>(() => ReadAll(cut, out _));
            Assert.Throws<CorruptionException>(() => EtagBlock.LastEtag(cut, 100));
        }
    }

    private static List<string> ReadAll(ReadOnlySpan<byte> block, out long etag)
    {
        var ids = new List<string>();
        var id = new byte[DocumentIds.MaxKeyBytes];
        var idLength = 0;
        etag = 100;
        var offset = 1;
        var count = EtagBlock.Count(block);
        for (var i = 0; i < count; i++)
        {
            offset = EtagBlock.ReadEntry(block, offset, ref etag, ref id, ref idLength);
            ids.Add(Encoding.UTF8.GetString(id, 0, idLength));
        }
        return ids;
    }

    private static async Task PutAsync(DocumentStore store, string collection, List<string> ids)
    {
        var commands = new List<DocumentCommand>();
        foreach (var id in ids)
        {
            var json = $"{{\"v\":1,\"@metadata\":{{\"@collection\":\"{collection}\"}}}}";
            commands.Add(new DocumentCommand(DocumentCommandType.Put, id, PreparedDocument.Parse(Encoding.UTF8.GetBytes(json)), null));
        }
        await store.BatchAsync(commands);
    }

    private static long BlockCount(DocumentStore store)
    {
        using var tx = store.Environment.BeginRead();
        return tx.OpenTree(DocumentStore.CollectionDocsTree)!.Count;
    }

    private static List<string> ListIds(DocumentCursor cursor) => List(cursor).Select(d => d.Id).ToList();

    private static List<(string Id, long Etag)> List(DocumentCursor cursor)
    {
        var listed = new List<(string, long)>();
        while (cursor.MoveNext())
            listed.Add((cursor.Current.IdString, cursor.Current.Etag));
        return listed;
    }
}
