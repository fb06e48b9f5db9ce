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
    private static byte[] RecordOf(long id) => [.. BitConverter.GetBytes(id), .. new byte[id % 37]];

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    public void AddAndRemove_MatchAModel_AcrossTransactionsAndManyOpenBlocks(int seed)
    {
        var random = new Random(seed);
        using var environment = StorageEnvironment.Open(StorageOptions.InMemory() with { FileSystem = new MemoryFileSystem() });
        var model = new SortedSet<long>();
        long nextId = 0;
        for (var round = 0; round < 30; round++)
        {
            using var tx = environment.BeginWrite();
            var store = new EntryStore(tx.CreateTree("entries"));
            // Some rounds add past 64 blocks, so the store writes blocks back before the commit.
            var adds = random.Next(0, round % 3 == 0 ? 3_000 : 200);
            for (var i = 0; i < adds; i++)
            {
                nextId += random.Next(8) == 0 ? random.Next(1, 40) : 1;
                store.Add(nextId, RecordOf(nextId));
                model.Add(nextId);
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
                Assert.Equal(RecordOf(id), pending.ToArray());
            }
            store.Flush();
            tx.Commit();
        }

        using var read = environment.BeginRead();
        var tree = read.OpenTree("entries")!;
        Span<byte> key = stackalloc byte[SearchIndex.MaxEntryKeySize];
        for (long id = 0; id <= nextId + EntryStore.BlockSize; id++)
        {
            Assert.Equal(model.Contains(id), EntryStore.TryGet(tree, id, key, out var record));
            if (model.Contains(id))
                Assert.Equal(RecordOf(id), record.ToArray());
        }
        // Blocks left empty are gone: one tree entry per block that still has a record.
        Assert.Equal(model.Select(EntryStore.BlockOf).Distinct().Count(), tree.Count);
    }

    [Fact]
    public void Add_Throws_ForAnIdNotAboveItsBlocksEntries()
    {
        using var environment = StorageEnvironment.Open(StorageOptions.InMemory());
        using var tx = environment.BeginWrite();
        var store = new EntryStore(tx.CreateTree("entries"));
        store.Add(5, [1]);
        Assert.Throws<InvalidOperationException>(() => store.Add(3, [2]));
        Assert.Throws<InvalidOperationException>(() => store.Add(5, [2]));
        store.Add(16, [3]);
    }

    [Fact]
    public void AllEntries_WalksAndAdvancesOverBlocksWithGaps_AndEntryCountFollows()
    {
        var options = StorageOptions.InMemory() with { FileSystem = new MemoryFileSystem() };
        var schema = new IndexSchema().Add("Tag", FieldKind.Exact);
        var live = new SortedSet<long>();
        using (var index = SearchIndex.Open(options, schema))
        {
            using (var batch = index.BeginBatch())
            {
                for (var i = 0; i < 400; i++)
                    batch.Add(new IndexEntry($"k{i}").Add("Tag", $"t{i % 5}"));
                batch.Commit();
            }
            using (var batch = index.BeginBatch())
            {
                // Every third entry, and whole blocks 5 and 9 (ids 80–95 and 144–159), go; k7 is replaced (new id 400).
                for (var i = 0; i < 400; i++)
                {
                    if (i % 3 == 0 || i / EntryStore.BlockSize is 5 or 9)
                        Assert.True(batch.Delete($"k{i}"));
                }
                batch.Add(new IndexEntry("k7").Add("Tag", "t2"));
                batch.Commit();
            }
            for (var i = 0; i < 400; i++)
            {
                if (!(i % 3 == 0 || i / EntryStore.BlockSize is 5 or 9) && i != 7)
                    live.Add(i);
            }
            live.Add(400);
        }

        using var reopened = SearchIndex.Open(options, schema);
        using var searcher = reopened.OpenSearcher();
        Assert.Equal(live.Count, searcher.EntryCount);
        Assert.Equal(live.Count, searcher.Count(new MatchAllQuery()));
        Assert.Equal(live.ToList(), Drain(searcher.Iterate(new MatchAllQuery())));

        // Advance from every position to every later target lands on the first live id at or after it.
        var random = new Random(7);
        for (var round = 0; round < 300; round++)
        {
            var iterator = searcher.Iterate(new MatchAllQuery());
            var steps = random.Next(0, 5);
            long current = -1;
            for (var s = 0; s < steps && iterator.MoveNext(); s++)
                current = iterator.Current;
            var target = current + 1 + random.Next(0, 60);
            var expected = live.GetViewBetween(target, long.MaxValue).Cast<long?>().FirstOrDefault();
            Assert.Equal(expected is not null, iterator.Advance(target));
            Assert.Equal(expected ?? DocIdIterator.NoMoreIds, iterator.Current);
        }
    }

    private static List<long> Drain(DocIdIterator iterator)
    {
        var ids = new List<long>();
        while (iterator.MoveNext())
            ids.Add(iterator.Current);
        return ids;
    }
}
