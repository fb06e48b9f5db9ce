using Folio.Indexing.Collectors;
using Folio.Indexing.Engines;
using Folio.Indexing.Queries;
using Folio.Indexing.Search;
using Folio.Storage;

namespace Folio.Indexing.Tests.Engines;

/// <summary>
/// What both engines must do for query governance (issue 24): a term set of many values answers what a union of
/// term queries answers, and a cancelled searcher stops its walks (search, sort, count, collect, term expansion), as
/// does one whose query allocated past its memory limit.
/// </summary>
public sealed class EngineGovernanceTests : IDisposable
{
    private const int Entries = 5_000;

    private static readonly IndexSchema Schema = new IndexSchema().Add("Name", FieldKind.Exact).Add("N", FieldKind.Long);

    private readonly string _directory = Path.Combine(Path.GetTempPath(), "folio-tests", Guid.NewGuid().ToString("N"));

    public static TheoryData<string> Engines => ["Folio", "Lucene"];

    public void Dispose()
    {
        if (Directory.Exists(_directory))
            Directory.Delete(_directory, recursive: true);
    }

    private IEngineIndex Build(string engine)
    {
        var index = SearchEngines.Get(engine).Open(StorageOptions.ForPath(_directory), Schema);
        using var batch = index.BeginBatch();
        for (var i = 0; i < Entries; i++)
            batch.Add(new IndexEntry("p/" + i).Add("Name", "name-" + i).Add("N", (long)i));
        batch.Commit(1);
        return index;
    }

    [Theory]
    [MemberData(nameof(Engines))]
    public void Search_TermSetOfManyValues_MatchesTheUnionOfTermQueries(string engine)
    {
        using var index = Build(engine);
        using var searcher = index.OpenSearcher();
        // Every third value exists, with repeats, a null and values of another kind among them.
        var names = Enumerable.Range(0, 3 * Entries).Select(i => FieldValue.From("name-" + (i * 3 % (2 * Entries)))).Append(FieldValue.Null).Append(FieldValue.From(7L)).ToList();
        var numbers = Enumerable.Range(-10, 2 * Entries).Where(i => i % 4 == 0).Select(i => FieldValue.From((long)i)).ToList();
        foreach (var (field, values) in new[] { ("Name", names), ("N", numbers) })
        {
            var set = searcher.Search(new TermsInQuery(field, values), 0, int.MaxValue);
            var union = searcher.Search(new OrQuery(values.Select(v => (Query)new TermQuery(field, v)).ToList()), 0, int.MaxValue);
            Assert.True(set.TotalHits > 100, $"{field}: {set.TotalHits}");
            Assert.Equal(union.TotalHits, set.TotalHits);
            Assert.Equal(union.Hits.Select(h => h.Key).Order(StringComparer.Ordinal), set.Hits.Select(h => h.Key).Order(StringComparer.Ordinal));
        }
    }

    [Theory]
    [MemberData(nameof(Engines))]
    public void Walks_OfACancelledSearcher_StopWithOperationCanceled(string engine)
    {
        using var index = Build(engine);
        using var searcher = index.OpenSearcher();
        searcher.Guard = new QueryGuard(new CancellationToken(canceled: true));
        var wildcard = new WildcardQuery("Name", "*9*");
        Assert.ThrowsAny<OperationCanceledException>(() => searcher.Search(MatchAllQuery.Instance, 0, 10));
        Assert.ThrowsAny<OperationCanceledException>(() => searcher.Search(MatchAllQuery.Instance, 0, 10, [new SortField("N")]));
        Assert.ThrowsAny<OperationCanceledException>(() => searcher.Count(wildcard));
        Assert.ThrowsAny<OperationCanceledException>(() => searcher.Search(new TermsInQuery("Name", Enumerable.Range(0, 2_000).Select(i => FieldValue.From("name-" + i)).ToList()), 0, 10));
        searcher.Guard = QueryGuard.None;
        Assert.Equal(Entries, searcher.Count(MatchAllQuery.Instance));
    }

    [Theory]
    [MemberData(nameof(Engines))]
    public void Walks_PastTheGuardsDeadline_StopBeforeTheTimerHasCancelledAnything(string engine)
    {
        // Regression: a 1 ms budget was a CancelAfter timer only; on two busy cores it fired after the walk ended, and
        // the query answered 200 instead of 408. The deadline is read from the clock at every check.
        using var index = Build(engine);
        using var searcher = index.OpenSearcher();
        using var neverCancelled = new CancellationTokenSource();
        var guard = new QueryGuard(neverCancelled.Token);
        guard.StopAt(System.Diagnostics.Stopwatch.GetTimestamp() - 1);
        searcher.Guard = guard;
        Assert.True(guard.CanStop);
        Assert.ThrowsAny<OperationCanceledException>(() => searcher.Search(MatchAllQuery.Instance, 0, 10));
        Assert.ThrowsAny<OperationCanceledException>(() => searcher.Search(new WildcardQuery("Name", "*zzz"), 0, 10));
        Assert.False(neverCancelled.IsCancellationRequested);

        guard.StopAt(0);
        Assert.Equal(Entries, searcher.Count(MatchAllQuery.Instance));
    }

    [Theory]
    [MemberData(nameof(Engines))]
    public void TermExpansions_OfACancelledSearcher_StopEvenWhenNothingMatches(string engine)
    {
        // Matching nothing, the only work is walking the field's terms: a walk that never looks at the cancellation
        // (Lucene's own rewrites) would answer an empty page instead of stopping.
        using var index = Build(engine);
        using var searcher = index.OpenSearcher();
        Query[] expansions =
        [
            new WildcardQuery("Name", "*zzz*"),
            new WildcardQuery("Name", "*zzz"),
            new RegexQuery("Name", new System.Text.RegularExpressions.Regex("zzz")),
        ];
        searcher.Guard = new QueryGuard(new CancellationToken(canceled: true));
        foreach (var query in expansions)
            Assert.ThrowsAny<OperationCanceledException>(() => searcher.Search(query, 0, 10));
        searcher.Guard = QueryGuard.None;
        foreach (var query in expansions)
            Assert.Equal(0, searcher.Search(query, 0, 10).TotalHits);
    }

    [Theory]
    [MemberData(nameof(Engines))]
    public void Walks_PastTheQuerysMemoryLimit_StopWithQueryMemoryLimit(string engine)
    {
        using var index = Build(engine);
        using var searcher = index.OpenSearcher();
        // A page of every entry holds thousands of hits: far more than 64 KB, allocated as the walk goes.
        var guard = new QueryGuard(CancellationToken.None, memoryLimitBytes: 64 * 1024);
        guard.Start();
        searcher.Guard = guard;
        var error = Assert.Throws<QueryMemoryLimitException>(() => searcher.Search(new WildcardQuery("Name", "name-*"), 0, int.MaxValue, [new SortField("N")]));
        Assert.Equal(64 * 1024, error.LimitBytes);
        Assert.True(error.AllocatedBytes > error.LimitBytes);

        var roomy = new QueryGuard(CancellationToken.None, memoryLimitBytes: 256L * 1024 * 1024);
        roomy.Start();
        searcher.Guard = roomy;
        Assert.Equal(Entries, searcher.Search(new WildcardQuery("Name", "name-*"), 0, int.MaxValue, [new SortField("N")]).TotalHits);
    }
}
