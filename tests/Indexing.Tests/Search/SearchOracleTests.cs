using Folio.Indexing.Collectors;
using Folio.Indexing.Engines;
using Folio.Indexing.Engines.Lucene;
using Folio.Indexing.Queries;
using Folio.Indexing.Search;
using Xunit.Abstractions;

namespace Folio.Indexing.Tests.Search;

/// <summary>Builds the fast tier's oracle run once: 50,000 entries, then updates and deletes.</summary>
public sealed class OracleRunFixture : IDisposable
{
    public const int Seed = 20_250_601;

    internal OracleRun Run { get; } = new(Seed, entries: 50_000);

    public void Dispose() => Run.Dispose();
}

/// <summary>The same oracle run on the Lucene.Net engine.</summary>
public sealed class LuceneOracleRunFixture : IDisposable
{
    internal OracleRun Run { get; } = new(OracleRunFixture.Seed, entries: 50_000, engine: LuceneSearchEngine.Instance);

    public void Dispose() => Run.Dispose();
}

/// <summary>
/// The index against a brute-force oracle over the same data as plain objects: random boolean
/// queries on every field kind with random sorts and pages must return the same keys, entry ids,
/// order and totals; full-text and phrase queries the same sets as the analyzer-based oracle. Run on each
/// search engine (<see cref="SearchOracleTests"/>, <see cref="LuceneSearchOracleTests"/>).
/// </summary>
public abstract class SearchOracleChecks
{
    private readonly ITestOutputHelper _output;

    private protected SearchOracleChecks(OracleRun run, ITestOutputHelper output)
    {
        Run = run;
        _output = output;
    }

    private protected OracleRun Run { get; }

    [Fact]
    public void Search_RandomBooleanQueries_MatchTheOracle()
    {
        _output.WriteLine($"seed {Run.Seed}: {Run.Docs.Count} live entries of {Run.Model.NextId} added, built in {Run.BuildTime.TotalSeconds:F1} s");
        _output.WriteLine(Run.CheckQueries(500));
    }

    [Fact]
    public void FullText_RankedQueries_MatchTheAnalyzerOracleAsSets()
    {
        using var searcher = Run.Index.OpenSearcher();
        var generator = Run.Queries(2);
        var nonEmpty = 0;
        for (var q = 0; q < 150; q++)
        {
            var query = generator.FullText(Run.Docs);
            var context = $"seed {Run.Seed}, query #{q}: {query}";
            var expected = CheckMatchingSet(searcher, query, context);
            // Ranked: the best page comes in score order (ties by entry id), from the same set.
            var page = searcher.Search(query.ToQuery(), 0, 25, [SortField.Score]);
            Assert.True(expected.Count == page.TotalHits, $"{context}\nranked total: expected {expected.Count}, index {page.TotalHits}");
            for (var i = 0; i < page.Hits.Count; i++)
            {
                Assert.True(expected.Contains(page.Hits[i].Key), $"{context}\nranked hit {page.Hits[i]} does not match");
                if (i > 0)
                {
                    var (before, after) = (page.Hits[i - 1], page.Hits[i]);
                    Assert.True(before.Score > after.Score || (before.Score == after.Score && before.EntryId < after.EntryId),
                        $"{context}\nhits {i - 1} and {i} are out of score order: {before} then {after}");
                }
            }
            if (expected.Count > 0)
                nonEmpty++;
        }
        Assert.True(nonEmpty > 50, $"only {nonEmpty} of 150 full-text queries matched anything");
    }

    [Fact]
    public void Phrase_RandomPhrases_MatchThePositionOracle()
    {
        using var searcher = Run.Index.OpenSearcher();
        var generator = Run.Queries(3);
        var nonEmpty = 0;
        for (var q = 0; q < 200; q++)
        {
            var query = generator.Phrase(Run.Docs);
            if (CheckMatchingSet(searcher, query, $"seed {Run.Seed}, query #{q}: {query}").Count > 0)
                nonEmpty++;
        }
        Assert.True(nonEmpty > 50, $"only {nonEmpty} of 200 phrases matched anything");
    }

    /// <summary>The entries the query matches must be the oracle's (as a set of keys).</summary>
    private HashSet<string> CheckMatchingSet(IEngineSearcher searcher, OracleQuery query, string context)
    {
        var expected = Run.Docs.FindAll(query.Matches).Select(d => d.Key).ToHashSet();
        var actual = OracleRun.MatchingKeys(searcher, query);
        var missing = expected.Except(actual).Select(key => Run.Model.Get(key)!.ToString()).FirstOrDefault();
        var extra = actual.Except(expected).Select(key => Run.Model.Get(key)?.ToString() ?? key).FirstOrDefault();
        Assert.True(missing is null && extra is null,
            $"{context}\n{expected.Count} expected, index matched {actual.Count}\nindex misses: {missing ?? "-"}\nindex has extra: {extra ?? "-"}");
        return expected;
    }

    [Fact]
    public void GetValues_EveryField_MatchesTheNormalizedValues()
    {
        using var searcher = Run.Index.OpenSearcher();
        var ids = EntryIds(searcher);
        var random = new Random(Run.Seed);
        for (var i = 0; i < 2000; i++)
        {
            var doc = Run.Docs[random.Next(Run.Docs.Count)];
            foreach (var field in OracleFields.All)
            {
                var expected = field == OracleFields.Body ? null : doc.Field(field)?.Stored;
                var actual = searcher.GetValues(field, ids[doc.Key]);
                Assert.True(expected is null == actual is null && (expected is null || expected.SequenceEqual(actual!)),
                    $"seed {Run.Seed}: GetValues({field}) of {doc}\nexpected [{Show(expected)}]\nindex    [{Show(actual)}]");
            }
        }
    }

    [Fact]
    public void CountTermsAndCountRanges_MatchTheOracle()
    {
        using var searcher = Run.Index.OpenSearcher();
        var generator = Run.Queries(4);
        for (var q = 0; q < 10; q++)
        {
            var query = generator.Query(Run.Docs, maxDepth: 2, withText: false);
            var matches = Run.Docs.FindAll(query.Matches);
            var total = searcher.Count(query.ToQuery());
            Assert.True(total == matches.Count, $"seed {Run.Seed}, {query}: {matches.Count} expected, index {total}{Run.Diagnose(searcher, query)}");
            // CountTerms reads every match's doc values: two or three fields per query keep it quick.
            foreach (var field in OracleFields.Sortable.Where((_, i) => (i + q) % 2 == 0))
            {
                var expected = new Dictionary<FieldValue, long>();
                foreach (var doc in matches)
                {
                    foreach (var value in doc.Field(field)?.Stored.Distinct() ?? [])
                        expected[value] = expected.GetValueOrDefault(value) + 1;
                }
                var actual = searcher.CountTerms(query.ToQuery(), field);
                var wrong = expected.Where(p => actual.GetValueOrDefault(p.Key) != p.Value).Select(p => p.Key)
                    .Concat(actual.Keys.Where(k => !expected.ContainsKey(k))).FirstOrDefault();
                Assert.True(expected.Count == actual.Count && wrong == default,
                    $"seed {Run.Seed}, CountTerms({field}) over {query}: {expected.Count} values expected, index has {actual.Count}; first wrong: {OracleQuery.Show(wrong)} expected {expected.GetValueOrDefault(wrong)}, index {actual.GetValueOrDefault(wrong)}");
            }

            var ranges = new List<(string Field, OracleRange Oracle, ValueRange Range)>();
            for (var r = 0; r < 6; r++)
            {
                var range = (OracleRange)generator.Range(Run.Docs, OracleFields.Sortable[r % OracleFields.Sortable.Length]);
                ranges.Add((range.Field, range, range.ToValueRange()));
            }
            foreach (var group in ranges.GroupBy(r => r.Field))
            {
                var counts = searcher.CountRanges(query.ToQuery(), group.Key, group.Select(g => g.Range).ToList());
                var i = 0;
                foreach (var (_, oracle, _) in group)
                {
                    var expected = matches.Count(oracle.Matches);
                    Assert.True(expected == counts[i], $"seed {Run.Seed}, CountRanges over {query}: {oracle} expected {expected}, index {counts[i]}");
                    i++;
                }
            }
        }
    }

    /// <summary>Every entry's id in <paramref name="searcher"/> by its key.</summary>
    private static Dictionary<string, long> EntryIds(IEngineSearcher searcher)
    {
        var ids = new Dictionary<string, long>();
        var all = searcher.Iterate(MatchAllQuery.Instance);
        while (all.MoveNext())
            ids.Add(searcher.GetKey(all.Current), all.Current);
        return ids;
    }

    private static string Show(List<FieldValue>? values) => values is null ? "missing" : string.Join(", ", values.Select(OracleQuery.Show));
}

/// <summary>The oracle on Folio's engine.</summary>
public class SearchOracleTests(OracleRunFixture fixture, ITestOutputHelper output) : SearchOracleChecks(fixture.Run, output), IClassFixture<OracleRunFixture>;

/// <summary>The oracle on the Lucene.Net engine.</summary>
public class LuceneSearchOracleTests(LuceneOracleRunFixture fixture, ITestOutputHelper output) : SearchOracleChecks(fixture.Run, output), IClassFixture<LuceneOracleRunFixture>;

/// <summary>The oracle at length: more seeds, more entries and queries. Slow tier only.</summary>
public class SearchOracleSlowTests(ITestOutputHelper output)
{
    [Theory]
    [Trait("Category", "Slow")]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    [InlineData(4)]
    public void Search_RandomBooleanQueries_MatchTheOracle_ManySeeds(int seed)
    {
        using var run = new OracleRun(seed, entries: 60_000, loadBatches: 6, updateBatches: 8, changesPerBatch: 6000);
        output.WriteLine($"seed {seed}: {run.Docs.Count} live entries, built in {run.BuildTime.TotalSeconds:F1} s");
        output.WriteLine(run.CheckQueries(1500, narrowSorted: 0.3));
    }

    [Theory]
    [Trait("Category", "Slow")]
    [InlineData(11)]
    [InlineData(12)]
    public void Search_SmallIndex_ManyDeepQueries_MatchTheOracle(int seed)
    {
        // A small index makes empty and near-empty results (and page edges) common.
        using var run = new OracleRun(seed, entries: 300, loadBatches: 3, updateBatches: 6, changesPerBatch: 200);
        output.WriteLine(run.CheckQueries(10_000, narrowSorted: 0));
    }
}
