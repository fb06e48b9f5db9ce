using Folio.Indexing.Queries;
using Folio.Indexing.Search;
using Folio.Storage;
using Folio.Storage.Platform;
using Folio.Storage.Trees;

namespace Folio.Indexing.Tests.Search;

/// <summary>
/// Numeric fields' points (<see cref="PointStore"/>): the blocks checked against a sorted model after every
/// batch of random changes, and equality, ranges and churn through the index.
/// </summary>
public class PointStoreTests
{
    private static StorageOptions Storage() => StorageOptions.InMemory() with { FileSystem = new MemoryFileSystem() };

    /// <summary>Every stored point in order, checking each block's layout and the blocks' order on the way.</summary>
    private static List<Point> ReadAll(Tree tree)
    {
        var points = new List<Point>();
        var cursor = tree.CreateCursor();
        var more = cursor.First();
        while (more)
        {
            Assert.True(cursor.Value.Length <= PointStore.MaxBlockBytes, $"a block of {cursor.Value.Length} bytes");
            var block = new PointBlock.Reader(cursor.Key, cursor.Value);
            var first = true;
            while (block.MoveNext())
            {
                if (first)
                    Assert.Equal(PointBlock.ReadKey(cursor.Key), block.Current);
                if (points.Count > 0)
                    Assert.True(points[^1].IsBefore(block.Current), $"{points[^1]} then {block.Current}");
                points.Add(block.Current);
                first = false;
            }
            Assert.False(first, "an empty block");
            more = cursor.MoveNext();
        }
        return points;
    }

    private static void Apply(StorageEnvironment environment, IEnumerable<Point> additions, IEnumerable<Point> removals)
    {
        using var tx = environment.BeginWrite();
        var store = new PointStore(PointBlocks.Whole(tx.CreateTree("p")));
        store.Apply(additions.Order().ToArray(), removals.Order().ToArray());
        tx.Commit();
    }

    private static List<Point> Stored(StorageEnvironment environment)
    {
        using var tx = environment.BeginRead();
        return tx.OpenTree("p") is { } tree ? ReadAll(tree) : [];
    }

    [Theory]
    [InlineData(1, 1_000_000_000L)]
    [InlineData(2, 5L)]
    [InlineData(3, long.MaxValue)]
    public void Apply_RandomBatches_KeepsExactlyTheModelsPointsInValidBlocks(int seed, long valueRange)
    {
        using var environment = StorageEnvironment.Open(Storage());
        var random = new Random(seed);
        var model = new SortedSet<Point>();
        long nextId = 0;
        for (var batch = 0; batch < 60; batch++)
        {
            var additions = new HashSet<Point>();
            var removals = new HashSet<Point>();
            var adds = random.Next(0, batch % 10 == 0 ? 3_000 : 300);
            for (var i = 0; i < adds; i++)
            {
                var value = valueRange == long.MaxValue ? (ulong)random.NextInt64() << 1 ^ (ulong)random.Next(2) : (ulong)random.NextInt64(valueRange);
                additions.Add(new Point(value, nextId));
                // A few entries have more than one value.
                if (random.Next(10) != 0)
                    nextId++;
            }
            nextId++;
            var stored = model.ToList();
            var removes = stored.Count == 0 ? 0 : random.Next(0, batch % 7 == 0 ? stored.Count : Math.Min(stored.Count, 400));
            for (var i = 0; i < removes; i++)
                removals.Add(stored[random.Next(stored.Count)]);
            // Removing a point the store does not hold changes nothing.
            removals.Add(new Point((ulong)random.NextInt64(), nextId + 1));

            Apply(environment, additions, removals);
            model.ExceptWith(removals);
            model.UnionWith(additions);
            Assert.Equal(model.ToList(), Stored(environment));
        }
    }

    [Fact]
    public void Apply_RemovingEveryPoint_LeavesNoBlock()
    {
        using var environment = StorageEnvironment.Open(Storage());
        var points = Enumerable.Range(0, 100_000).Select(i => new Point((ulong)(i * 7919L % 100_000), i)).ToList();
        Apply(environment, points, []);
        using (var tx = environment.BeginRead())
        {
            Assert.True(tx.OpenTree("p")!.Count > 10);
            // One batch's blocks are cut in pieces of equal size: none is a sliver, the last included.
            var cursor = tx.OpenTree("p")!.CreateCursor();
            for (var more = cursor.First(); more; more = cursor.MoveNext())
                Assert.InRange(cursor.Value.Length, PointStore.PieceBytes / 2 - PointBlock.MaxPointBytes, PointStore.PieceBytes + PointBlock.MaxPointBytes + PointBlock.MaxHeaderBytes);
        }
        Apply(environment, [], points);
        using (var tx = environment.BeginRead())
            Assert.Equal(0, tx.OpenTree("p")!.Count);
    }

    [Fact]
    public void Apply_RemovingMostPoints_MergesTheBlocksLeftSmall()
    {
        using var environment = StorageEnvironment.Open(Storage());
        var points = Enumerable.Range(0, 100_000).Select(i => new Point((ulong)i * 1_000, i)).ToList();
        Apply(environment, points, []);
        long BlockCount()
        {
            using var tx = environment.BeginRead();
            return tx.OpenTree("p")!.Count;
        }

        var before = BlockCount();
        Assert.True(before > 15, $"{before} blocks");
        // One point in twenty stays in every block: each block changed takes in the next ones until it holds
        // MinBlockBytes, so about four blocks become one.
        var removed = points.Where(p => p.Id % 20 != 0).ToList();
        Apply(environment, [], removed);
        Assert.Equal(points.Where(p => p.Id % 20 == 0).ToList(), Stored(environment));
        Assert.InRange(BlockCount(), 1, before / 3);
        using var tx = environment.BeginRead();
        var cursor = tx.OpenTree("p")!.CreateCursor();
        var sizes = new List<int>();
        for (var more = cursor.First(); more; more = cursor.MoveNext())
            sizes.Add(cursor.Value.Length);
        Assert.All(sizes.SkipLast(1), size => Assert.True(size >= PointStore.MinBlockBytes - PointBlock.MaxHeaderBytes - PointBlock.MaxPointBytes, $"a block of {size} bytes"));
    }

    [Fact]
    public void Apply_BlocksGrowingToTheLimitWithLargePoints_FillAtLeastHalfTheirPages()
    {
        using var environment = StorageEnvironment.Open(Storage());
        // Each point after the first takes 118 bits: a value 2^52 above the last (k 51) and an id near the top (63
        // bits). Added a few at a time, blocks grow up to the limit and are each cut in two.
        var points = Enumerable.Range(0, 4_000).Select(i => new Point(((ulong)(uint)i << 52) | (uint)i, long.MaxValue - 4_000 + i)).ToList();
        var largest = 0;
        const int PerBatch = 23;
        long blockCount = 0;
        foreach (var chunk in points.Chunk(PerBatch))
        {
            Apply(environment, chunk, []);
            using var tx = environment.BeginRead();
            var cursor = tx.OpenTree("p")!.CreateCursor();
            for (var more = cursor.First(); more; more = cursor.MoveNext())
                largest = Math.Max(largest, cursor.Value.Length);
            Assert.InRange(tx.OpenTree("p")!.Count, blockCount, blockCount + 1);
            blockCount = tx.OpenTree("p")!.Count;
        }
        Assert.Equal(points, Stored(environment));
        Assert.InRange(largest, PointStore.MaxBlockBytes - PerBatch * 15, PointStore.MaxBlockBytes);
        using var read = environment.BeginRead();
        var tree = read.OpenTree("p")!;
        var blocks = tree.CreateCursor();
        long bytes = 0;
        for (var more = blocks.First(); more; more = blocks.MoveNext())
        {
            Assert.InRange(PagesOf(blocks.Value.Length), 1, 4);
            bytes += blocks.Value.Length;
        }
        // A block is cut into pieces of two pages at most, which it fills at least half (the last one aside).
        Assert.InRange(tree.Header.OverflowPages, 1, 2 * bytes / StorageLimits.PageSize + 2);
    }

    [Fact]
    public void Apply_CutWhosePieceCodesLongerAlone_KeepsEveryPieceWithinTwoPages()
    {
        using var environment = StorageEnvironment.Open(Storage());
        // Values one apart but for ten jumps of 2^40, all in the second half: the whole block's Rice parameter is
        // 29, the second piece's own would be 30: a bit more per point, which took that piece to three pages.
        var points = new List<Point>();
        var value = 0UL;
        for (var i = 0; i < 8_200; i++)
        {
            value += i > 4_100 && i % 400 == 0 ? 1UL << 40 : 1;
            points.Add(new Point(value, 0));
        }
        Apply(environment, points, []);

        Assert.Equal(points, Stored(environment));
        using var tx = environment.BeginRead();
        var cursor = tx.OpenTree("p")!.CreateCursor();
        var blocks = 0;
        for (var more = cursor.First(); more; more = cursor.MoveNext(), blocks++)
            Assert.InRange(PagesOf(cursor.Value.Length), 1, 2);
        Assert.Equal(2, blocks);
    }

    private static long PagesOf(int valueBytes) => (valueBytes + StorageLimits.OverflowHeaderSize + StorageLimits.PageSize - 1) / StorageLimits.PageSize;

    [Fact]
    public void Equality_OnAValueSpanningManyBlocks_WalksAndLeapsInIdOrder()
    {
        const int Count = 150_000;
        using var index = SearchIndex.Open(Storage(), Schema());
        using (var batch = index.BeginBatch())
        {
            for (var i = 0; i < Count; i++)
                batch.Add(new IndexEntry($"k{i:D6}").Add("Num", i % 3 == 0 ? 42L : i).Add("Price", i % 5 == 0 ? 1.5 : 2.5));
            batch.Commit();
        }
        using var searcher = index.OpenSearcher();
        Assert.True(searcher.Transaction.OpenTree(SearchIndex.PointsTree("Num"))!.Count > 4);
        var common = new TermQuery("Num", FieldValue.From(42L));
        Assert.Equal(Count / 3, searcher.Count(common));
        Assert.Equal(Enumerable.Range(0, Count).Where(i => i % 3 == 0).Select(i => $"k{i:D6}"), searcher.Search(common, 0, Count).Hits.Select(h => h.Key));
        // Both sides leap: the intersection advances the common value's walk past whole blocks.
        var both = new AndQuery([common, new TermQuery("Price", FieldValue.From(1.5))]);
        Assert.Equal(Enumerable.Range(0, Count).Where(i => i % 15 == 0).Select(i => $"k{i:D6}"), searcher.Search(both, 0, Count).Hits.Select(h => h.Key));
        var iterator = searcher.Iterate(common);
        Assert.True(iterator.Advance(Count / 2 + 1));
        Assert.Equal(Count / 2 + 3, iterator.Current);
        Assert.True(iterator.Advance(Count / 2 + 3));
        Assert.Equal(Count / 2 + 3, iterator.Current);
        Assert.True(iterator.MoveNext());
        Assert.Equal(Count / 2 + 6, iterator.Current);
        Assert.False(iterator.Advance(Count));
        Assert.Empty(Keys(index, new TermQuery("Num", FieldValue.From(-1L))));
        Assert.Empty(Keys(index, new TermQuery("Num", FieldValue.From((long)Count))));
        Assert.Equal(["k000001"], Keys(index, new TermQuery("Num", FieldValue.From(1L))));
        Assert.Null(searcher.Transaction.OpenTree(SearchIndex.TermsTree("Num")));
    }

    [Fact]
    public void Delete_TakesOutSingleNumbers_AfterTheFieldIsRedeclaredExact()
    {
        var path = Path.Combine(Path.GetTempPath(), "folio-points-" + Guid.NewGuid().ToString("N"));
        try
        {
            using (var index = SearchIndex.Open(StorageOptions.ForPath(path), Schema()))
            {
                using var batch = index.BeginBatch();
                batch.Add(new IndexEntry("a").Add("Num", 5L));
                batch.Add(new IndexEntry("b").Add("Num", 5L).Add("Num", 6L));
                batch.Commit();
            }
            using (var index = SearchIndex.Open(StorageOptions.ForPath(path), new IndexSchema().Add("Num", FieldKind.Exact)))
            {
                using (var batch = index.BeginBatch())
                {
                    batch.Add(new IndexEntry("a").Add("Num", "five"));
                    Assert.True(batch.Delete("b"));
                    batch.Commit();
                }
                Assert.Equal(["a"], Keys(index, new TermQuery("Num", FieldValue.From("five"))));
                using var searcher = index.OpenSearcher();
                Assert.Equal(0, searcher.Transaction.OpenTree(SearchIndex.PointsTree("Num"))!.Count);
                Assert.Equal(0, searcher.Transaction.OpenTree(SearchIndex.ColumnTree("Num"))!.Count);
            }
        }
        finally
        {
            SearchIndex.Drop(path);
        }
    }

    private static IndexSchema Schema() => new IndexSchema()
        .Add("Num", FieldKind.Long)
        .Add("Price", FieldKind.Double);

    private static List<string> Keys(SearchIndex index, Query query)
    {
        using var searcher = index.OpenSearcher();
        return searcher.Search(query, 0, int.MaxValue).Hits.Select(h => h.Key).Order(StringComparer.Ordinal).ToList();
    }

    [Fact]
    public void Queries_SeeEachValueOnce_AfterUpdatesInTheSameAndLaterBatches()
    {
        using var index = SearchIndex.Open(Storage(), Schema());
        using (var batch = index.BeginBatch())
        {
            batch.Add(new IndexEntry("a").Add("Num", 5L).Add("Num", 7L));
            batch.Add(new IndexEntry("b").Add("Num", 5L));
            // Replaced in the batch that added it: its first values must not stay behind.
            batch.Add(new IndexEntry("c").Add("Num", 6L));
            batch.Add(new IndexEntry("c").Add("Num", 8L).Add("Price", -0.5));
            batch.Commit();
        }
        Assert.Equal(["a", "b"], Keys(index, new TermQuery("Num", FieldValue.From(5L))));
        Assert.Empty(Keys(index, new TermQuery("Num", FieldValue.From(6L))));
        Assert.Equal(["a", "b", "c"], Keys(index, new RangeQuery("Num", FieldValue.From(5L), true, FieldValue.From(8L), true)));

        using (var batch = index.BeginBatch())
        {
            batch.Add(new IndexEntry("a").Add("Num", 9L));
            batch.Delete("c");
            batch.Commit();
        }
        Assert.Equal(["b"], Keys(index, new TermQuery("Num", FieldValue.From(5L))));
        Assert.Empty(Keys(index, new TermQuery("Num", FieldValue.From(7L))));
        Assert.Equal(["a"], Keys(index, new RangeQuery("Num", FieldValue.From(6L), false, null, false)));
        Assert.Empty(Keys(index, new RangeQuery("Price", null, false, FieldValue.From(0.0), true)));
    }

    [Fact]
    public void Batches_UpdatingTheSameEntries_DoNotGrowThePoints()
    {
        using var index = SearchIndex.Open(Storage(), Schema());
        var random = new Random(4);
        // The main blocks and the runs' (PointRuns).
        long PointBlocks()
        {
            using var searcher = index.OpenSearcher();
            return searcher.Transaction.OpenTree(SearchIndex.PointsTree("Num"))!.Count + (searcher.Transaction.OpenTree(SearchIndex.PointRunsTree("Num"))?.Count ?? 0);
        }

        void Round()
        {
            using var batch = index.BeginBatch();
            for (var i = 0; i < 2_000; i++)
                batch.Add(new IndexEntry("k" + i).Add("Num", random.NextInt64()));
            batch.Commit();
        }

        for (var round = 0; round < 3; round++)
            Round();
        var settled = PointBlocks();
        for (var round = 0; round < 20; round++)
            Round();
        Assert.InRange(PointBlocks(), 1, settled * 2);
        Assert.Equal(2_000, Keys(index, new RangeQuery("Num", null, false, null, false)).Count);
    }
}
