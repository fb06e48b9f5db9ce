using Folio.Indexing.Postings;
using static Folio.Indexing.Tests.Postings.PostingsTestData;

namespace Folio.Indexing.Tests.Postings;

public class PostingsIteratorTests
{
    public static TheoryData<int, Gaps> Lists()
    {
        var data = new TheoryData<int, Gaps>();
        foreach (var size in new[] { 1, 127, 128, 129, 1000, 20_000 })
        {
            data.Add(size, Gaps.Mixed);
            data.Add(size, Gaps.Dense);
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(Lists))]
    public void Advance_FromTheStart_LandsOnEveryId(int size, Gaps gaps)
    {
        var ids = Ids(size, size, gaps);
        var frequencies = Frequencies(size, size + 1);
        var encoded = PostingsEncoder.EncodeToArray(ids, frequencies);
        var iterator = new PostingsIterator();

        for (var i = 0; i < ids.Length; i++)
        {
            iterator.Reset(encoded);
            Assert.True(iterator.Advance(ids[i]));
            Assert.Equal(ids[i], iterator.Current);
            Assert.Equal(frequencies[i], iterator.Frequency);

            // A target inside the gap before an id lands on that id.
            iterator.Reset(encoded);
            Assert.True(iterator.Advance(ids[i] - 1));
            Assert.Equal(ids[i] - 1 == (i > 0 ? ids[i - 1] : -2) ? ids[i - 1] : ids[i], iterator.Current);

            // And iteration carries on from there.
            iterator.Reset(encoded);
            iterator.Advance(ids[i]);
            if (i + 1 < ids.Length)
            {
                Assert.True(iterator.MoveNext());
                Assert.Equal(ids[i + 1], iterator.Current);
            }
            else
            {
                Assert.False(iterator.MoveNext());
            }
        }
    }

    [Theory]
    [MemberData(nameof(Lists))]
    public void Advance_InOrder_VisitsEveryIdAndThenEnds(int size, Gaps gaps)
    {
        var ids = Ids(size, size * 3, gaps);
        var iterator = new PostingsIterator(PostingsEncoder.EncodeToArray(ids));

        for (var i = 0; i < ids.Length; i++)
        {
            Assert.True(iterator.Advance(ids[i]));
            Assert.Equal(ids[i], iterator.Current);
            Assert.True(iterator.Advance(ids[i]));
            Assert.Equal(ids[i], iterator.Current);
        }

        Assert.False(iterator.Advance(ids[^1] + 1));
        Assert.False(iterator.MoveNext());
        Assert.False(iterator.Advance(long.MaxValue));
    }

    [Theory]
    [MemberData(nameof(Lists))]
    public void Advance_PastTheLastId_ReturnsFalse(int size, Gaps gaps)
    {
        var ids = Ids(size, 17, gaps);
        var iterator = new PostingsIterator(PostingsEncoder.EncodeToArray(ids));

        Assert.False(iterator.Advance(ids[^1] + 1));
        Assert.False(iterator.MoveNext());
    }

    [Theory]
    [InlineData(long.MinValue)]
    [InlineData(-1L)]
    [InlineData(0L)]
    public void Advance_BeforeTheFirstId_LandsOnTheFirstId(long target)
    {
        var ids = Ids(1000, 4, Gaps.Mixed, start: 1000);
        var iterator = new PostingsIterator(PostingsEncoder.EncodeToArray(ids));

        Assert.True(iterator.Advance(target));
        Assert.Equal(ids[0], iterator.Current);
        Assert.True(iterator.MoveNext());
        Assert.Equal(ids[1], iterator.Current);
    }

    [Fact]
    public void Advance_ToATargetBehindTheCurrentId_DoesNotMove()
    {
        var ids = Ids(1000, 8);
        var iterator = new PostingsIterator(PostingsEncoder.EncodeToArray(ids));

        Assert.True(iterator.Advance(ids[500]));
        Assert.True(iterator.Advance(ids[10]));
        Assert.Equal(ids[500], iterator.Current);
        Assert.True(iterator.MoveNext());
        Assert.Equal(ids[501], iterator.Current);
    }

    [Fact]
    public void Advance_RandomForwardTargets_MatchesABinarySearchOracle()
    {
        var random = new Random(99);
        foreach (var gaps in Enum.GetValues<Gaps>())
        {
            var ids = Ids(50_000, 21, gaps);
            var iterator = new PostingsIterator(PostingsEncoder.EncodeToArray(ids));
            var target = -1L;
            while (true)
            {
                // Mix short hops (inside a block) with long ones (across many blocks).
                var span = ids[^1] - ids[0];
                target += random.Next(4) == 0 ? random.NextInt64(1, Math.Max(2, span / 50)) : random.NextInt64(1, Math.Max(2, span / 20_000));
                var expected = Array.BinarySearch(ids, target);
                expected = expected < 0 ? ~expected : expected;
                var found = iterator.Advance(target);
                if (expected == ids.Length)
                {
                    Assert.False(found);
                    break;
                }

                Assert.True(found);
                Assert.Equal(ids[expected], iterator.Current);
                target = iterator.Current;
            }
        }
    }

    [Fact]
    public void Advance_LeapFrogIntersection_MatchesASetIntersection()
    {
        var a = Ids(30_000, 1, Gaps.Dense);
        var b = Ids(3_000, 2, Gaps.Mixed, start: 0).Where(id => id <= a[^1] * 2).ToArray();
        var expected = a.Intersect(b).ToArray();
        var left = new PostingsIterator(PostingsEncoder.EncodeToArray(a));
        var right = new PostingsIterator(PostingsEncoder.EncodeToArray(b));
        var actual = new List<long>();

        var more = left.MoveNext() && right.Advance(left.Current);
        while (more)
        {
            if (left.Current == right.Current)
            {
                actual.Add(left.Current);
                more = left.MoveNext() && right.Advance(left.Current);
            }
            else
            {
                more = left.Advance(right.Current) && right.Advance(left.Current);
            }
        }

        Assert.Equal(expected, actual);
    }

    [Fact]
    public void Count_IsReadFromTheHeader_BeforeIterating()
    {
        var iterator = new PostingsIterator(PostingsEncoder.EncodeToArray(Ids(100_000, 3), Frequencies(100_000, 4)));

        Assert.Equal(100_000, iterator.Count);
        Assert.True(iterator.HasFrequencies);
        Assert.Equal(-1, iterator.Current);
    }

    [Fact]
    public void MoveNext_OnAnEmptyList_ReturnsFalse()
    {
        var iterator = new PostingsIterator(PostingsEncoder.EncodeToArray([]));

        Assert.Equal(0, iterator.Count);
        Assert.False(iterator.MoveNext());
        Assert.False(iterator.Advance(0));
        Assert.False(new PostingsIterator().MoveNext());
    }

    [Fact]
    public void Frequency_WithoutStoredFrequencies_IsOne()
    {
        var iterator = new PostingsIterator(PostingsEncoder.EncodeToArray(Ids(300, 1)));

        Assert.False(iterator.HasFrequencies);
        Assert.True(iterator.Advance(0));
        Assert.Equal(1, iterator.Frequency);
    }

    [Fact]
    public void Reset_ReusesTheIterator_AcrossListsOfBothLayouts()
    {
        var iterator = new PostingsIterator();
        foreach (var size in new[] { 1000, 5, 129, 0, 128 })
        {
            var ids = Ids(size, size);
            iterator.Reset(PostingsEncoder.EncodeToArray(ids));
            var seen = new List<long>();
            while (iterator.MoveNext())
            {
                seen.Add(iterator.Current);
            }

            Assert.Equal(ids, seen);
        }
    }

    [Fact]
    public void MoveNext_AfterWarmUp_DoesNotAllocate()
    {
        var encoded = PostingsEncoder.EncodeToArray(Ids(100_000, 6), Frequencies(100_000, 7));
        var iterator = new PostingsIterator(encoded);
        Drain(iterator, encoded);

        // The JIT may tier a long loop up in the middle of a drain and allocate once on this thread while doing it
        // (seen under a loaded full run); an allocation per posting would show in every drain, so the least of a few counts.
        var fewest = long.MaxValue;
        long sum = 0;
        for (var run = 0; run < 3 && fewest != 0; run++)
        {
            var before = GC.GetAllocatedBytesForCurrentThread();
            sum = Drain(iterator, encoded);
            fewest = Math.Min(fewest, GC.GetAllocatedBytesForCurrentThread() - before);
        }

        Assert.NotEqual(0, sum);
        Assert.Equal(0, fewest);
    }

    private static long Drain(PostingsIterator iterator, byte[] encoded)
    {
        iterator.Reset(encoded);
        long sum = 0;
        while (iterator.MoveNext())
        {
            sum += iterator.Current + iterator.Frequency;
        }

        iterator.Reset(encoded);
        var target = 0L;
        while (iterator.Advance(target))
        {
            target = iterator.Current + 1_000_000_000;
        }

        return sum;
    }
}
