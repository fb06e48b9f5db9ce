using Folio.Indexing.Collectors;
using Folio.Indexing.Engines;
using Folio.Indexing.Queries;
using Folio.Indexing.Search;
using Folio.Indexing.Tests.Search;
using Folio.Storage;

namespace Folio.Indexing.Tests.Collectors;

/// <summary>Several collectors in one walk answer what each answers in a walk of its own.</summary>
public sealed class CompositeCollectorTests : IDisposable
{
    private const int Entries = 2000;
    private readonly IEngineIndex _index = FolioSearchEngine.Instance.Open(StorageOptions.InMemory(), new IndexSchema()
        .Add("Tag", FieldKind.Exact)
        .Add("Num", FieldKind.Long)
        .Add("Price", FieldKind.Double)
        .Add("Body", FieldKind.FullText));

    public CompositeCollectorTests()
    {
        var random = new Random(42);
        string[] words = ["late", "delivery", "fast", "order", "shipped", "again"];
        using var batch = _index.BeginBatch();
        for (var i = 0; i < Entries; i++)
        {
            var entry = new IndexEntry($"k{i:D5}");
            for (var t = random.Next(4); t > 0; t--)
                entry.Add("Tag", $"t{random.Next(12)}");
            if (random.Next(10) == 0)
                entry.AddNull("Tag");
            if (random.Next(8) != 0)
                entry.Add("Num", random.Next(-50, 500));
            if (random.Next(5) == 0)
                entry.Add("Num", random.Next(1000));
            entry.Add("Price", Math.Round(random.NextDouble() * 100, 2));
            entry.Add("Body", $"{words[random.Next(words.Length)]} {words[random.Next(words.Length)]}");
            batch.Add(entry);
        }
        batch.Commit(Entries);
    }

    public void Dispose() => _index.Dispose();

    public static TheoryData<string> Queries => ["all", "tag", "range", "text"];

    private static Query QueryNamed(string name) => name switch
    {
        "all" => MatchAllQuery.Instance,
        "tag" => new OrQuery([new TermQuery("Tag", FieldValue.From("t3")), new TermQuery("Tag", FieldValue.From("t7"))]),
        "range" => new RangeQuery("Num", FieldValue.From(0L), true, FieldValue.From(300L), false),
        _ => new FullTextQuery("Body", "late delivery"),
    };

    private static ValueRange[] NumRanges() =>
    [
        new(null, false, FieldValue.From(0L), false),
        new(FieldValue.From(0L), true, FieldValue.From(250L), true),
        new(FieldValue.From(250L), false, null, false),
    ];

    private static ValueRange[] PriceRanges() => [new(null, false, FieldValue.From(50.0), false), new(FieldValue.From(25L), true, FieldValue.From(75.5), true)];

    [Theory]
    [MemberData(nameof(Queries))]
    public void Collect_SeveralFacetsInOneWalk_AnswerWhatSeparateWalksAnswer(string name)
    {
        var query = QueryNamed(name);
        using var searcher = _index.OpenSearcher();
        var count = new CountCollector();
        var tags = new TermFacetCollector("Tag");
        var numbers = new TermFacetCollector("Num");
        var numRanges = new RangeFacetCollector("Num", NumRanges());
        var priceRanges = new RangeFacetCollector("Price", PriceRanges());
        searcher.Collect(query, new CompositeCollector([count, tags, numbers, numRanges, priceRanges]));

        Assert.Equal(searcher.Count(query), count.Count);
        Assert.Equal(searcher.CountTerms(query, "Tag"), tags.Counts);
        Assert.Equal(searcher.CountTerms(query, "Num"), numbers.Counts);
        Assert.Equal(searcher.CountRanges(query, "Num", NumRanges()), numRanges.Counts);
        Assert.Equal(searcher.CountRanges(query, "Price", PriceRanges()), priceRanges.Counts);
        Assert.Equal(ExpectedTerms(searcher, query, "Tag"), tags.Counts);
        Assert.Equal(ExpectedTerms(searcher, query, "Num"), numbers.Counts);
    }

    [Theory]
    [MemberData(nameof(Queries))]
    public void Collect_HandsBatchesOfIncreasingIds_OnceForEveryMatch(string name)
    {
        var query = QueryNamed(name);
        using var searcher = _index.OpenSearcher();
        var recorder = new RecordingCollector(needsScores: name == "text");
        searcher.Collect(query, new CompositeCollector([recorder, new CountCollector()]));
        var expected = DocIdIterators.Drain(searcher.Iterate(query));
        Assert.Equal(expected, recorder.Ids);
        Assert.Equal(1, recorder.Begun);
        Assert.Equal(1, recorder.Finished);
        Assert.All(recorder.BatchSizes, size => Assert.InRange(size, 1, 256));
        if (name == "text")
            Assert.Contains(recorder.Scores, score => score > 0);
        else
            Assert.Empty(recorder.Scores);
    }

    [Fact]
    public void NeedsScores_IsTrue_WhenAnyCollectorNeedsThem()
    {
        Assert.False(new CompositeCollector([new CountCollector(), new TermFacetCollector("Tag")]).NeedsScores);
        Assert.True(new CompositeCollector([new CountCollector(), new RecordingCollector(needsScores: true)]).NeedsScores);
    }

    public static TheoryData<string, string> Sorts => new()
    {
        { "all", "none" }, { "all", "num" }, { "tag", "num-desc-tag" }, { "range", "tag" }, { "text", "score" }, { "text", "price-score" },
    };

    private static List<SortField>? SortNamed(string name) => name switch
    {
        "none" => null,
        "num" => [new SortField("Num")],
        "num-desc-tag" => [new SortField("Num", Descending: true), new SortField("Tag")],
        "tag" => [new SortField("Tag")],
        "score" => [SortField.Score],
        _ => [new SortField("Price", Descending: true), SortField.Score],
    };

    [Theory]
    [MemberData(nameof(Sorts))]
    public void TopDocsCollector_WithFacetsInOneWalk_AnswersWhatSearchAnswers(string queryName, string sortName)
    {
        var query = QueryNamed(queryName);
        var sort = SortNamed(sortName);
        using var searcher = _index.OpenSearcher();
        var expected = searcher.Search(query, 5, 20, sort);

        var top = searcher.CreateTopDocsCollector(5, 20, sort);
        var tags = new TermFacetCollector("Tag");
        searcher.Collect(query, new CompositeCollector([top, tags]));
        AssertSame(expected, top.TopDocs);
        Assert.Equal(searcher.CountTerms(query, "Tag"), tags.Counts);

        var alone = searcher.CreateTopDocsCollector(5, 20, sort);
        searcher.Collect(query, alone);
        AssertSame(expected, alone.TopDocs);
    }

    [Fact]
    public void TopDocsCollector_Throws_WhenAnotherSearcherWalks()
    {
        using var first = _index.OpenSearcher();
        using var second = _index.OpenSearcher();
        var top = first.CreateTopDocsCollector(0, 10, [new SortField("Num")]);
        Assert.Throws<InvalidOperationException>(() => second.Collect(MatchAllQuery.Instance, new CompositeCollector([top])));
        Assert.Throws<InvalidOperationException>(() => top.TopDocs);
    }

    private static void AssertSame(TopDocs expected, TopDocs actual)
    {
        Assert.Equal(expected.TotalHits, actual.TotalHits);
        Assert.Equal(expected.Hits, actual.Hits);
    }

    /// <summary>The term counts read entry by entry through <see cref="IEngineSearcher.GetValues"/>, without collectors.</summary>
    private static Dictionary<FieldValue, long> ExpectedTerms(IEngineSearcher searcher, Query query, string field)
    {
        var counts = new Dictionary<FieldValue, long>();
        var matches = searcher.Iterate(query);
        while (matches.MoveNext())
        {
            foreach (var value in searcher.GetValues(field, matches.Current)?.Distinct() ?? [])
                counts[value] = counts.GetValueOrDefault(value) + 1;
        }
        return counts;
    }

    private sealed class RecordingCollector(bool needsScores) : ICollector
    {
        public List<long> Ids { get; } = [];

        public List<float> Scores { get; } = [];

        public List<int> BatchSizes { get; } = [];

        public int Begun { get; private set; }

        public int Finished { get; private set; }

        public bool NeedsScores => needsScores;

        public void Begin(IEngineSearcher searcher) => Begun++;

        public void Collect(ReadOnlySpan<long> entryIds, ReadOnlySpan<float> scores)
        {
            Assert.Equal(needsScores ? entryIds.Length : 0, scores.Length);
            BatchSizes.Add(entryIds.Length);
            foreach (var id in entryIds)
            {
                Assert.True(Ids.Count == 0 || id > Ids[^1], "ids must increase across the walk");
                Ids.Add(id);
            }
            Scores.AddRange(scores);
        }

        public void Finish() => Finished++;
    }
}
