using System.Diagnostics;
using System.Text;
using Folio.Indexing.Collectors;
using Folio.Indexing.Engines;
using Folio.Indexing.Search;
using Folio.Storage;

namespace Folio.Indexing.Tests.Search;

/// <summary>
/// One seeded run: an index and the same data as plain objects, built by the same batches (loads,
/// then updates, re-adds and deletes, and one batch rolled back), and the checks that compare them.
/// On Folio's engine entry ids are the model's; on another engine (Lucene's document numbers change as
/// segments merge) hits are compared by key, in the same order.
/// </summary>
internal sealed class OracleRun : IDisposable
{
    private readonly List<string> _keys = [];

    public OracleRun(int seed, int entries, int loadBatches = 5, int updateBatches = 4, int changesPerBatch = 4000, ISearchEngine? engine = null)
    {
        Generator = new OracleGenerator(seed);
        Engine = engine ?? FolioSearchEngine.Instance;
        Index = Engine.Open(StorageOptions.InMemory(), OracleFields.Schema());
        var clock = Stopwatch.StartNew();
        Load(entries, loadBatches);
        for (var b = 0; b < updateBatches; b++)
        {
            Change(changesPerBatch, commit: true);
            if (b == 1)
                Change(changesPerBatch / 4, commit: false);
        }
        Docs = Model.Snapshot();
        Parallel.ForEach(Docs, static doc => doc.Build());
        BuildTime = clock.Elapsed;
        using var searcher = Index.OpenSearcher();
        Assert.Equal(Model.Count, searcher.EntryCount);
        if (searcher is IndexSearcher folio)
            Assert.Equal(Model.NextId, folio.NextEntryId);
    }

    public int Seed => Generator.Seed;

    /// <summary>Makes the data and its changes; queries come from <see cref="Queries"/>, so each check is reproducible on its own.</summary>
    public OracleGenerator Generator { get; }

    /// <summary>A query generator for one check: the run's seed plus <paramref name="salt"/>.</summary>
    public OracleGenerator Queries(int salt) => new(Seed + salt);

    public ISearchEngine Engine { get; }

    /// <summary>Whether the index's entry ids are the model's (Folio's engine), not just in the same order.</summary>
    public bool SharesEntryIds => Engine is FolioSearchEngine;

    public IEngineIndex Index { get; }

    public OracleModel Model { get; } = new();

    /// <summary>The live entries in id order, after every batch.</summary>
    public List<OracleDoc> Docs { get; }

    public TimeSpan BuildTime { get; }

    private void Load(int entries, int batches)
    {
        var perBatch = (entries + batches - 1) / batches;
        for (var start = 0; start < entries; start += perBatch)
        {
            using var batch = Index.BeginBatch();
            for (var n = start; n < Math.Min(entries, start + perBatch); n++)
                Add(batch, NewKey(), apply: true);
            batch.Commit(0);
        }
    }

    /// <summary>A batch of updates, re-adds of deleted keys, deletes (of live and gone keys), new keys, and repeats within the batch.</summary>
    private void Change(int changes, bool commit)
    {
        var random = Generator.Random;
        var touched = new List<string>();
        using var batch = Index.BeginBatch();
        for (var i = 0; i < changes; i++)
        {
            var roll = random.NextDouble();
            string key;
            if (roll < 0.10 && touched.Count > 0)
                key = Generator.Pick(touched);
            else if (roll < 0.25)
                key = NewKey();
            else
                key = Generator.Pick(_keys);
            touched.Add(key);
            if (random.NextDouble() < 0.3)
            {
                var expected = commit ? Model.Delete(key) : (bool?)null;
                var deleted = batch.Delete(key);
                if (expected is { } e)
                    Assert.True(e == deleted, $"seed {Seed}: Delete(\"{key}\") returned {deleted}, the oracle says {e}");
            }
            else
            {
                Add(batch, key, apply: commit);
            }
        }
        if (commit)
            batch.Commit(0);
    }

    private string NewKey()
    {
        var key = OracleGenerator.Key(_keys.Count);
        _keys.Add(key);
        return key;
    }

    private void Add(IEngineBatch batch, string key, bool apply)
    {
        var values = Generator.Values();
        var entry = new IndexEntry(key);
        foreach (var (field, value) in values)
            entry.Add(field, value);
        batch.Add(entry);
        if (apply)
            Model.Add(key, values);
    }

    /// <summary>Expected matches of <paramref name="query"/> in <paramref name="sort"/> order (id order without one).</summary>
    public List<OracleDoc> Expected(OracleQuery query, IReadOnlyList<SortField> sort)
    {
        var matches = Docs.AsParallel().AsOrdered().Where(query.Matches).ToList();
        if (sort.Count > 0)
            OracleModel.Sort(matches, sort);
        return matches;
    }

    /// <summary>Runs <paramref name="count"/> random queries with random sorts and pages; keys, ids, order and totals must match.</summary>
    /// <remarks><paramref name="narrowSorted"/> is the share of sorted queries ANDed with a narrow clause (<see cref="OracleGenerator.Narrow"/>).</remarks>
    public string CheckQueries(int count, bool withText = true, double narrowSorted = 0.75)
    {
        var generator = Queries(1);
        using var searcher = Index.OpenSearcher();
        var indexTime = new Stopwatch();
        var oracleTime = new Stopwatch();
        long matched = 0, sorted = 0, empty = 0;
        for (var q = 0; q < count; q++)
        {
            var query = generator.Query(Docs, withText: withText);
            var sort = generator.Sort();
            if (sort.Count > 0 && generator.Chance(narrowSorted))
                query = new OracleAnd([generator.Narrow(Docs), query], []);
            var (skip, take) = generator.Page();
            oracleTime.Start();
            var expected = Expected(query, sort);
            oracleTime.Stop();
            matched += expected.Count;
            sorted += sort.Count > 0 ? 1 : 0;
            empty += expected.Count == 0 ? 1 : 0;
            TopDocs actual;
            try
            {
                indexTime.Start();
                actual = searcher.Search(query.ToQuery(), skip, take, sort);
                indexTime.Stop();
            }
            catch (Exception e)
            {
                Assert.Fail($"{Describe(q, query, sort, skip, take)}\nthe index threw {e}");
                throw;
            }
            var page = expected.Skip(skip).Take(take).ToList();
            var mismatch = FirstDifference(page, actual.Hits);
            if (actual.TotalHits != expected.Count || mismatch is not null)
            {
                Assert.Fail($"{Describe(q, query, sort, skip, take)}\ntotal: expected {expected.Count}, index {actual.TotalHits}; page: expected {page.Count} hits, index {actual.Hits.Count}\n{mismatch}{Diagnose(searcher, query)}");
            }
            if (q % 5 == 0)
            {
                var counted = searcher.Count(query.ToQuery());
                Assert.True(counted == expected.Count, $"{Describe(q, query, sort, skip, take)}\nCount: expected {expected.Count}, index {counted}");
            }
        }
        return $"seed {Seed}: {count} queries over {Docs.Count} entries ({sorted} sorted, {empty} empty, {matched / Math.Max(1, count)} matches on average); index {indexTime.Elapsed.TotalSeconds:F1} s, oracle {oracleTime.Elapsed.TotalSeconds:F1} s";
    }

    /// <summary>The deepest clauses whose matching sets differ, with an entry that shows it (for a failure message).</summary>
    public string Diagnose(IEngineSearcher searcher, OracleQuery query)
    {
        var found = new StringBuilder();
        Walk(query);
        return found.Length == 0 ? "\n(every clause matches the oracle's set; the difference is in sorting or paging)" : found.ToString();

        bool Walk(OracleQuery node)
        {
            var deeper = false;
            foreach (var child in node.Children)
                deeper |= Walk(child);
            if (deeper)
                return true;
            var expected = Docs.FindAll(node.Matches).Select(d => d.Key).ToHashSet();
            var actual = MatchingKeys(searcher, node);
            if (expected.SetEquals(actual))
                return false;
            var missing = expected.Except(actual).Select(key => Model.Get(key)!.ToString()).FirstOrDefault() ?? "-";
            var extra = actual.Except(expected).Select(key => Model.Get(key)?.ToString() ?? $"{key} (not live)").FirstOrDefault() ?? "-";
            found.Append($"\nclause {node} differs: {expected.Count} expected, index {actual.Count}\n  index misses: {missing}\n  index has extra: {extra}");
            return true;
        }
    }

    /// <summary>The keys of the entries <paramref name="query"/> matches.</summary>
    public static HashSet<string> MatchingKeys(IEngineSearcher searcher, OracleQuery query)
    {
        var keys = new HashSet<string>();
        var matches = searcher.Iterate(query.ToQuery());
        while (matches.MoveNext())
            keys.Add(searcher.GetKey(matches.Current));
        return keys;
    }

    public string Describe(int index, OracleQuery query, IReadOnlyList<SortField> sort, int skip, int take) =>
        $"seed {Seed}, query #{index}: {query}\nsort: {(sort.Count == 0 ? "(entry id)" : string.Join(", ", sort.Select(s => s.Field + (s.Descending ? " desc" : " asc"))))}, skip {skip}, take {take}";

    private string? FirstDifference(List<OracleDoc> expected, IReadOnlyList<SearchHit> actual)
    {
        for (var i = 0; i < Math.Max(expected.Count, actual.Count); i++)
        {
            var e = i < expected.Count ? expected[i] : null;
            SearchHit? a = i < actual.Count ? actual[i] : null;
            if (e is not null && a is { } hit && hit.Key == e.Key && (!SharesEntryIds || hit.EntryId == e.Id))
                continue;
            var builder = new StringBuilder($"first difference at page position {i}:\n  expected: {e?.ToString() ?? "(nothing)"}\n  index:    ");
            if (a is { } h)
                builder.Append(Model.Get(h.Key)?.ToString() ?? $"{h.Key} #{h.EntryId} (not a live entry)");
            else
                builder.Append("(nothing)");
            if (SharesEntryIds && a is { } other && Model.Get(other.Key) is { } doc && doc.Id != other.EntryId)
                builder.Append($" (index says entry #{other.EntryId})");
            return builder.ToString();
        }
        return null;
    }

    public void Dispose() => Index.Dispose();
}
