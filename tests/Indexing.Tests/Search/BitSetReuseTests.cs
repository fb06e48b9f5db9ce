using Folio.Indexing.Queries;
using Folio.Indexing.Queries.Iterators;
using Folio.Indexing.Search;
using Folio.Storage;

using static Folio.Indexing.Tests.Search.DocIdIterators;

namespace Folio.Indexing.Tests.Search;

/// <summary>A searcher hands the bit set of an exhausted range, prefix or wildcard union to the next one.</summary>
public class BitSetReuseTests
{
    private static SearchIndex OpenWithNumbers(int count)
    {
        var index = SearchIndex.Open(StorageOptions.InMemory(), new IndexSchema().Add("Num", FieldKind.Long).Add("Tag", FieldKind.Exact));
        using var batch = index.BeginBatch();
        for (var i = 0; i < count; i++)
            batch.Add(new IndexEntry($"k{i}").Add("Num", (long)i).Add("Tag", i % 2 == 0 ? $"even{i}" : $"odd{i}"));
        batch.Commit();
        return index;
    }

    private static RangeQuery Nums(long from, long to) => new("Num", FieldValue.From(from), true, FieldValue.From(to), true);

    [Fact]
    public void UnionOfTerms_ConsecutiveRangesOnOneSearcher_SeeOnlyTheirOwnIds()
    {
        using var index = OpenWithNumbers(300);
        using var searcher = index.OpenSearcher();
        for (var round = 0; round < 3; round++)
        {
            Assert.Equal(Enumerable.Range(10, 11).Select(i => (long)i), Drain(searcher.Iterate(Nums(10, 20))));
            Assert.Equal(Enumerable.Range(250, 50).Select(i => (long)i), Drain(searcher.Iterate(Nums(250, 1000))));
            // odd1, odd11..odd19 and odd101..odd199 (odd numbers only).
            Assert.Equal(56, searcher.Count(new PrefixQuery("Tag", "odd1")));
        }
    }

    [Fact]
    public void UnionOfTerms_TwoUnionsAliveAtOnce_KeepSeparateSets()
    {
        using var index = OpenWithNumbers(300);
        using var searcher = index.OpenSearcher();
        Drain(searcher.Iterate(Nums(0, 5)));
        var first = searcher.Iterate(Nums(100, 102));
        var second = searcher.Iterate(Nums(200, 201));
        Assert.Equal([100L, 101, 102], Drain(first));
        Assert.Equal([200L, 201], Drain(second));
        Assert.Equal([100L, 101, 102, 200, 201], Drain(searcher.Iterate(new OrQuery([Nums(100, 102), Nums(200, 201)]))));
        Assert.Equal([150L], Drain(searcher.Iterate(new AndQuery([Nums(100, 200), Nums(150, 300), Nums(0, 150)]))));
    }

    [Fact]
    public void UnionOfTerms_RandomStepsAndLeapsAcrossReusedSets_MatchTheExpectedIds()
    {
        const int count = 5000;
        using var index = OpenWithNumbers(count);
        using var searcher = index.OpenSearcher();
        var random = new Random(17);
        for (var round = 0; round < 300; round++)
        {
            var from = random.Next(count);
            var to = from + random.Next(count / 4);
            var expected = Enumerable.Range(from, Math.Min(to, count - 1) - from + 1).Select(i => (long)i).ToList();
            var range = searcher.Iterate(Nums(from, to));
            while (true)
            {
                // Leaps of every size: within a word, to the next word, and across many words or past the end.
                var target = range.Current + 1;
                var leap = random.Next(3) != 0;
                if (leap)
                    target += random.Next(random.Next(2) == 0 ? 70 : 2000);
                var moved = leap ? range.Advance(target) : range.MoveNext();
                var next = expected.FindIndex(id => id >= target);
                Assert.Equal(next >= 0, moved);
                if (!moved)
                    break;
                Assert.Equal(expected[next], range.Current);
            }
            // A set left with stray bits would show them in the next union, which likely covers other ids.
            var other = random.Next(count);
            Assert.Equal(Enumerable.Range(other, Math.Min(other + 9, count - 1) - other + 1).Select(i => (long)i), Drain(searcher.Iterate(Nums(other, other + 9))));
        }
        Assert.False(searcher.Iterate(Nums(0, count)).Advance(DocIdIterator.NoMoreIds));
        Assert.Equal(count, searcher.Count(Nums(0, count)));
    }

    [Fact]
    public void MoveNext_AfterExhaustion_StaysExhausted()
    {
        using var index = OpenWithNumbers(100);
        using var searcher = index.OpenSearcher();
        var range = searcher.Iterate(Nums(3, 4));
        Assert.Equal([3L, 4], Drain(range));
        Assert.Equal([50L], Drain(searcher.Iterate(Nums(50, 50))));
        Assert.False(range.MoveNext());
        Assert.False(range.Advance(0));
        Assert.Equal(DocIdIterator.NoMoreIds, range.Current);
    }
}
