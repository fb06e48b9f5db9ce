using System.Buffers;
using Folio.Indexing.Postings;
using static Folio.Indexing.Tests.Postings.PostingsTestData;

namespace Folio.Indexing.Tests.Postings;

public class PostingsMergerTests
{
    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(127)]
    [InlineData(128)]
    [InlineData(129)]
    [InlineData(1000)]
    [InlineData(30_000)]
    public void Merge_AdditionsAndRemovals_MatchASortedSetOracle(int size)
    {
        for (var seed = 0; seed < 5; seed++)
        {
            var random = new Random(seed * 1000 + size);
            var ids = Ids(size, seed, Gaps.Dense);
            var oracle = new SortedSet<long>(ids);
            var (additions, removals) = Batch(random, ids, out _);
            oracle.ExceptWith(removals);
            oracle.UnionWith(additions);

            var merged = PostingsMerger.Merge(PostingsEncoder.EncodeToArray(ids), additions, default, removals);

            Assert.Equal(oracle.ToArray(), DecodeAll(merged, out _));
        }
    }

    [Theory]
    [InlineData(0)]
    [InlineData(200)]
    [InlineData(5000)]
    public void Merge_WithFrequencies_KeepsOldAndTakesNewFrequencies(int size)
    {
        for (var seed = 0; seed < 5; seed++)
        {
            var random = new Random(seed + size);
            var ids = Ids(size, seed, Gaps.Mixed);
            var frequencies = Frequencies(size, seed);
            var oracle = new SortedDictionary<long, int>();
            for (var i = 0; i < ids.Length; i++)
            {
                oracle[ids[i]] = frequencies[i];
            }

            var (additions, removals) = Batch(random, ids, out var additionFrequencies);
            foreach (var id in removals)
            {
                oracle.Remove(id);
            }

            for (var i = 0; i < additions.Length; i++)
            {
                oracle[additions[i]] = additionFrequencies[i];
            }

            var writer = new ArrayBufferWriter<byte>();
            var count = PostingsMerger.Merge(PostingsEncoder.EncodeToArray(ids, frequencies), additions, additionFrequencies, removals, writer);
            var mergedIds = DecodeAll(writer.WrittenSpan.ToArray(), out var mergedFrequencies);

            Assert.Equal(oracle.Count, count);
            Assert.Equal(oracle.Keys.ToArray(), mergedIds);
            Assert.Equal(oracle.Values.ToArray(), mergedFrequencies);
        }
    }

    [Fact]
    public void Merge_IntoNoList_EncodesTheAdditions()
    {
        var merged = PostingsMerger.Merge([], [3, 9], [2, 1], [9, 40]);

        Assert.Equal(new long[] { 3, 9 }, DecodeAll(merged, out var frequencies));
        Assert.Equal(new[] { 2, 1 }, frequencies);
    }

    [Fact]
    public void Merge_RemovingEverything_ReturnsZeroAndAnEmptyList()
    {
        var ids = Ids(500, 1);
        var writer = new ArrayBufferWriter<byte>();

        var count = PostingsMerger.Merge(PostingsEncoder.EncodeToArray(ids), [], default, ids, writer);

        Assert.Equal(0, count);
        Assert.Equal(0, PostingsDecoder.GetCount(writer.WrittenSpan));
    }

    [Fact]
    public void Merge_Throws_WhenFrequenciesDoNotMatchTheList()
    {
        var withFrequencies = PostingsEncoder.EncodeToArray([1, 2], [1, 1]);
        var without = PostingsEncoder.EncodeToArray([1, 2]);

        Assert.Throws<ArgumentException>(() => PostingsMerger.Merge(withFrequencies, [5], default, []));
        Assert.Throws<ArgumentException>(() => PostingsMerger.Merge(without, [5], [1], []));
        Assert.Throws<ArgumentException>(() => PostingsMerger.Merge(without, [5, 6], [1], []));
    }

    [Fact]
    public void Merge_Throws_WhenABatchIsNotSorted()
    {
        var list = PostingsEncoder.EncodeToArray([1, 2]);

        Assert.Throws<ArgumentException>(() => PostingsMerger.Merge(list, [5, 4], default, []));
        Assert.Throws<ArgumentException>(() => PostingsMerger.Merge(list, [], default, [2, 2]));
    }

    [Fact]
    public void Merge_Throws_WhenTheExistingListIsCorrupt()
    {
        var list = PostingsEncoder.EncodeToArray(Ids(300, 2));

        Assert.Throws<InvalidDataException>(() => PostingsMerger.Merge(list.AsSpan(0, list.Length - 1), [5], default, []));
    }

    /// <summary>Additions: some new ids, some already present (frequency updates); removals: some
    /// present, some absent, some also added.</summary>
    private static (long[] Additions, long[] Removals) Batch(Random random, long[] ids, out int[] additionFrequencies)
    {
        var max = ids.Length == 0 ? 1000 : ids[^1] + 1000;
        var additions = new SortedSet<long>();
        var removals = new SortedSet<long>();
        var changes = random.Next(0, 2 + ids.Length / 5);
        for (var i = 0; i < changes; i++)
        {
            var present = ids.Length > 0 && random.Next(2) == 0 ? ids[random.Next(ids.Length)] : random.NextInt64(0, max);
            switch (random.Next(3))
            {
                case 0:
                    additions.Add(present);
                    break;
                case 1:
                    removals.Add(present);
                    break;
                default:
                    additions.Add(present);
                    removals.Add(present);
                    break;
            }
        }

        additionFrequencies = Frequencies(additions.Count, random.Next());
        return (additions.ToArray(), removals.ToArray());
    }
}
