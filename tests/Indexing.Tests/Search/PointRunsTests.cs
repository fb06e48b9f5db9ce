using Folio.Indexing.Queries;
using Folio.Indexing.Search;
using Folio.Storage;
using Folio.Storage.Platform;
using Folio.Storage.Trees;

namespace Folio.Indexing.Tests.Search;

/// <summary>
/// A numeric field's recent points in runs (<see cref="PointRuns"/>): the main blocks and the runs checked against a
/// sorted model after every batch, a small batch that leaves the main blocks alone, and queries and counts through the
/// index while runs wait.
/// </summary>
public class PointRunsTests
{
    private static StorageOptions Storage() => StorageOptions.InMemory() with { FileSystem = new MemoryFileSystem() };

    private static void Apply(StorageEnvironment environment, long firstIdOfBatch, IEnumerable<Point> additions, IEnumerable<Point> removals)
    {
        using var tx = environment.BeginWrite();
        PointRuns.Apply(tx, tx.CreateTree("p"), "r", firstIdOfBatch, additions.Order().ToArray(), removals.Order().ToArray(), new StoreBuffers());
        tx.Commit();
    }

    /// <summary>The points of one set of blocks in order, checking the order within and across its blocks.</summary>
    private static List<Point> Read(PointBlocks blocks)
    {
        var points = new List<Point>();
        var cursor = blocks.Tree.CreateCursor();
        for (var more = blocks.First(cursor); more; more = blocks.MoveNext(cursor))
        {
            var block = new PointBlock.Reader(blocks.PointKey(cursor.Key), cursor.Value);
            while (block.MoveNext())
            {
                if (points.Count > 0)
                    Assert.True(points[^1].IsBefore(block.Current), $"{points[^1]} then {block.Current}");
                points.Add(block.Current);
            }
        }
        return points;
    }

    /// <summary>Every stored point (main blocks, then each run's), checking that each set's ids lie where the runs' starts say.</summary>
    private static (List<Point> Points, int Runs) Stored(StorageEnvironment environment)
    {
        using var tx = environment.BeginRead();
        var all = new List<Point>();
        var starts = PointRuns.Starts(tx.OpenTree("r"));
        Assert.InRange(starts.Count, 0, PointRuns.MaxRuns);
        // The runs' tree exists only while runs wait.
        Assert.Equal(starts.Count > 0, tx.OpenTree("r") is not null);
        if (tx.OpenTree("p") is { } main)
        {
            var points = Read(PointBlocks.Whole(main));
            if (starts.Count > 0)
                Assert.All(points, p => Assert.True(p.Id < starts[0], $"{p} in the main blocks, at or past the first run's start {starts[0]}"));
            all.AddRange(points);
        }
        for (var run = 0; run < starts.Count; run++)
        {
            var points = Read(PointRuns.Run(tx.OpenTree("r")!, starts[run]));
            var end = run + 1 < starts.Count ? starts[run + 1] : long.MaxValue;
            Assert.All(points, p => Assert.InRange(p.Id, starts[run], end - 1));
            all.AddRange(points);
        }
        return (all.Order().ToList(), starts.Count);
    }

    [Theory]
    [InlineData(1, 1_000_000_000L)]
    [InlineData(2, 5L)]
    public void Apply_RandomBatches_KeepsTheModelsPointsInTheMainBlocksAndRuns(int seed, long valueRange)
    {
        using var environment = StorageEnvironment.Open(Storage());
        var random = new Random(seed);
        var model = new SortedSet<Point>();
        long nextId = 0;
        var mostRuns = 0;
        var merges = 0;
        var previousRuns = 0;
        for (var batch = 0; batch < 80; batch++)
        {
            var first = nextId;
            var additions = new HashSet<Point>();
            var adds = random.Next(0, batch % 20 == 0 ? 20_000 : 400);
            for (var i = 0; i < adds; i++)
            {
                additions.Add(new Point((ulong)random.NextInt64(valueRange), nextId));
                // A few entries have more than one value.
                if (random.Next(10) != 0)
                    nextId++;
            }
            nextId++;
            var stored = model.ToList();
            var removals = new HashSet<Point>();
            var removes = stored.Count == 0 ? 0 : random.Next(0, batch % 9 == 0 ? stored.Count / 2 : Math.Min(stored.Count, 300));
            for (var i = 0; i < removes; i++)
                removals.Add(stored[random.Next(stored.Count)]);
            // Removing a point the store does not hold changes nothing, whichever set its id falls in.
            removals.Add(new Point((ulong)random.NextInt64(valueRange), random.NextInt64(first + 1)));

            Apply(environment, first, additions, removals);
            model.ExceptWith(removals);
            model.UnionWith(additions);
            var (points, runs) = Stored(environment);
            Assert.Equal(model.ToList(), points);
            mostRuns = Math.Max(mostRuns, runs);
            if (runs < previousRuns)
                merges++;
            previousRuns = runs;
        }
        Assert.Equal(PointRuns.MaxRuns, mostRuns);
        Assert.True(merges >= 3, $"{merges} merges");
    }

    [Fact]
    public void Apply_SmallBatch_LeavesTheMainBlocksAsTheyWere()
    {
        using var environment = StorageEnvironment.Open(Storage());
        var random = new Random(7);
        Apply(environment, 0, Enumerable.Range(0, 100_000).Select(i => new Point((ulong)random.NextInt64(), i)), []);
        var before = MainBlocks(environment);
        Assert.True(before.Count > 10, $"{before.Count} main blocks");

        // A thousand random values would land in every main block; they go to a run of their own instead.
        Apply(environment, 100_000, Enumerable.Range(100_000, 1_000).Select(i => new Point((ulong)random.NextInt64(), i)), []);
        Assert.Equal(before, MainBlocks(environment));
        var (points, runs) = Stored(environment);
        Assert.Equal(1, runs);
        Assert.Equal(101_000, points.Count);

        // A batch whose entries start below a run's start is a caller's error, found before anything changes.
        Assert.Throws<CorruptionException>(() => Apply(environment, 100_000, [new Point(1, 100_000)], []));
        Assert.Throws<InvalidOperationException>(() => Apply(environment, 200_000, [new Point(1, 150_000)], []));
        Assert.Equal(points, Stored(environment).Points);
    }

    [Fact]
    public void Apply_RemovalsThatEmptyTheRunsOrTheMainBlocks_KeepEveryPointWhereItBelongs()
    {
        using var environment = StorageEnvironment.Open(Storage());
        var main = Enumerable.Range(0, 1_000).Select(i => new Point((ulong)(i * 7 % 1_000), i)).ToList();
        Apply(environment, 0, main, []);
        var first = Enumerable.Range(1_000, 100).Select(i => new Point((ulong)i, i)).ToList();
        Apply(environment, 1_000, first, []);
        Assert.Equal(1, Stored(environment).Runs);

        // The batch's removals empty the only run, whose tree goes, and its additions start another in the same transaction.
        var second = Enumerable.Range(2_000, 50).Select(i => new Point((ulong)i, i)).ToList();
        Apply(environment, 2_000, second, first);
        var (points, runs) = Stored(environment);
        Assert.Equal(1, runs);
        Assert.Equal(main.Concat(second).Order().ToList(), points);

        // The main blocks emptied while a run waits: the next batch with points merges the run into them.
        Apply(environment, 3_000, [], main);
        Assert.Equal(second, Stored(environment).Points);
        var last = Enumerable.Range(3_000, 10).Select(i => new Point((ulong)i, i)).ToList();
        Apply(environment, 3_000, last, []);
        (points, runs) = Stored(environment);
        Assert.Equal(0, runs);
        Assert.Equal(second.Concat(last).ToList(), points);
    }

    [Fact]
    public void Searcher_OpenedBeforeAMerge_KeepsItsSnapshotsPoints()
    {
        using var index = SearchIndex.Open(Storage(), new IndexSchema().Add("Num", FieldKind.Long));
        var next = 0;
        void Batch(int count)
        {
            using var batch = index.BeginBatch();
            for (var end = next + count; next < end; next++)
                batch.Add(new IndexEntry("k" + next).Add("Num", (long)(next % 10)));
            batch.Commit();
        }

        Batch(1_000);
        Batch(10);
        using var before = index.OpenSearcher();
        Assert.Single(PointRuns.Starts(before.Transaction.OpenTree(SearchIndex.PointRunsTree("Num"))));
        var three = new TermQuery("Num", FieldValue.From(3L));
        var all = new RangeQuery("Num", FieldValue.From(0L), true, FieldValue.From(9L), true);
        Assert.Equal(101, before.Count(three));

        // Seven more runs, then a batch that merges all eight into the main blocks and deletes their tree.
        for (var batch = 0; batch < PointRuns.MaxRuns; batch++)
            Batch(10);
        using (var after = index.OpenSearcher())
        {
            Assert.Null(after.Transaction.OpenTree(SearchIndex.PointRunsTree("Num")));
            Assert.Equal(109, after.Count(three));
            Assert.Equal(1_090, after.Count(all));
        }
        Assert.Equal(101, before.Count(three));
        Assert.Equal(1_010, before.Count(all));
        Assert.Equal(Enumerable.Range(0, 101).Select(i => "k" + ((i * 10) + 3)).Order(StringComparer.Ordinal), Keys(before, three));
    }

    private static List<(string Key, string Value)> MainBlocks(StorageEnvironment environment)
    {
        using var tx = environment.BeginRead();
        var blocks = new List<(string, string)>();
        var cursor = tx.OpenTree("p")!.CreateCursor();
        for (var more = cursor.First(); more; more = cursor.MoveNext())
            blocks.Add((Convert.ToHexString(cursor.Key), Convert.ToHexString(cursor.Value)));
        return blocks;
    }

    [Fact]
    public void Queries_WhileRunsWait_SeeEveryValueOnce_AfterUpdatesAndDeletes()
    {
        using var index = SearchIndex.Open(Storage(), new IndexSchema().Add("Num", FieldKind.Long).Add("Tag", FieldKind.Exact));
        var random = new Random(11);
        var model = new Dictionary<string, (long Num, string Tag)>();
        var sawRuns = 0;
        for (var round = 0; round < 30; round++)
        {
            using (var batch = index.BeginBatch())
            {
                var count = round == 0 ? 20_000 : 300;
                for (var i = 0; i < count; i++)
                {
                    var key = "k" + random.Next(25_000);
                    if (round > 0 && random.Next(4) == 0)
                    {
                        batch.Delete(key);
                        model.Remove(key);
                        continue;
                    }
                    var value = (Num: (long)random.Next(-50, 50), Tag: "t" + random.Next(3));
                    batch.Add(new IndexEntry(key).Add("Num", value.Num).Add("Tag", value.Tag));
                    model[key] = value;
                }
                batch.Commit();
            }
            using var searcher = index.OpenSearcher();
            sawRuns = Math.Max(sawRuns, PointRuns.Starts(searcher.Transaction.OpenTree(SearchIndex.PointRunsTree("Num"))).Count);
            for (var probe = 0; probe < 4; probe++)
            {
                var num = (long)random.Next(-52, 52);
                var equal = new TermQuery("Num", FieldValue.From(num));
                Assert.Equal(Expected(e => e.Num == num), Keys(searcher, equal));
                // The intersection leaps through the main blocks and the runs with Advance.
                var tag = "t" + random.Next(3);
                Assert.Equal(Expected(e => e.Num == num && e.Tag == tag), Keys(searcher, new AndQuery([equal, new TermQuery("Tag", FieldValue.From(tag))])));
                var high = num + random.Next(0, 30);
                Assert.Equal(Expected(e => e.Num >= num && e.Num < high), Keys(searcher, new RangeQuery("Num", FieldValue.From(num), true, FieldValue.From(high), false)));
                Assert.Equal(Expected(e => e.Num >= num && e.Num < high).Count, searcher.Count(new RangeQuery("Num", FieldValue.From(num), true, FieldValue.From(high), false)));
            }
        }
        Assert.True(sawRuns >= 2, $"at most {sawRuns} runs");

        List<string> Expected(Func<(long Num, string Tag), bool> match) =>
            model.Where(e => match(e.Value)).Select(e => e.Key).Order(StringComparer.Ordinal).ToList();
    }

    private static List<string> Keys(IndexSearcher searcher, Query query) =>
        searcher.Search(query, 0, int.MaxValue).Hits.Select(h => h.Key).Order(StringComparer.Ordinal).ToList();
}
