using Folio.Indexing.Queries;
using Folio.Indexing.Queries.Iterators;
using Folio.Indexing.Search;
using Folio.Storage;

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

    private static List<long> Drain(DocIdIterator iterator)
    {
        var ids = new List<long>();
        while (iterator.MoveNext())
            ids.Add(iterator.Current);
        return ids;
    }

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
