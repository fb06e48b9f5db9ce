using Folio.Indexing.Collectors;
using Folio.Indexing.Engines;
using Folio.Indexing.Queries;
using Folio.Indexing.Search;
using Folio.Storage;

namespace Folio.Indexing.Tests.Collectors;

/// <summary>
/// Facets over every entry counted from the index's per-value counts (term posting counts, point blocks) instead of a
/// walk: the same answers as the walk wherever they are taken, and the walk wherever an entry has several values or a null.
/// </summary>
public sealed class EveryEntryCountTests : IDisposable
{
    private static readonly ValueRange[] PriceRanges =
    [
        new(null, false, FieldValue.From(10.0), false),
        new(FieldValue.From(10.0), true, FieldValue.From(24.99), true),
        new(FieldValue.From(25.0), false, FieldValue.From(50.0), false),
        new(FieldValue.From(20.0), true, FieldValue.From(100.0), true),
        new(FieldValue.From(100.0), true, null, false),
        new(FieldValue.From(30.0), true, FieldValue.From(30.0), true),
        new(null, false, null, false),
        new(FieldValue.From(-1.0), true, FieldValue.From(0.5), true),
    ];

    private readonly IEngineIndex _index = FolioSearchEngine.Instance.Open(StorageOptions.InMemory(), new IndexSchema()
        .Add("Tag", FieldKind.Exact)
        .Add("Code", new FieldOptions(FieldKind.Exact, CaseSensitive: true))
        .Add("Num", FieldKind.Long)
        .Add("Price", FieldKind.Double));

    private long _etag;

    public void Dispose() => _index.Dispose();

    private void Batch(Action<IEngineBatch> change)
    {
        using var batch = _index.BeginBatch();
        change(batch);
        batch.Commit(++_etag);
    }

    /// <summary>
    /// Facets every entry with a walk and without one; asserts whether the one without could count (<paramref name="counted"/>)
    /// and, when it could, that it gives the walk's answer.
    /// </summary>
    private (T Walked, T Counted) Both<T>(Func<T> create, bool counted)
        where T : ICollector
    {
        using var searcher = _index.OpenSearcher();
        // Counted before the walk: a term spelled only otherwise is then found in the dictionary, not among the
        // values the walk's ordinals were read as.
        var direct = create();
        Assert.Equal(counted, ((IEveryEntryCounter)direct).TryCountEveryEntry(searcher));
        if (!counted)
            searcher.Collect(MatchAllQuery.Instance, direct);
        var walked = create();
        searcher.Collect(MatchAllQuery.Instance, walked);
        return (walked, direct);
    }

    private static double PriceOf(int i) => i % 11 == 0 ? i % 13 : Math.Round(i * 7.31 % 140, 2);

    private void IndexProducts(int count)
    {
        Batch(batch =>
        {
            for (var i = 0; i < count; i++)
            {
                var entry = new IndexEntry($"p{i}");
                // Some spelled otherwise (folded onto one value), some without a tag, some without a price.
                if (i % 17 != 0)
                    entry.Add("Tag", i % 5 == 0 ? $"TAG-{i % 40}" : $"tag-{i % 40}");
                if (i % 19 != 0)
                    entry.Add("Price", PriceOf(i));
                entry.Add("Code", i % 3 == 0 ? "Ab" : "ab");
                batch.Add(entry);
            }
        });
    }

    [Fact]
    public void TermFacet_CountsEveryEntryWithoutAWalk_AsTheWalkDoes_WhenEachEntryHasOneValue()
    {
        IndexProducts(3_000);
        // Deletes and replacements change the posting counts the count is read from.
        Batch(batch =>
        {
            for (var i = 0; i < 3_000; i += 7)
                batch.Delete($"p{i}");
            for (var i = 1; i < 3_000; i += 9)
            {
                batch.Delete($"p{i}");
                batch.Add(new IndexEntry($"p{i}").Add("Tag", "Moved").Add("Code", "AB"));
            }
        });
        foreach (var field in new[] { "Tag", "Code" })
        {
            var (walked, counted) = Both(() => new TermFacetCollector(field), counted: true);
            Assert.Equal(walked.Counts, counted.Counts);
            Assert.Equal(walked.Missing, counted.Missing);
        }
        var tags = Both(() => new TermFacetCollector("Tag"), counted: true).Counted;
        Assert.Equal(334, tags.Counts[FieldValue.From("moved")]);
        Assert.True(tags.Missing > 0);
    }

    [Fact]
    public void TermFacet_Walks_WhileSomeEntryHasSeveralValuesOrANull()
    {
        IndexProducts(500);
        Batch(batch => batch.Add(new IndexEntry("array").Add("Tag", "tag-1").Add("Tag", "TAG-1").Add("Tag", "other")));
        var (walked, counted) = Both(() => new TermFacetCollector("Tag"), counted: false);
        Assert.Equal(walked.Counts, counted.Counts);

        Batch(batch =>
        {
            batch.Delete("array");
            batch.Add(new IndexEntry("null").AddNull("Tag"));
        });
        (walked, counted) = Both(() => new TermFacetCollector("Tag"), counted: false);
        Assert.Equal(1, counted.Counts[FieldValue.Null]);
        Assert.Equal(walked.Counts, counted.Counts);

        // Once no entry has several values or a null, the count is read without a walk again.
        Batch(batch => batch.Delete("null"));
        (walked, counted) = Both(() => new TermFacetCollector("Tag"), counted: true);
        Assert.Equal(walked.Counts, counted.Counts);
        Assert.Equal(walked.Missing, counted.Missing);
    }

    [Fact]
    public void TermFacet_Walks_ForNumbersAggregationsAndAnEmptyIndex()
    {
        Both(() => new TermFacetCollector("Tag"), counted: false);
        IndexProducts(200);
        Batch(batch => batch.Add(new IndexEntry("n").Add("Num", 4)));
        var (walked, counted) = Both(() => new TermFacetCollector("Num"), counted: false);
        Assert.Equal(walked.Counts, counted.Counts);
        var aggregated = Both(() => new TermFacetCollector("Tag", new FacetAggregator(["Price"])), counted: false);
        Assert.Equal(aggregated.Walked.Counts, aggregated.Counted.Counts);
    }

    [Fact]
    public void RangeFacet_CountsEveryEntryWithoutAWalk_AsTheWalkDoes_AcrossManyPointBlocks()
    {
        // Enough prices for several point blocks, with values repeated across block boundaries.
        IndexProducts(40_000);
        Batch(batch =>
        {
            for (var i = 0; i < 40_000; i += 5)
                batch.Delete($"p{i}");
            for (var i = 3; i < 40_000; i += 50)
            {
                batch.Delete($"p{i}");
                batch.Add(new IndexEntry($"p{i}").Add("Price", 30.0));
            }
        });
        var (walked, counted) = Both(() => new RangeFacetCollector("Price", PriceRanges), counted: true);
        Assert.Equal(walked.Counts, counted.Counts);
        Assert.True(counted.Counts[5] >= 800);
        Assert.True(counted.Counts[6] > counted.Counts[0]);
    }

    [Fact]
    public void RangeFacet_Walks_WhileSomeEntryHasSeveralNumbersOrANull_OrTheFieldIsNotNumeric()
    {
        IndexProducts(500);
        Batch(batch => batch.Add(new IndexEntry("array").Add("Price", 5.0).Add("Price", 6.0).Add("Price", 30.0)));
        var (walked, counted) = Both(() => new RangeFacetCollector("Price", PriceRanges), counted: false);
        Assert.Equal(walked.Counts, counted.Counts);

        Batch(batch =>
        {
            batch.Delete("array");
            batch.Add(new IndexEntry("null").AddNull("Price"));
        });
        (walked, counted) = Both(() => new RangeFacetCollector("Price", PriceRanges), counted: false);
        Assert.Equal(walked.Counts, counted.Counts);

        Batch(batch => batch.Delete("null"));
        (walked, counted) = Both(() => new RangeFacetCollector("Price", PriceRanges), counted: true);
        Assert.Equal(walked.Counts, counted.Counts);

        // A bound that cannot be a price leaves its side open, in both ways of counting.
        (walked, counted) = Both(() => new RangeFacetCollector("Price", [new ValueRange(FieldValue.From("text"), true, FieldValue.From(50.0), false)]), counted: true);
        Assert.Equal(walked.Counts, counted.Counts);
        (walked, counted) = Both(() => new RangeFacetCollector("Tag", [new ValueRange(FieldValue.From("a"), true, FieldValue.From("tag-3"), false)]), counted: false);
        Assert.Equal(walked.Counts, counted.Counts);
    }

    [Fact]
    public void RangeFacet_CountsLongsAtTheEndsOfTheirRange()
    {
        Batch(batch =>
        {
            foreach (var (key, number) in new[] { ("min", long.MinValue), ("minus", -1L), ("zero", 0L), ("max", long.MaxValue), ("max2", long.MaxValue) })
                batch.Add(new IndexEntry(key).Add("Num", number));
        });
        var (walked, counted) = Both(() => new RangeFacetCollector("Num",
        [
            new ValueRange(null, false, FieldValue.From(long.MinValue), true),
            new ValueRange(FieldValue.From(long.MinValue), false, FieldValue.From(0L), false),
            new ValueRange(FieldValue.From(long.MaxValue), true, null, false),
            new ValueRange(FieldValue.From(long.MaxValue), false, null, false),
            new ValueRange(FieldValue.From(0L), true, FieldValue.From(0L), true),
        ]), counted: true);
        Assert.Equal([1L, 1L, 2L, 0L, 1L], counted.Counts);
        Assert.Equal(walked.Counts, counted.Counts);
    }
}
