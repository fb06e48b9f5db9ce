using Folio.Storage.Tests.Support;
using Folio.Storage.Trees;

namespace Folio.Storage.Tests.Trees;

public class TreeTests
{
    private static StorageEnvironment InMemory() => StorageEnvironment.Open(StorageOptions.InMemory());

    [Fact]
    public void Put_ValueIsReadBack_InSameAndLaterTransactions()
    {
        using var env = InMemory();
        using (var tx = env.BeginWrite())
        {
            var tree = tx.CreateTree("t");
            tree.Put(Keys.Of("a"), Keys.Of("one"));
            Assert.True(tree.TryGet(Keys.Of("a"), out var inTx));
            Assert.Equal("one", Keys.Text(inTx));
            tx.Commit();
        }
        using var read = env.BeginRead();
        Assert.True(read.OpenTree("t")!.TryGet(Keys.Of("a"), out var value));
        Assert.Equal("one", Keys.Text(value));
        Assert.False(read.OpenTree("t")!.TryGet(Keys.Of("b"), out _));
        env.Verify();
    }

    [Fact]
    public void Put_ManyRandomKeys_SplitsAndKeepsOrder()
    {
        using var env = InMemory();
        var random = new Random(7);
        var model = new SortedDictionary<string, byte[]>(StringComparer.Ordinal);
        using (var tx = env.BeginWrite())
        {
            var tree = tx.CreateTree("t");
            for (var i = 0; i < 20_000; i++)
            {
                var key = $"key/{random.Next(1_000_000):D7}";
                var value = Keys.Value(i, random.Next(0, 300));
                tree.Put(Keys.Of(key), value);
                model[key] = value;
            }
            tx.Commit();
        }
        env.Verify();
        using var read = env.BeginRead();
        var cursor = read.OpenTree("t")!.CreateCursor();
        var expected = model.GetEnumerator();
        for (var more = cursor.First(); more; more = cursor.MoveNext())
        {
            Assert.True(expected.MoveNext());
            Assert.Equal(expected.Current.Key, Keys.Text(cursor.Key));
            Assert.Equal(expected.Current.Value, cursor.Value.ToArray());
        }
        Assert.False(expected.MoveNext());
        Assert.Equal(model.Count, read.OpenTree("t")!.Count);
    }

    [Fact]
    public void Put_SequentialKeys_FillsPagesDensely()
    {
        using var env = InMemory();
        using (var tx = env.BeginWrite())
        {
            var tree = tx.CreateTree("t");
            for (var i = 0; i < 50_000; i++)
                tree.Put(Keys.Of(i), new byte[100]);
            tx.Commit();
        }
        env.Verify();
        using var read = env.BeginRead();
        var tree2 = read.OpenTree("t")!;
        // 50,000 entries of 8 + 100 + 7 bytes: about 70 per 8 KB page when pages are full.
        Assert.InRange(tree2.Header.LeafPages, 700, 760);
    }

    [Fact]
    public void Delete_AllKeys_MergesBackToOneEmptyLeaf()
    {
        using var env = InMemory();
        var random = new Random(11);
        var keys = new List<int>();
        using (var tx = env.BeginWrite())
        {
            var tree = tx.CreateTree("t");
            for (var i = 0; i < 10_000; i++)
            {
                tree.Put(Keys.Of(i), Keys.Value(i, 200));
                keys.Add(i);
            }
            tx.Commit();
        }
        using (var tx = env.BeginWrite())
        {
            var tree = tx.OpenTree("t")!;
            foreach (var key in keys.OrderBy(_ => random.Next()))
                Assert.True(tree.Delete(Keys.Of(key)));
            Assert.False(tree.Delete(Keys.Of(5)));
            tx.Commit();
        }
        env.Verify();
        using var read = env.BeginRead();
        var t = read.OpenTree("t")!;
        Assert.Equal(0, t.Count);
        Assert.Equal(1, t.Header.Depth);
        Assert.Equal(1, t.Header.LeafPages);
        Assert.False(t.CreateCursor().First());
    }

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(1100)]
    [InlineData(2100)]
    [InlineData(8192)]
    [InlineData(100_000)]
    [InlineData(64 << 20)]
    public void Put_ValueOfAnySize_RoundTripsAndVerifies(int size)
    {
        using var env = InMemory();
        var value = Keys.Value(size, size);
        using (var tx = env.BeginWrite())
        {
            var tree = tx.CreateTree("t");
            tree.Put(Keys.Of("before"), [1]);
            tree.Put(Keys.Of("big"), value);
            tree.Put(Keys.Of("zafter"), [2]);
            tx.Commit();
        }
        env.Verify();
        using (var read = env.BeginRead())
        {
            Assert.True(read.OpenTree("t")!.TryGet(Keys.Of("big"), out var stored));
            Assert.True(stored.SequenceEqual(value));
        }
        using (var tx = env.BeginWrite())
        {
            Assert.True(tx.OpenTree("t")!.Delete(Keys.Of("big")));
            tx.Commit();
        }
        env.Verify();
    }

    [Fact]
    public void Put_ValuesOfTwoToFourKilobytesInRandomOrder_StayInlineAndFillTheirLeaves()
    {
        using var env = InMemory();
        var random = new Random(27);
        var expected = new Dictionary<int, byte[]>();
        var order = Enumerable.Range(0, 600).OrderBy(_ => random.Next()).ToArray();
        using (var tx = env.BeginWrite())
        {
            var tree = tx.CreateTree("t");
            foreach (var i in order)
            {
                var value = new byte[random.Next(2_000, 4_000)];
                random.NextBytes(value);
                tree.Put(Keys.Of($"orders/{i}"), value);
                expected[i] = value;
            }
            tx.Commit();
        }
        using (var tx = env.BeginWrite())
        {
            // Updates that change each value's size, and deletes, move entries across splits and merges.
            var tree = tx.OpenTree("t")!;
            for (var n = 0; n < 300; n++)
            {
                var i = order[random.Next(order.Length)];
                if (n % 3 == 0)
                {
                    tree.Delete(Keys.Of($"orders/{i}"));
                    expected.Remove(i);
                    continue;
                }
                var value = new byte[random.Next(1_500, 4_100)];
                random.NextBytes(value);
                tree.Put(Keys.Of($"orders/{i}"), value);
                expected[i] = value;
            }
            tx.Commit();
        }
        env.Verify();
        using var read = env.BeginRead();
        var stored = read.OpenTree("t")!;
        foreach (var (i, value) in expected)
        {
            Assert.True(stored.TryGet(Keys.Of($"orders/{i}"), out var got), $"orders/{i} is missing");
            Assert.True(got.SequenceEqual(value), $"orders/{i} reads back other bytes");
        }
        var bytes = expected.Values.Sum(v => (long)v.Length);
        var pages = stored.Header.LeafPages + stored.Header.OverflowPages;
        var fill = bytes / (double)(pages * StorageLimits.PageSize);
        // Each value in an overflow page of its own would fill 37% of the pages.
        Assert.True(fill > 0.6, $"{expected.Count} values of 1.5–4 KB fill {fill:P0} of {pages} pages ({stored.Header.OverflowPages} overflow).");
    }

    [Fact]
    public void Put_ValueOf1100Bytes_SharesItsPage()
    {
        using var env = InMemory();
        using (var tx = env.BeginWrite())
        {
            var tree = tx.CreateTree("t");
            for (var i = 0; i < 60; i++)
                tree.Put(Keys.Of(i), new byte[1100]);
            tx.Commit();
        }
        using var read = env.BeginRead();
        var header = read.OpenTree("t")!.Header;
        Assert.Equal(0, header.OverflowPages);
        Assert.True(header.LeafPages <= 10, $"60 values of 1.1 KB took {header.LeafPages} leaf pages.");
    }

    [Fact]
    public void Put_ReplacingValuesOfOtherSizes_KeepsOneEntryPerKey()
    {
        using var env = InMemory();
        using (var tx = env.BeginWrite())
        {
            var tree = tx.CreateTree("t");
            foreach (var size in new[] { 10, 10, 500, 20_000, 3, 20_000, 0 })
            {
                tree.Put(Keys.Of("k"), Keys.Value(size, size));
                Assert.True(tree.TryGet(Keys.Of("k"), out var value));
                Assert.Equal(size, value.Length);
            }
            Assert.Equal(1, tree.Count);
            tx.Commit();
        }
        env.Verify();
    }

    [Fact]
    public void Put_MaxSizeKeys_SplitsBranches()
    {
        using var env = InMemory();
        using (var tx = env.BeginWrite())
        {
            var tree = tx.CreateTree("t");
            for (var i = 0; i < 2000; i++)
            {
                var key = new byte[StorageLimits.MaxKeySize];
                new Random(i).NextBytes(key);
                tree.Put(key, Keys.Value(i, 50));
            }
            tx.Commit();
        }
        env.Verify();
        using var read = env.BeginRead();
        Assert.True(read.OpenTree("t")!.Header.Depth >= 3);
    }

    [Fact]
    public void Put_KeyTooLargeOrEmpty_ThrowsAndChangesNothing()
    {
        using var env = InMemory();
        using var tx = env.BeginWrite();
        var tree = tx.CreateTree("t");
        Assert.Throws<InvalidKeyException>(() => tree.Put(new byte[StorageLimits.MaxKeySize + 1], [1]));
        Assert.Throws<InvalidKeyException>(() => tree.Put([], [1]));
        Assert.Equal(0, tree.Count);
    }

    [Fact]
    public void Cursor_SeekAndBothDirections_VisitEveryKey()
    {
        using var env = InMemory();
        using (var tx = env.BeginWrite())
        {
            var tree = tx.CreateTree("t");
            for (var i = 0; i < 5000; i += 2)
                tree.Put(Keys.Of(i), Keys.Value(i, 40));
            tx.Commit();
        }
        using var read = env.BeginRead();
        var cursor = read.OpenTree("t")!.CreateCursor();
        Assert.True(cursor.Seek(Keys.Of(101)));
        Assert.Equal(Keys.Of(102), cursor.Key.ToArray());
        Assert.True(cursor.Seek(Keys.Of(100)));
        Assert.Equal(Keys.Of(100), cursor.Key.ToArray());
        Assert.False(cursor.Seek(Keys.Of(5000)));
        Assert.True(cursor.SeekLastAtOrBefore(Keys.Of(5000)));
        Assert.Equal(Keys.Of(4998), cursor.Key.ToArray());

        var backwards = 0;
        for (var more = cursor.Last(); more; more = cursor.MovePrevious())
        {
            Assert.Equal(Keys.Of(4998 - 2 * backwards), cursor.Key.ToArray());
            backwards++;
        }
        Assert.Equal(2500, backwards);
        Assert.False(cursor.IsValid);
        Assert.False(cursor.MoveNext());
    }

    [Fact]
    public void Cursor_EmptyTree_HasNoEntries()
    {
        using var env = InMemory();
        using (var tx = env.BeginWrite())
        {
            tx.CreateTree("t");
            tx.Commit();
        }
        using var read = env.BeginRead();
        var cursor = read.OpenTree("t")!.CreateCursor();
        Assert.False(cursor.First());
        Assert.False(cursor.Last());
        Assert.False(cursor.Seek(Keys.Of("a")));
        Assert.Throws<InvalidOperationException>(() => cursor.Key.ToArray());
    }

    [Fact]
    public void DeleteTree_FreesItsPages_ForReuse()
    {
        using var env = InMemory();
        using (var tx = env.BeginWrite())
        {
            var tree = tx.CreateTree("t");
            for (var i = 0; i < 10_000; i++)
                tree.Put(Keys.Of(i), Keys.Value(i, i % 10 == 0 ? 5000 : 100));
            tx.Commit();
        }
        var before = env.GetStats();
        using (var tx = env.BeginWrite())
        {
            Assert.True(tx.DeleteTree("t"));
            Assert.Null(tx.OpenTree("t"));
            tx.Commit();
        }
        env.Verify();
        var after = env.GetStats();
        Assert.True(after.FreePages > before.AllocatedPages - 20, $"{after.FreePages} free of {before.AllocatedPages}");
    }

    [Fact]
    public void OpenTree_OfAnotherKind_Throws()
    {
        using var env = InMemory();
        using var tx = env.BeginWrite();
        tx.CreateMultiValueTree("m");
        Assert.Throws<InvalidOperationException>(() => tx.OpenTree("m"));
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    public void PutAndDelete_ClusteredOnFewLeavesInOneTransaction_KeepOrderAndContents(int seed)
    {
        // Runs of operations on nearby keys hit the leaf the previous operation reached (the tree skips the
        // descent then), while the values' sizes make leaves and branches split and merge under those runs.
        using var env = InMemory();
        var random = new Random(seed);
        var model = new SortedDictionary<int, int>();
        using (var tx = env.BeginWrite())
        {
            var tree = tx.CreateTree("t");
            for (var run = 0; run < 3_000; run++)
            {
                var center = random.Next(300, 200_000);
                var length = random.Next(1, 60);
                for (var op = 0; op < length; op++)
                {
                    var key = center + random.Next(-300, 300);
                    if (random.Next(4) == 0)
                    {
                        Assert.Equal(model.Remove(key), tree.Delete(Keys.Of(key)));
                        continue;
                    }
                    var size = random.Next(4, 1_500);
                    tree.Put(Keys.Of(key), Keys.Value(key * 7 + size, size));
                    model[key] = size;
                }
                var probe = center + random.Next(-300, 300);
                Assert.Equal(model.TryGetValue(probe, out var expected), tree.TryGet(Keys.Of(probe), out var value));
                if (model.ContainsKey(probe))
                    Assert.True(value.SequenceEqual(Keys.Value(probe * 7 + expected, expected)));
            }
            tx.Commit();
        }
        env.Verify();
        using var read = env.BeginRead();
        var cursor = read.OpenTree("t")!.CreateCursor();
        var more = cursor.First();
        foreach (var (key, size) in model)
        {
            Assert.True(more);
            Assert.True(cursor.Key.SequenceEqual(Keys.Of(key)));
            Assert.True(cursor.Value.SequenceEqual(Keys.Value(key * 7 + size, size)));
            more = cursor.MoveNext();
        }
        Assert.False(more);
    }
}
