using Folio.Storage.Paging;
using Folio.Storage.Tests.Support;
using Folio.Storage.Trees;

namespace Folio.Storage.Tests.Trees;

public class ValueHeapTests
{
    /// <summary>An environment that packs values of 4-16 KB into shared runs, as a compaction's new file does.</summary>
    private static StorageEnvironment InMemory() => StorageEnvironment.Open(StorageOptions.InMemory() with { PackMidsizeValues = true });

    private static byte[] Body(int seed, int length) => Keys.Value(seed, length);

    [Theory]
    [InlineData(4_100, 6_000)]
    [InlineData(6_000, 8_000)]
    [InlineData(6_500, 6_600)]
    [InlineData(8_200, 16_000)]
    public void Put_ValuesTooLargeForALeaf_ShareRunsAndReadBack(int smallest, int largest)
    {
        using var env = InMemory();
        var random = new Random(smallest);
        var expected = new Dictionary<int, byte[]>();
        for (var round = 0; round < 5; round++)
        {
            using var tx = env.BeginWrite();
            var tree = tx.CreateTree("t");
            for (var i = 0; i < 100; i++)
            {
                var id = round * 100 + i;
                var value = Body(id, random.Next(smallest, largest + 1));
                tree.Put(Keys.Of($"orders/{id}"), value);
                expected[id] = value;
            }
            tx.Commit();
        }
        env.Verify();
        using var read = env.BeginRead();
        var stored = read.OpenTree("t")!;
        foreach (var (id, value) in expected)
        {
            Assert.True(stored.TryGet(Keys.Of($"orders/{id}"), out var got), $"orders/{id} is missing");
            Assert.True(got.SequenceEqual(value), $"orders/{id} reads back other bytes");
        }
        var bytes = expected.Values.Sum(v => (long)v.Length);
        var fill = bytes / (double)(stored.Header.OverflowPages * StorageLimits.PageSize);
        // Pages of its own for each value would fill 50-75% (4-6 KB), 75-100% (6-8 KB), 80% (6.5 KB) or 51-98% (8.2-16 KB).
        Assert.True(fill > 0.8, $"{expected.Count} values of {smallest}-{largest} B fill {fill:P1} of {stored.Header.OverflowPages} overflow pages.");
    }

    [Fact]
    public void Put_WithoutPacking_GivesAMidsizeValueAPageOfItsOwn()
    {
        using var env = StorageEnvironment.Open(StorageOptions.InMemory());
        using var tx = env.BeginWrite();
        var tree = tx.CreateTree("t");
        for (var i = 0; i < 10; i++)
            tree.Put(Keys.Of(i), Body(i, 5_000));
        Assert.Equal(10, tree.Header.OverflowPages);
        tx.Commit();
    }

    [Fact]
    public void Compact_OfMidsizeValuesOnPagesOfTheirOwn_PacksThemIntoRunsThatLaterWritesEmpty()
    {
        using var dir = new TempDirectory("heap-compact");
        using var env = StorageEnvironment.Open(StorageOptions.ForPath(dir.Path));
        var random = new Random(5);
        var expected = new Dictionary<int, byte[]>();
        using (var tx = env.BeginWrite())
        {
            var tree = tx.CreateTree("t");
            for (var i = 0; i < 300; i++)
            {
                var value = Body(i, random.Next(4_200, 6_000));
                tree.Put(Keys.Of(i), value);
                expected[i] = value;
            }
            Assert.Equal(300, tree.Header.OverflowPages);
            tx.Commit();
        }

        env.Compact();

        env.Verify();
        using (var read = env.BeginRead())
        {
            var tree = read.OpenTree("t")!;
            var bytes = expected.Values.Sum(v => (long)v.Length);
            var fill = bytes / (double)(tree.Header.OverflowPages * StorageLimits.PageSize);
            Assert.True(fill > 0.85, $"300 values of 4.2-6 KB fill {fill:P1} of {tree.Header.OverflowPages} pages after the compaction.");
            foreach (var (i, value) in expected)
            {
                Assert.True(tree.TryGet(Keys.Of(i), out var got));
                Assert.True(got.SequenceEqual(value), $"value {i} reads back other bytes");
            }
        }
        // Everyday writes take a page per value again, and the packed runs go as their values are replaced.
        using (var tx = env.BeginWrite())
        {
            var tree = tx.OpenTree("t")!;
            for (var i = 0; i < 300; i++)
                tree.Put(Keys.Of(i), Body(1000 + i, 5_000));
            Assert.Equal(300, tree.Header.OverflowPages);
            tx.Commit();
        }
        env.Verify();
    }

    [Fact]
    public void HeapRun_EveryOffsetInARun_FitsTheTwoBytesItsSlotsAndPartialJournalEntriesKeep()
    {
        // Slots, the run header and the journal's partial entries keep offsets into a run as ushorts: a larger run
        // needs wider fields and a new format, not only a new constant.
        Assert.InRange(Tree.HeapRunBytes - 1, 1, ushort.MaxValue);
        Assert.InRange(Tree.MaxHeapValueSize, 1, ushort.MaxValue);
    }

    [Fact]
    public void Put_AValueAboveAThirdOfARun_TakesPagesOfItsOwn()
    {
        using var env = InMemory();
        using var tx = env.BeginWrite();
        var tree = tx.CreateTree("t");
        tree.Put(Keys.Of("small"), Body(1, 5_000));
        tree.Put(Keys.Of("large"), Body(2, Tree.MaxHeapValueSize + 1));
        Assert.Equal(Tree.HeapRunPages + Paging.PageHeader.OverflowPagesFor(Tree.MaxHeapValueSize + 1), tree.Header.OverflowPages);
        Assert.True(tree.TryGet(Keys.Of("large"), out var large));
        Assert.True(large.SequenceEqual(Body(2, Tree.MaxHeapValueSize + 1)));
        tx.Commit();
    }

    [Fact]
    public void Delete_EveryValueOfTheRuns_FreesThemForReuse()
    {
        using var env = InMemory();
        using (var tx = env.BeginWrite())
        {
            var tree = tx.CreateTree("t");
            for (var i = 0; i < 60; i++)
                tree.Put(Keys.Of(i), Body(i, 6_000));
            tx.Commit();
        }
        var full = env.GetStats().FreePages;
        long runs;
        using (var tx = env.BeginWrite())
        {
            var tree = tx.OpenTree("t")!;
            runs = tree.Header.OverflowPages / Tree.HeapRunPages;
            Assert.True(runs >= 2 && tree.Header.OverflowPages % Tree.HeapRunPages == 0, $"60 values of 6 KB took {tree.Header.OverflowPages} pages.");
            for (var i = 0; i < 60; i++)
                Assert.True(tree.Delete(Keys.Of(i)));
            // Every run goes with its last value, the open one too.
            Assert.Equal(0, tree.Header.OverflowPages);
            tx.Commit();
        }
        env.Verify();
        Assert.True(env.GetStats().FreePages >= full + runs * Tree.HeapRunPages, $"free pages {full} before the deletes of {runs} runs, {env.GetStats().FreePages} after.");
        using (var tx = env.BeginWrite())
        {
            var tree = tx.OpenTree("t")!;
            tree.Put(Keys.Of(1), Body(1, 5_000));
            Assert.Equal(Tree.HeapRunPages, tree.Header.OverflowPages);
            tx.Commit();
        }
        env.Verify();
    }

    [Fact]
    public void Put_ReplacingHeapValuesAtRandom_KeepsTheRunsFilledAndTheNewBytes()
    {
        using var env = InMemory();
        var random = new Random(3);
        var expected = new Dictionary<int, byte[]>();
        for (var round = 0; round < 150; round++)
        {
            using var tx = env.BeginWrite();
            var tree = tx.CreateTree("t");
            for (var i = 0; i < 20; i++)
            {
                var key = random.Next(200);
                // Every fourth replacement keeps the size, which rewrites the bytes where they are.
                var size = expected.TryGetValue(key, out var old) && random.Next(4) == 0 ? old.Length : random.Next(4_200, 8_000);
                var value = Body(round * 100 + i, size);
                tree.Put(Keys.Of(key), value);
                expected[key] = value;
            }
            tx.Commit();
        }
        env.Verify();
        using var read = env.BeginRead();
        var stored = read.OpenTree("t")!;
        foreach (var (key, value) in expected)
        {
            Assert.True(stored.TryGet(Keys.Of(key), out var got));
            Assert.True(got.SequenceEqual(value), $"key {key} reads back other bytes");
        }
        // Runs that replacements leave a value or two in must take new values, or they end about a third full.
        var fill = expected.Values.Sum(v => (long)v.Length) / (double)(stored.Header.OverflowPages * StorageLimits.PageSize);
        Assert.True(fill > 0.6, $"{expected.Count} values fill {fill:P1} of {stored.Header.OverflowPages} pages after 3,000 replacements.");
    }

    [Fact]
    public void Put_IntoARunWithScatteredRoom_MovesItsValuesTogether()
    {
        using var env = InMemory();
        using var tx = env.BeginWrite();
        var tree = tx.CreateTree("t");
        for (var i = 0; i < 7; i++)
            tree.Put(Keys.Of(i), Body(i, 6_500));
        Assert.Equal(Tree.HeapRunPages, tree.Header.OverflowPages);
        tree.Delete(Keys.Of(1));
        tree.Delete(Keys.Of(4));
        // 13 KB are free in two holes of 6.5 KB; a 7.5 KB value needs them together.
        tree.Put(Keys.Of(9), Body(9, 7_500));
        Assert.Equal(Tree.HeapRunPages, tree.Header.OverflowPages);
        foreach (var i in new[] { 0, 2, 3, 5, 6 })
        {
            Assert.True(tree.TryGet(Keys.Of(i), out var value));
            Assert.True(value.SequenceEqual(Body(i, 6_500)), $"value {i} moved wrongly");
        }
        Assert.True(tree.TryGet(Keys.Of(9), out var added));
        Assert.True(added.SequenceEqual(Body(9, 7_500)));
        tx.Commit();
        env.Verify();
    }

    [Fact]
    public void Rollback_OfHeapWrites_LeavesTheCommittedValues()
    {
        using var env = InMemory();
        using (var tx = env.BeginWrite())
        {
            tx.CreateTree("t").Put(Keys.Of("a"), Body(1, 5_000));
            tx.Commit();
        }
        using (var tx = env.BeginWrite())
        {
            var tree = tx.OpenTree("t")!;
            tree.Put(Keys.Of("a"), Body(2, 7_000));
            tree.Put(Keys.Of("b"), Body(3, 6_000));
            tree.Delete(Keys.Of("a"));
            tx.Rollback();
        }
        env.Verify();
        using var read = env.BeginRead();
        Assert.True(read.OpenTree("t")!.TryGet(Keys.Of("a"), out var value));
        Assert.True(value.SequenceEqual(Body(1, 5_000)));
        Assert.False(read.OpenTree("t")!.TryGet(Keys.Of("b"), out _));
    }

    [Fact]
    public void DeleteTree_WithHeapValues_FreesEveryRun()
    {
        using var env = InMemory();
        using (var tx = env.BeginWrite())
        {
            tx.CreateTree("keep").Put(Keys.Of("x"), Body(9, 100));
            var tree = tx.CreateTree("t");
            for (var i = 0; i < 40; i++)
                tree.Put(Keys.Of(i), Body(i, 5_500));
            tx.Commit();
        }
        using (var tx = env.BeginWrite())
        {
            Assert.True(tx.DeleteTree("t"));
            tx.Commit();
        }
        // The verifier finds every page either used once or free: the runs of the dropped tree went back.
        env.Verify();
        using var again = env.BeginWrite();
        Assert.Equal(0, again.CreateTree("t").Header.OverflowPages);
    }

    [Fact]
    public void Open_AfterACrash_ReplaysHeapValuesFromTheJournal()
    {
        using var dir = new TempDirectory();
        var options = StorageOptions.ForPath(dir.Path) with { BackgroundFlush = false, PackMidsizeValues = true };
        var expected = new Dictionary<int, byte[]>();
        using (var env = StorageEnvironment.Open(options))
        {
            for (var round = 0; round < 6; round++)
            {
                using var tx = env.BeginWrite();
                var tree = tx.CreateTree("t");
                for (var i = 0; i < 10; i++)
                {
                    var key = (round * 7 + i) % 25;
                    var value = Body(round * 10 + i, 4_500 + round * 700 + i * 50);
                    tree.Put(Keys.Of(key), value);
                    expected[key] = value;
                }
                if (round % 2 == 1)
                    tree.Delete(Keys.Of(round));
                if (round % 2 == 1)
                    expected.Remove(round);
                tx.Commit();
                if (round == 2)
                    env.FlushToDataFile();
            }
            env.SimulateCrash();
        }
        using (var env = StorageEnvironment.Open(options))
        {
            env.Verify();
            using var read = env.BeginRead();
            var tree = read.OpenTree("t")!;
            Assert.Equal(expected.Count, tree.Count);
            foreach (var (key, value) in expected)
            {
                Assert.True(tree.TryGet(Keys.Of(key), out var got), $"key {key} is missing");
                Assert.True(got.SequenceEqual(value), $"key {key} reads back other bytes");
            }
        }
    }

    [Fact]
    public void Open_OfAFileOfTheFirstFormat_WritesTheCurrentVersionBeforeAnyWrite()
    {
        using var dir = new TempDirectory();
        using (var env = StorageEnvironment.Open(StorageOptions.ForPath(dir.Path)))
        {
            using var tx = env.BeginWrite();
            tx.CreateTree("t").Put(Keys.Of("a"), Keys.Of("one"));
            tx.Commit();
        }
        var path = Path.Combine(dir.Path, "data.folio");
        RewriteHeaders(path, version: 1);
        Assert.Equal(1, ReadHeader(path).FormatVersion);
        using (var env = StorageEnvironment.Open(StorageOptions.ForPath(dir.Path)))
        {
            Assert.Equal(FileHeader.CurrentFormatVersion, ReadHeader(path).FormatVersion);
            using var read = env.BeginRead();
            Assert.True(read.OpenTree("t")!.TryGet(Keys.Of("a"), out var value));
            Assert.Equal("one", Keys.Text(value));
        }
    }

    private static FileHeader ReadHeader(string path)
    {
        var bytes = File.ReadAllBytes(path);
        var first = FileHeader.TryRead(bytes.AsSpan(0, StorageLimits.PageSize), out var a);
        var second = FileHeader.TryRead(bytes.AsSpan(StorageLimits.PageSize, StorageLimits.PageSize), out var b);
        Assert.True(first || second);
        return !second || (first && a.Sequence > b.Sequence) ? a : b;
    }

    private static void RewriteHeaders(string path, int version)
    {
        var current = ReadHeader(path);
        var page = new byte[StorageLimits.PageSize];
        using var stream = new FileStream(path, FileMode.Open, FileAccess.Write);
        foreach (var pageNumber in new long[] { 0, 1 })
        {
            (current with { FormatVersion = version, Sequence = current.Sequence + 1 + pageNumber }).WriteTo(page, pageNumber);
            stream.Position = pageNumber * StorageLimits.PageSize;
            stream.Write(page);
        }
    }
}
