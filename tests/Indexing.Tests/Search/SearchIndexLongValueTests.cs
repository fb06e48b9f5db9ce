using Folio.Indexing.Collectors;
using Folio.Indexing.Queries;
using Folio.Indexing.Search;
using Folio.Storage;

namespace Folio.Indexing.Tests.Search;

/// <summary>
/// Regressions for values longer than <see cref="TermEncoding.MaxTermBytes"/>, whose terms keep only
/// their first bytes and a hash: doc values, sorting, counting and term walks must still see the whole value.
/// </summary>
public class SearchIndexLongValueTests
{
    private static readonly string Shared = new('x', 300);

    private static SearchIndex Open(params IndexEntry[] entries)
    {
        var index = SearchIndex.Open(StorageOptions.InMemory(), new IndexSchema().Add("Name", FieldKind.Exact).Add("Num", FieldKind.Long));
        using var batch = index.BeginBatch();
        foreach (var entry in entries)
            batch.Add(entry);
        batch.Commit();
        return index;
    }

    private static List<string> Keys(SearchIndex index, Query query, IReadOnlyList<SortField>? sort = null)
    {
        using var searcher = index.OpenSearcher();
        return searcher.Search(query, 0, 1000, sort).Hits.Select(h => h.Key).ToList();
    }

    // Several long values that differ only past the kept bytes, added in an order unlike theirs.
    private static IndexEntry[] SharedPrefixEntries() =>
    [
        new IndexEntry("c").Add("Name", Shared + "c"),
        new IndexEntry("a").Add("Name", Shared + "A"),
        new IndexEntry("short").Add("Name", Shared[..250] + "m"),
        new IndexEntry("e").Add("Name", Shared + "e"),
        new IndexEntry("b").Add("Name", Shared + "b"),
        new IndexEntry("d").Add("Name", Shared + "d"),
    ];

    [Fact]
    public void GetValues_ValueLongerThanMaxTermBytes_ReturnsTheWholeNormalizedValue()
    {
        var value = string.Concat(Enumerable.Repeat("Ü", 200)) + "End";
        using var index = Open(new IndexEntry("k").Add("Name", value));
        using var searcher = index.OpenSearcher();
        var hit = Assert.Single(searcher.Search(new TermQuery("Name", FieldValue.From(value)), 0, 10).Hits);
        Assert.Equal([FieldValue.From(value.ToLowerInvariant())], searcher.GetValues("Name", hit.EntryId));
        Assert.Equal(1, searcher.CountTerms(MatchAllQuery.Instance, "Name")[FieldValue.From(value.ToLowerInvariant())]);
    }

    [Fact]
    public void Sort_LongValuesSharingTheirKeptBytes_OrderByTheWholeValue()
    {
        using var index = Open(SharedPrefixEntries());
        Assert.Equal(["short", "a", "b", "c", "d", "e"], Keys(index, MatchAllQuery.Instance, [new SortField("Name")]));
        Assert.Equal(["e", "d", "c", "b", "a", "short"], Keys(index, MatchAllQuery.Instance, [new SortField("Name", Descending: true)]));
    }

    [Fact]
    public void RangeQuery_LongValuesSharingTheBoundsKeptBytes_ComparesWholeValues()
    {
        using var index = Open(SharedPrefixEntries());
        Assert.Equal(["b", "c", "d"], Keys(index, new RangeQuery("Name", FieldValue.From(Shared + "b"), true, FieldValue.From(Shared + "d"), true), [new SortField("Name")]));
        Assert.Equal(["c"], Keys(index, new RangeQuery("Name", FieldValue.From(Shared + "b"), false, FieldValue.From(Shared + "d"), false)));
        // A bound kept whole (256 bytes) that shares the kept bytes with the long values.
        Assert.Equal(["short"], Keys(index, new RangeQuery("Name", null, false, FieldValue.From(Shared[..256]), true)));
        Assert.Equal(["a", "b", "c", "d", "e"], Keys(index, new RangeQuery("Name", FieldValue.From(Shared[..256]), false, null, false), [new SortField("Name")]));
        Assert.Equal(["c", "d", "e"], Keys(index, new RangeQuery("Name", FieldValue.From(Shared + "bz"), true, null, false), [new SortField("Name")]));
        using var searcher = index.OpenSearcher();
        Assert.Equal([3L, 1L], searcher.CountRanges(MatchAllQuery.Instance, "Name",
            [new ValueRange(FieldValue.From(Shared + "b"), true, FieldValue.From(Shared + "d"), true), new ValueRange(FieldValue.From(Shared + "e"), true, null, false)]));
    }

    [Fact]
    public void PrefixQuery_PrefixLongerThanTheKeptBytes_MatchesLongValuesByTheirWholeValue()
    {
        using var index = Open(SharedPrefixEntries());
        Assert.Equal(["c"], Keys(index, new PrefixQuery("Name", Shared + "C")));
        Assert.Equal(["c", "a", "e", "b", "d"], Keys(index, new PrefixQuery("Name", Shared)));
        Assert.Equal(["c", "a", "short", "e", "b", "d"], Keys(index, new PrefixQuery("Name", Shared[..200])));
    }

    [Fact]
    public void WildcardQuery_LongValue_MatchesPastTheKeptBytesAndNeverInTheHash()
    {
        var value = Shared + "tail";
        // A character the value lacks but its term's hash bytes hold: the term alone would match it.
        var term = TermEncoding.Text(value);
        var needle = "abcdefghijklmnopqrstuvwyz0123456789".First(c => !value.Contains(c) && term.AsSpan(TermEncoding.MaxTermBytes - 17).Contains((byte)c));
        using var index = Open(new IndexEntry("long").Add("Name", value), new IndexEntry("other").Add("Name", "plain"));
        Assert.Equal(["long"], Keys(index, new WildcardQuery("Name", "*tail")));
        Assert.Equal(["long"], Keys(index, new WildcardQuery("Name", "*ail*")));
        Assert.Empty(Keys(index, new WildcardQuery("Name", $"*{needle}*")));
        Assert.Empty(Keys(index, new WildcardQuery("Name", "*xtai")));
    }
}
