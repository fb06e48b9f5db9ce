using Folio.Indexing.Queries;
using Folio.Indexing.Queries.Iterators;
using Folio.Indexing.Search;
using Folio.Storage;

using static Folio.Indexing.Tests.Search.DocIdIterators;

namespace Folio.Indexing.Tests.Search;

/// <summary>
/// Searchers borrow their decoding buffers from the index and give them back when disposed: a live
/// searcher must never share them with another, and a later one must decode correctly with reused ones.
/// </summary>
public class SearcherScratchTests
{
    // Terms with long lists (chunked), short lists (inline) and single ids, so every buffer kind is lent.
    private static SearchIndex OpenIndex()
    {
        var index = SearchIndex.Open(StorageOptions.InMemory(), new IndexSchema().Add("Group", FieldKind.Exact).Add("Num", FieldKind.Long));
        using var batch = index.BeginBatch();
        for (var i = 0; i < 5_000; i++)
            batch.Add(new IndexEntry($"k{i}").Add("Group", $"g{i % 7}").Add("Num", (long)i));
        batch.Commit();
        return index;
    }

    private static List<long> Expected(int group) => Enumerable.Range(0, 5_000).Where(i => i % 7 == group).Select(i => (long)i).ToList();

    [Fact]
    public void Iterate_HalfReadIteratorStaysCorrect_WhenAnotherSearcherRunsMeanwhile()
    {
        using var index = OpenIndex();
        using var first = index.OpenSearcher();
        var pending = first.Iterate(new TermQuery("Group", FieldValue.From("g3")));
        var seen = new List<long>();
        for (var i = 0; i < 100 && pending.MoveNext(); i++)
            seen.Add(pending.Current);

        for (var round = 0; round < 3; round++)
        {
            using var other = index.OpenSearcher();
            Assert.Equal(Expected(5), Drain(other.Iterate(new TermQuery("Group", FieldValue.From("g5")))));
            Assert.Equal(101, other.Count(new RangeQuery("Num", FieldValue.From(1000L), true, FieldValue.From(1100L), true)));
        }

        seen.AddRange(Drain(pending));
        Assert.Equal(Expected(3), seen);
    }

    [Fact]
    public void Search_ReturnsTheSameIds_WhenSearchersReuseEachOthersBuffers()
    {
        using var index = OpenIndex();
        for (var round = 0; round < 20; round++)
        {
            using var searcher = index.OpenSearcher();
            var group = round % 7;
            var query = new AndQuery([new TermQuery("Group", FieldValue.From($"g{group}")), new RangeQuery("Num", FieldValue.From(100L * round), true, FieldValue.From(100L * round + 700), false)]);
            var expected = Expected(group).Where(i => i >= 100 * round && i < 100 * round + 700).ToList();
            Assert.Equal(expected, Drain(searcher.Iterate(query)));
            Assert.Equal([(long)round], Drain(searcher.Iterate(new TermQuery("Num", FieldValue.From((long)round)))));
        }
    }

    [Fact]
    public void Dispose_IsHarmless_WhenCalledTwice()
    {
        using var index = OpenIndex();
        var searcher = index.OpenSearcher();
        searcher.Dispose();
        searcher.Dispose();
        // Given back twice, the same buffers would go to both of these; stepping them in turn would then mix their lists.
        using var next = index.OpenSearcher();
        using var another = index.OpenSearcher();
        var a = next.Iterate(new TermQuery("Group", FieldValue.From("g1")));
        var b = another.Iterate(new TermQuery("Group", FieldValue.From("g2")));
        var fromA = new List<long>();
        var fromB = new List<long>();
        bool moreA = true, moreB = true;
        while (moreA || moreB)
        {
            if (moreA && (moreA = a.MoveNext()))
                fromA.Add(a.Current);
            if (moreB && (moreB = b.MoveNext()))
                fromB.Add(b.Current);
        }
        Assert.Equal(Expected(1), fromA);
        Assert.Equal(Expected(2), fromB);
    }
}

/// <summary>A term walk that verifies every term against the doc values must not keep one decoder per term.</summary>
public class SearcherScratchPeakTests
{
    [Fact]
    public void UnionOfTerms_UsesOneDecoder_WhenEveryTermIsVerified()
    {
        // Values past the term size are shortened with a hash, so a suffix wildcard must verify each one.
        using var index = SearchIndex.Open(StorageOptions.InMemory(), new IndexSchema().Add("Long", FieldKind.Exact));
        var padding = new string('p', TermEncoding.MaxTermBytes + 40);
        using (var batch = index.BeginBatch())
        {
            for (var i = 0; i < 300; i++)
                batch.Add(new IndexEntry($"k{i}").Add("Long", $"{i:D4}{padding}{(i % 3 == 0 ? "tail" : "other")}"));
            batch.Commit();
        }

        using (var searcher = index.OpenSearcher())
            Assert.Equal(100, searcher.Count(new WildcardQuery("Long", "*tail")));

        var scratch = index.RentScratch();
        Assert.InRange(scratch.DecoderCount, 0, 2);
        index.ReturnScratch(scratch);
    }
}

/// <summary>An iterator kept past its searcher fails instead of reading buffers another searcher now uses.</summary>
public class SearcherScratchLifetimeTests
{
    [Fact]
    public void MoveNext_Throws_WhenTheSearcherWasDisposed()
    {
        using var index = SearchIndex.Open(StorageOptions.InMemory(), new IndexSchema().Add("Tag", FieldKind.Exact));
        using (var batch = index.BeginBatch())
        {
            // Three ids: an inline list, decoded entirely from the lent buffer (no tree read that would fail by itself).
            for (var i = 0; i < 3; i++)
                batch.Add(new IndexEntry($"k{i}").Add("Tag", "t"));
            batch.Commit();
        }

        var searcher = index.OpenSearcher();
        var iterator = searcher.Iterate(new TermQuery("Tag", FieldValue.From("t")));
        Assert.True(iterator.MoveNext());
        searcher.Dispose();

        using var other = index.OpenSearcher();
        var reused = other.Iterate(new TermQuery("Tag", FieldValue.From("t")));
        Assert.True(reused.MoveNext());
        Assert.Throws<ObjectDisposedException>(() => iterator.MoveNext());
        Assert.Throws<ObjectDisposedException>(() => iterator.Advance(2));
    }
}

/// <summary>A searcher kept open for many queries reuses its iterators' buffers instead of holding one set per query.</summary>
public class LongLivedSearcherTests
{
    [Fact]
    public void Search_KeepsTheDecoderCountSmall_WhenOneSearcherRunsAThousandQueries()
    {
        using var index = SearchIndex.Open(StorageOptions.InMemory(), new IndexSchema().Add("Group", FieldKind.Exact).Add("Num", FieldKind.Long));
        using (var batch = index.BeginBatch())
        {
            for (var i = 0; i < 3_000; i++)
                batch.Add(new IndexEntry($"k{i}").Add("Group", $"g{i % 30}").Add("Num", (long)i));
            batch.Commit();
        }

        using var searcher = index.OpenSearcher();
        for (var i = 0; i < 1_000; i++)
        {
            var page = searcher.Search(new OrQuery([new TermQuery("Group", FieldValue.From($"g{i % 30}")), new TermQuery("Num", FieldValue.From((long)i))]), 0, 10);
            // Entry k{i} is in group g{i % 30}, so the two terms together match that group's 100 entries.
            Assert.Equal(100, page.TotalHits);
        }

        Assert.InRange(searcher.Scratch.DecoderCount, 0, 4);
    }
}
