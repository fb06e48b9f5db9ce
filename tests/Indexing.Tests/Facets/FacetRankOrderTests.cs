using System.Globalization;
using Folio.Indexing.Collectors;
using Folio.Indexing.Engines;
using Folio.Indexing.Queries;
using Folio.Indexing.Querying;
using Folio.Indexing.Search;
using Folio.Storage;

namespace Folio.Indexing.Tests.Facets;

/// <summary>A term facet ordered by the places its values keep in value order, against the order by their bytes.</summary>
public sealed class FacetRankOrderTests : IDisposable
{
    private readonly IEngineIndex _index = FolioSearchEngine.Instance.Open(StorageOptions.InMemory(), new IndexSchema()
        .Add("Brand", FieldKind.Exact)
        .Add("Code", new FieldOptions(FieldKind.Exact, CaseSensitive: true)));

    private long _batches;

    public void Dispose() => _index.Dispose();

    [Theory]
    [InlineData("CountDesc")]
    [InlineData("CountAsc")]
    [InlineData("ValueAsc")]
    [InlineData("ValueDesc")]
    public void Order_ByKeptPlaces_IsTheOrderByBytes_WhenValuesShareLongPrefixesAndCounts(string order)
    {
        var mode = Enum.Parse<FacetTermSortMode>(order);
        Index(0, 3_000);

        foreach (var field in new[] { "Brand", "Code" })
        {
            var collector = Collect(field);
            Assert.True(collector.TryRankValues(new int[collector.CountedTerms.Count]), $"{field}: the values have no places kept.");
            Assert.Equal(FacetTermOrder.Order(collector.CountedTerms, mode), FacetTermOrder.Order(collector, mode));
        }
    }

    [Fact]
    public void Order_IsTheOrderByBytes_WhenValuesWereAddedSinceThePlacesWereMade()
    {
        Index(0, 2_000);
        var first = Collect("Brand");
        Assert.Equal(FacetTermOrder.Order(first.CountedTerms, FacetTermSortMode.CountDesc), FacetTermOrder.Order(first, FacetTermSortMode.CountDesc));

        // New values that sort between the ones already placed; the places made before do not know them.
        Index(2_000, 1_000, suffix: "m");
        var second = Collect("Brand");
        Assert.Equal(FacetTermOrder.Order(second.CountedTerms, FacetTermSortMode.CountDesc), FacetTermOrder.Order(second, FacetTermSortMode.CountDesc));
        Assert.Equal(FacetTermOrder.Order(second.CountedTerms, FacetTermSortMode.ValueAsc), FacetTermOrder.Order(second, FacetTermSortMode.ValueAsc));
    }

    /// <summary>
    /// Entries whose values share their first seven bytes or more, differ only in case (one value where the field folds
    /// case), and repeat few counts, so ties in count are many and only whole values tell them apart.
    /// </summary>
    private void Index(int first, int count, string suffix = "")
    {
        var random = new Random(first + 11);
        string[] stems = ["brand-0", "brand-00", "Brand-00", "b", "brand-01x", "brandnew", "zzzzzzzzz", "名前"];
        using var batch = _index.BeginBatch();
        for (var i = first; i < first + count; i++)
        {
            var value = stems[random.Next(stems.Length)] + random.Next(60).ToString(CultureInfo.InvariantCulture) + suffix;
            batch.Add(new IndexEntry($"e/{i}").Add("Brand", value).Add("Code", value));
        }
        batch.Commit(++_batches);
    }

    private TermFacetCollector Collect(string field)
    {
        using var searcher = _index.OpenSearcher();
        var collector = new TermFacetCollector(field);
        searcher.Collect(MatchAllQuery.Instance, collector);
        return collector;
    }
}
