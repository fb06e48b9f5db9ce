using Folio.Indexing.Queries;
using Folio.Indexing.Queries.Iterators;
using Folio.Indexing.Search;
using Folio.Storage;
using Folio.Storage.Platform;

namespace Folio.Indexing.Tests.Search;

/// <summary>
/// Entry records in blocks of consecutive ids (<see cref="EntryStore"/>): the store against a model under random
/// adds and removes, and the entry count and the walk over all entries through the index.
/// </summary>
public class EntryStoreTests
{
    /// <summary>A record naming its id, of 8–44 bytes, or with <paramref name="large"/> 8–450 (a few fill a block) and now and then 3,000 (one alone is over a block's limit).</summary>
    private static byte[] RecordOf(long id, bool large) =>
        [.. BitConverter.GetBytes(id), .. new byte[!large ? id % 37 : id % 97 == 0 ? 3_000 : id * 7 % 443]];

    /// <summary>An entry key of one of the shapes real ids take: numbered, prefixed and numbered, now and then a GUID or as long as keys may be.</summary>
    private static byte[] KeyOf(long id) => System.Text.Encoding.UTF8.GetBytes((id % 7) switch
    {
        0 or 1 or 2 => id.ToString(System.Globalization.CultureInfo.InvariantCulture),
        3 or 4 => $"orders/{id + 100_000}-A",
        5 => id % 11 == 0 ? new string('k', SearchIndex.MaxKeyBytes - 20) + id : new Guid((int)id, 0, 0, new byte[8]).ToString(),
        _ => $"ü/{id / 3}",
    });

    /// <summary>Walks the stored blocks, checking each one's layout and limits, and returns every id they hold.</summary>
    private static List<long> StoredIds(Folio.Storage.Trees.Tree tree, bool large)
    {
        var ids = new List<long>();
        var closedEarly = false;
        long previousFirst = -1;
        var cursor = tree.CreateCursor();
        for (var more = cursor.First(); more; more = cursor.MoveNext())
        {
            var first = SearchIndex.EntryIdOf(cursor.Key);
            var mask = EntryStore.Mask(cursor.Value);
            Assert.NotEqual(0, mask);
            Assert.True(ids.Count == 0 || ids[^1] < first, $"block {first} overlaps the one before");
            if (System.Numerics.BitOperations.PopCount(mask) > 1)
                Assert.True(cursor.Value.Length <= EntryStore.MaxBlockBytes, $"block {first} has {cursor.Value.Length} bytes");
            if (previousFirst >= 0 && first < previousFirst + EntryStore.BlockSpan)
                closedEarly = true;
            previousFirst = first;
            for (var slot = 0; slot < EntryStore.BlockSpan; slot++)
            {
                if ((mask & (1 << slot)) != 0)
                    ids.Add(first + slot);
            }
        }
        Span<byte> key = stackalloc byte[SearchIndex.MaxEntryKeySize];
        var entryKey = new byte[SearchIndex.MaxKeyBytes];
        foreach (var id in ids)
        {
            Assert.True(EntryStore.TryGet(tree.CreateCursor(), id, key, out var record));
            Assert.Equal(RecordOf(id, large), record.ToArray());
            Assert.True(EntryStore.TryGetKey(tree.CreateCursor(), id, key, entryKey, out var length));
            Assert.Equal(KeyOf(id), entryKey[..length]);
        }
        // Long records close blocks before their 16 ids, so blocks start within 16 ids of the one before.
        Assert.Equal(large, closedEarly);
        return ids;
    }

    [Theory]
    [InlineData(1, false)]
    [InlineData(2, false)]
    [InlineData(3, true)]
    [InlineData(4, true)]
    public void AddAndRemove_MatchAModel_AcrossTransactions(int seed, bool large)
    {
        var random = new Random(seed);
        using var environment = StorageEnvironment.Open(StorageOptions.InMemory() with { FileSystem = new MemoryFileSystem() });
        var model = new SortedSet<long>();
        long nextId = 0;
        for (var round = 0; round < 30; round++)
        {
            using var tx = environment.BeginWrite();
            var store = new EntryStore(tx.CreateTree("entries"));
            var adds = random.Next(0, round % 3 == 0 ? 3_000 : 200);
            for (var i = 0; i < adds; i++)
            {
                nextId += random.Next(8) == 0 ? random.Next(1, 40) : 1;
                store.Add(nextId, KeyOf(nextId), RecordOf(nextId, large));
                model.Add(nextId);
                // As a batch replaces entries: removals anywhere, the newest ones included, between adds.
                if (random.Next(6) == 0 && model.Count > 0)
                {
                    var victim = random.Next(2) == 0 ? model.Max : model.ElementAt(random.Next(model.Count));
                    Assert.True(store.Remove(victim));
                    Assert.False(store.TryGet(victim, out _));
                    model.Remove(victim);
                }
            }
            foreach (var id in model.Where(_ => random.Next(4) == 0).ToList())
            {
                Assert.True(store.Remove(id));
                Assert.False(store.TryGet(id, out _));
                model.Remove(id);
            }
            Assert.False(store.Remove(nextId + 1));
            foreach (var id in model.Where(_ => random.Next(20) == 0))
            {
                Assert.True(store.TryGet(id, out var pending));
                Assert.Equal(RecordOf(id, large), pending.ToArray());
            }
            store.Flush();
            tx.Commit();
        }

        using var read = environment.BeginRead();
        var tree = read.OpenTree("entries")!;
        Span<byte> key = stackalloc byte[SearchIndex.MaxEntryKeySize];
        for (long id = 0; id <= nextId + EntryStore.BlockSpan; id++)
            Assert.Equal(model.Contains(id), EntryStore.TryGet(tree.CreateCursor(), id, key, out _));
        Assert.Equal(model.ToList(), StoredIds(tree, large));

        // The walk over every entry: whole, and by Advance to random targets from random places.
        Assert.Equal(model.ToList(), Drain(new EntriesIterator(tree.CreateCursor(), model.Count)));
        var ids = model.ToList();
        for (var round = 0; round < 500; round++)
        {
            var iterator = new EntriesIterator(tree.CreateCursor(), model.Count);
            var steps = random.Next(0, Math.Min(ids.Count, 200));
            for (var s = 0; s < steps; s++)
                Assert.True(iterator.MoveNext());
            var target = (steps == 0 ? 0 : iterator.Current + 1) + random.Next(0, 100);
            var expected = model.GetViewBetween(target, long.MaxValue).Cast<long?>().FirstOrDefault();
            Assert.Equal(expected is not null, iterator.Advance(target));
            Assert.Equal(expected ?? DocIdIterator.NoMoreIds, iterator.Current);
        }
    }

    [Fact]
    public void Add_Throws_ForAnIdNotAboveItsBlocksEntries()
    {
        using var environment = StorageEnvironment.Open(StorageOptions.InMemory());
        using var tx = environment.BeginWrite();
        var store = new EntryStore(tx.CreateTree("entries"));
        store.Add(5, "a"u8, [1]);
        Assert.Throws<InvalidOperationException>(() => store.Add(3, "b"u8, [2]));
        Assert.Throws<InvalidOperationException>(() => store.Add(5, "b"u8, [2]));
        store.Add(16, "c"u8, [3]);
    }

    /// <summary>Twelve distinct words per entry: records of about 30 bytes, or with <paramref name="long"/> 200 words and some 400, so blocks close at their byte limit after a few entries.</summary>
    private static string Text(int i, bool @long) =>
        string.Join(' ', Enumerable.Range(0, @long ? 200 : 12).Select(w => $"w{(i * 31 + w * 7) % 1000}"));

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void AllEntries_WalksAndAdvancesOverBlocksWithGaps_AndEntryCountFollows(bool longRecords)
    {
        var options = StorageOptions.InMemory() with { FileSystem = new MemoryFileSystem() };
        var schema = new IndexSchema().Add("Tag", FieldKind.Exact).Add("Body", FieldKind.FullText);
        var live = new SortedSet<long>();
        using (var index = SearchIndex.Open(options, schema))
        {
            using (var batch = index.BeginBatch())
            {
                for (var i = 0; i < 400; i++)
                    batch.Add(new IndexEntry($"k{i}").Add("Tag", $"t{i % 5}").Add("Body", Text(i, longRecords)));
                batch.Commit();
            }
            using (var batch = index.BeginBatch())
            {
                // Every third entry, and ids 80–95 and 144–207 (whole blocks when records are short), go; k7 is replaced (new id 400).
                for (var i = 0; i < 400; i++)
                {
                    if (i % 3 == 0 || i / EntryStore.BlockSpan is 5 or (>= 9 and <= 12))
                        Assert.True(batch.Delete($"k{i}"));
                }
                batch.Add(new IndexEntry("k7").Add("Tag", "t2").Add("Body", Text(7, longRecords)));
                batch.Commit();
            }
            for (var i = 0; i < 400; i++)
            {
                if (!(i % 3 == 0 || i / EntryStore.BlockSpan is 5 or (>= 9 and <= 12)) && i != 7)
                    live.Add(i);
            }
            live.Add(400);
        }

        using var reopened = SearchIndex.Open(options, schema);
        using var searcher = reopened.OpenSearcher();
        Assert.Equal(live.Count, searcher.EntryCount);
        Assert.Equal(live.Count, searcher.Count(new MatchAllQuery()));
        Assert.Equal(live.ToList(), Drain(searcher.Iterate(new MatchAllQuery())));

        // From any position, Advance lands on the first live id at or after its target: within the current
        // block, into or over the emptied ranges, onto the last block, and past the end.
        var random = new Random(7);
        var starts = live.ToList();
        for (var round = 0; round < 600; round++)
        {
            var iterator = searcher.Iterate(new MatchAllQuery());
            var steps = random.Next(0, starts.Count);
            for (var s = 0; s < steps; s++)
                Assert.True(iterator.MoveNext());
            var current = steps == 0 ? -1 : iterator.Current;
            var target = round < 7 ? new long[] { 80, 150, 160, 170, 400, 401, 1 }[round] : current + 1 + random.Next(0, 80);
            if (target <= current)
                continue;
            var expected = live.GetViewBetween(target, long.MaxValue).Cast<long?>().FirstOrDefault();
            Assert.Equal(expected is not null, iterator.Advance(target));
            Assert.Equal(expected ?? DocIdIterator.NoMoreIds, iterator.Current);
            if (expected is not null && iterator.MoveNext())
                Assert.Equal(live.GetViewBetween(expected.Value + 1, long.MaxValue).First(), iterator.Current);
        }
    }

    private static List<long> Drain(DocIdIterator iterator)
    {
        var ids = new List<long>();
        while (iterator.MoveNext())
            ids.Add(iterator.Current);
        return ids;
    }

    [Theory]
    [InlineData(new byte[] { 1, 0, 0x11, (byte)'a', 0 })]           // shares a byte with no key before it
    [InlineData(new byte[] { 1, 0, 0x05, (byte)'a', 0 })]           // five key bytes where two are left
    [InlineData(new byte[] { 1, 0, 0x00, 0 })]                      // a key of no bytes
    [InlineData(new byte[] { 1, 0, 0x01, (byte)'a' })]              // no record length
    [InlineData(new byte[] { 1, 0, 0x01, (byte)'a', 3, 1 })]        // a record of three bytes where one is left
    [InlineData(new byte[] { 3, 0, 0x01, (byte)'a', 0, 0x20, 0 })]  // a second record that shares more than the first key has
    [InlineData(new byte[] { 1, 0, 0xF0, 0x80 })]                   // a length cut off
    [InlineData(new byte[] { 1, 0, 0x01, (byte)'a', 0x80 })]        // a record length cut off
    [InlineData(new byte[] { 1, 0, 0xF7, 0, 1, (byte)'a', 0 })]     // a head no key has
    public void TryGet_ThrowsCorruption_ForABrokenBlock(byte[] block)
    {
        using var environment = StorageEnvironment.Open(StorageOptions.InMemory());
        using var tx = environment.BeginWrite();
        var tree = tx.CreateTree("entries");
        tree.Put(SearchIndex.EntryKey(0, new byte[SearchIndex.MaxEntryKeySize]), block);
        var seek = new byte[SearchIndex.MaxEntryKeySize];
        var last = System.Numerics.BitOperations.Log2(BitConverter.ToUInt16(block, 0));
        Assert.Throws<CorruptionException>(() => EntryStore.TryGetKey(tree.CreateCursor(), last, seek, new byte[SearchIndex.MaxKeyBytes], out _));
    }

    [Fact]
    public void Add_StoresAKeyAsWhatItAddsToTheOneBefore_AcrossBatches()
    {
        using var environment = StorageEnvironment.Open(StorageOptions.InMemory());
        // One record per batch, so each batch loads the block (and its last key) the one before wrote.
        for (var id = 0; id < EntryStore.BlockSpan; id++)
        {
            using var tx = environment.BeginWrite();
            var store = new EntryStore(tx.CreateTree("entries"));
            store.Add(id, System.Text.Encoding.UTF8.GetBytes($"orders/{1040 + id}"), [7]);
            if (id == 9)
            {
                // A removal in the middle codes the next key against the one before the removed one.
                Assert.True(store.Remove(8));
            }
            store.Flush();
            tx.Commit();
        }
        using var read = environment.BeginRead();
        var tree = read.OpenTree("entries")!;
        var cursor = tree.CreateCursor();
        Assert.True(cursor.First());
        // Mask, then 15 records: the first key whole (a byte of lengths and 11), the others a byte of lengths and 1 or 2, each with 2 bytes of rest.
        Assert.InRange(cursor.Value.Length, 2 + 12 + 2 + 14 * (2 + 2), 2 + 12 + 2 + 14 * (3 + 2));
        var key = new byte[SearchIndex.MaxKeyBytes];
        var seek = new byte[SearchIndex.MaxEntryKeySize];
        for (var id = 0; id < EntryStore.BlockSpan; id++)
        {
            Assert.Equal(id != 8, EntryStore.TryGetKey(tree.CreateCursor(), id, seek, key, out var length));
            if (id != 8)
                Assert.Equal($"orders/{1040 + id}", System.Text.Encoding.UTF8.GetString(key, 0, length));
        }
    }
}
