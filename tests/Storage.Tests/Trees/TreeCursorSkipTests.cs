using Folio.Storage.Tests.Support;
using Folio.Storage.Trees;

namespace Folio.Storage.Tests.Trees;

/// <summary>
/// <see cref="TreeCursor.Skip(int)"/> and <see cref="MultiValueCursor.Skip"/> jump within leaves; each case here
/// positions a second cursor by stepping and requires the same count and the same position.
/// </summary>
public sealed class TreeCursorSkipTests : IDisposable
{
    private const int Entries = 20_000;
    private readonly TempDirectory _directory = new("skip");
    private readonly StorageEnvironment _environment;

    public TreeCursorSkipTests() => _environment = StorageEnvironment.Open(StorageOptions.ForPath(_directory.Path));

    public void Dispose()
    {
        _environment.Dispose();
        _directory.Dispose();
    }

    [Fact]
    public void Skip_FromFirst_MatchesSteppingAtEveryKindOfLeafBoundary()
    {
        WriteTree("t", Enumerable.Range(0, Entries).Select(i => Keys.Of(i)), valueLength: 100);
        using var read = _environment.BeginRead();
        var tree = read.OpenTree("t")!;
        var leaves = LeafSizes(tree);
        Assert.True(leaves.Count > 200, $"{leaves.Count} leaves: the tree must span many");
        var firstLeaf = leaves[0];
        var tenLeaves = leaves.Take(10).Sum();
        int[] counts = [0, 1, firstLeaf / 2, firstLeaf - 2, firstLeaf - 1, firstLeaf, firstLeaf + 1, tenLeaves - 1, tenLeaves, Entries / 2 + 3, Entries - 2, Entries - 1, Entries, Entries + 1_000, int.MaxValue];
        foreach (var count in counts)
            AssertSkipMatchesStepping(tree, start: null, count, prefix: []);
    }

    [Fact]
    public void Skip_FromTheMiddleOfALeaf_MatchesSteppingAndCountsToTheEnd()
    {
        WriteTree("t", Enumerable.Range(0, Entries).Select(i => Keys.Of(i)), valueLength: 100);
        using var read = _environment.BeginRead();
        var tree = read.OpenTree("t")!;
        var leaves = LeafSizes(tree);
        var start = leaves[0] + leaves[1] / 2;
        var toEndOfLeaf = leaves[0] + leaves[1] - 1 - start;
        foreach (var count in new[] { 0, 1, toEndOfLeaf, toEndOfLeaf + 1, 5_000, Entries - 1 - start, Entries - start, Entries })
            AssertSkipMatchesStepping(tree, Keys.Of(start), count, prefix: []);

        var cursor = tree.CreateCursor();
        Assert.True(cursor.Seek(Keys.Of(start)));
        Assert.Equal(Entries - 1 - start, cursor.Skip(Entries));
        Assert.False(cursor.IsValid);
        Assert.False(cursor.MoveNext());
        Assert.Equal(0, cursor.Skip(5));
    }

    [Fact]
    public void Skip_WithPrefix_StopsOnTheFirstKeyAfterTheRange_LikeStepping()
    {
        // "b/" spans many leaves; "a/" before it and "c/" after it share leaves with its ends.
        var keys = Range("a/", 500).Concat(Range("b/", 6_000)).Concat(Range("c/", 500));
        WriteTree("t", keys, valueLength: 60);
        using var read = _environment.BeginRead();
        var tree = read.OpenTree("t")!;
        foreach (var count in new[] { 0, 1, 37, 3_000, 5_998, 5_999, 6_000, 6_001, 100_000 })
            AssertSkipMatchesStepping(tree, Keys.Of("b/"), count, Keys.Of("b/"));

        var cursor = tree.CreateCursor();
        Assert.True(cursor.Seek(Keys.Of("b/")));
        Assert.Equal(5_999, cursor.Skip(10_000, Keys.Of("b/")));
        Assert.Equal("c/000000", Keys.Text(cursor.Key));
    }

    [Fact]
    public void Skip_WithPrefixAndBound_StopsOnTheFirstKeyNotBelowTheBound_LikeStepping()
    {
        var keys = Range("a/", 500).Concat(Range("b/", 6_000)).Concat(Range("c/", 500));
        WriteTree("t", keys, valueLength: 60);
        using var read = _environment.BeginRead();
        var tree = read.OpenTree("t")!;
        foreach (var bound in new[] { "b/000001", "b/000100", "b/003000", "b/005999", "b/006000", "b/9", "c/000010" })
        {
            foreach (var count in new[] { 0, 1, 37, 99, 100, 101, 2_999, 3_000, 3_001, 6_000, 100_000 })
                AssertSkipMatchesStepping(tree, Keys.Of("b/000000"), count, Keys.Of("b/"), Keys.Of(bound));
        }
        foreach (var count in new[] { 1, 400, 499, 500, 501, 4_000, 100_000 })
            AssertSkipMatchesStepping(tree, null, count, [], Keys.Of("b/002000"));

        var cursor = tree.CreateCursor();
        Assert.True(cursor.Seek(Keys.Of("b/")));
        Assert.Equal(2_999, cursor.Skip(10_000, Keys.Of("b/"), Keys.Of("b/003000")));
        Assert.Equal("b/003000", Keys.Text(cursor.Key));
    }

    [Fact]
    public void TryPeekNextInLeaf_AtEveryEntry_IsTheNextKeyWithinALeafAndFalseAtItsEnd()
    {
        WriteTree("t", Enumerable.Range(0, Entries).Select(i => Keys.Of(i)), valueLength: 100);
        using var read = _environment.BeginRead();
        var tree = read.OpenTree("t")!;
        var leaves = LeafSizes(tree);
        var cursor = tree.CreateCursor();
        Assert.False(cursor.TryPeekNextInLeaf(out _));
        var ends = 0;
        for (var more = cursor.First(); more;)
        {
            var peeked = cursor.TryPeekNextInLeaf(out var next) ? next.ToArray() : null;
            more = cursor.MoveNext();
            if (peeked is null)
                ends++;
            else
                Assert.Equal(peeked, cursor.Key.ToArray());
        }
        Assert.Equal(leaves.Count, ends);
    }

    [Fact]
    public void Skip_NegativeCount_Throws()
    {
        WriteTree("t", Range("k/", 10), valueLength: 1);
        using var read = _environment.BeginRead();
        var cursor = read.OpenTree("t")!.CreateCursor();
        Assert.True(cursor.First());
        Assert.Throws<ArgumentOutOfRangeException>(() => cursor.Skip(-1));
        Assert.Equal("k/000000", Keys.Text(cursor.Key));
    }

    [Fact]
    public void MultiValueSkip_OnAKeyWithNeighbours_StopsExactlyAtTheEndOfItsValues()
    {
        const int Values = 20_000;
        using (var write = _environment.BeginWrite())
        {
            var tree = write.CreateMultiValueTree("m");
            for (var i = 0; i < 700; i++)
            {
                tree.Add(Keys.Of("apple"), Keys.Of(i));
                tree.Add(Keys.Of("banana2"), Keys.Of(i));
                tree.Add(Keys.Of("cherry"), Keys.Of(i));
            }
            for (var i = 0; i < Values; i++)
                tree.Add(Keys.Of("banana"), Keys.Of(i * 3));
            write.Commit();
        }
        using var read = _environment.BeginRead();
        var values = read.OpenMultiValueTree("m")!;
        foreach (var count in new[] { 0, 1, 2, 150, 4_321, Values - 1, Values, Values + 1, 1_000_000 })
        {
            var skipping = values.OpenValues(Keys.Of("banana"));
            var stepping = values.OpenValues(Keys.Of("banana"));
            var skipped = skipping.Skip(count);
            var stepped = Step(stepping, count);
            Assert.Equal(stepped, skipped);
            Assert.Equal(Math.Min(count, Values), skipped);
            if (skipped > 0 && skipped == count)
                Assert.Equal(stepping.Value.ToArray(), skipping.Value.ToArray());
            Assert.Equal(stepping.MoveNext(), skipping.MoveNext());
            if (skipped < Values)
                Assert.Equal(stepping.Value.ToArray(), skipping.Value.ToArray());
        }

        var cursor = values.OpenValues(Keys.Of("banana"));
        Assert.True(cursor.MoveNext());
        Assert.Equal(1_000, cursor.Skip(1_000));
        Assert.Equal(Keys.Of(3_000), cursor.Value.ToArray());
        Assert.Equal(Values - 1_001, cursor.Skip(Values));
        Assert.False(cursor.MoveNext());
        Assert.Equal(0, cursor.Skip(1));
        Assert.True(cursor.Seek(Keys.Of(30)));
        Assert.Equal(2, cursor.Skip(2));
        Assert.Equal(Keys.Of(36), cursor.Value.ToArray());
        Assert.Equal(0, values.OpenValues(Keys.Of("blueberry")).Skip(10));
    }

    [Fact]
    public void Skip_OnRandomTrees_EqualsSteppingTheSameNumberOfTimes()
    {
        var random = new Random(20261126);
        for (var trial = 0; trial < 12; trial++)
        {
            var name = $"r{trial}";
            var model = new SortedSet<byte[]>(ByteArrayComparer.Ordinal);
            using (var write = _environment.BeginWrite())
            {
                var tree = write.CreateTree(name);
                var size = random.Next(0, 6_000);
                for (var i = 0; i < size; i++)
                {
                    var key = Keys.Of($"{(char)('a' + random.Next(4))}/{random.Next(1_000_000):D7}");
                    tree.Put(key, Keys.Value(i, random.Next(0, 400)));
                    model.Add(key);
                }
                // Deleting runs of keys leaves half-empty leaves and merges, so leaves differ in size.
                foreach (var key in model.Where((_, i) => i % 7 < random.Next(0, 5)).ToList())
                {
                    tree.Delete(key);
                    model.Remove(key);
                }
                write.Commit();
            }
            using var read = _environment.BeginRead();
            var readTree = read.OpenTree(name)!;
            Assert.Equal(model.Count, readTree.Count);
            for (var probe = 0; probe < 60; probe++)
            {
                var start = Keys.Of($"{(char)('a' + random.Next(4))}/{random.Next(1_000_000):D7}");
                byte[] prefix = random.Next(3) == 0 ? [] : start[..2];
                var count = random.Next(4) == 0 ? random.Next(model.Count + 10) : random.Next(300);
                AssertSkipMatchesStepping(readTree, start, count, prefix);
            }
        }
    }

    private void WriteTree(string name, IEnumerable<byte[]> keys, int valueLength)
    {
        using var write = _environment.BeginWrite();
        var tree = write.CreateTree(name);
        var value = new byte[valueLength];
        foreach (var key in keys)
            tree.Put(key, value);
        write.Commit();
    }

    private static IEnumerable<byte[]> Range(string prefix, int count) => Enumerable.Range(0, count).Select(i => Keys.Of($"{prefix}{i:D6}"));

    /// <summary>Positions two cursors at <paramref name="start"/> (the first key when null), skips with one and steps the other.</summary>
    private static void AssertSkipMatchesStepping(Tree tree, byte[]? start, int count, byte[] prefix, byte[]? below = null)
    {
        below ??= [];
        var skipping = tree.CreateCursor();
        var stepping = tree.CreateCursor();
        var positioned = start is null ? skipping.First() : skipping.Seek(start);
        Assert.Equal(positioned, start is null ? stepping.First() : stepping.Seek(start));
        if (positioned && !stepping.Key.StartsWith(prefix))
            return;
        var skipped = skipping.Skip(count, prefix, below);
        var stepped = 0;
        while (stepped < count && stepping.MoveNext() && stepping.Key.StartsWith(prefix) && (below.Length == 0 || stepping.Key.SequenceCompareTo(below) < 0))
            stepped++;
        var at = start is null ? "the first key" : Keys.Text(start);
        Assert.True(stepped == skipped, $"Skip({count}) from {at} with prefix '{Keys.Text(prefix)}' skipped {skipped}, stepping {stepped}");
        Assert.Equal(stepping.IsValid, skipping.IsValid);
        if (stepping.IsValid)
            Assert.True(stepping.Key.SequenceEqual(skipping.Key), $"Skip({count}) from {at} stopped on {Keys.Text(skipping.Key)}, stepping on {Keys.Text(stepping.Key)}");
    }

    private static int Step(MultiValueCursor cursor, int count)
    {
        var stepped = 0;
        while (stepped < count && cursor.MoveNext())
            stepped++;
        return stepped;
    }

    /// <summary>The entry count of each leaf in key order, read from the pages.</summary>
    private static List<int> LeafSizes(Tree tree)
    {
        var sizes = new List<int>();
        Collect(tree, tree.Header.RootPage, sizes);
        return sizes;

        static void Collect(Tree tree, long pageNumber, List<int> sizes)
        {
            var page = tree.GetPage(pageNumber);
            if (TreePage.IsLeaf(page))
            {
                sizes.Add(TreePage.Count(page));
                return;
            }
            var count = TreePage.Count(page);
            var children = new long[count];
            for (var i = 0; i < count; i++)
                children[i] = TreePage.BranchChild(page, i);
            foreach (var child in children)
                Collect(tree, child, sizes);
        }
    }
}
