using Folio.Indexing.Collectors;
using Folio.Indexing.Engines;
using Folio.Indexing.Queries;
using Folio.Indexing.Search;
using Folio.Storage;
using Folio.Storage.Platform;

namespace Folio.Indexing.Tests.Search;

/// <summary>
/// Deletes that leave full-text postings to the sweep (<see cref="IndexBatch.SweepDeadEntries"/>): every reader of those
/// postings skips the dead entries, and a sweep takes them out for good.
/// </summary>
public sealed class DeadEntriesTests
{
    private static readonly string[] Words = ["ant", "bee", "cat", "cow", "dog", "eel", "elk", "fox", "gnu", "hen"];

    private static IndexSchema Schema() => new IndexSchema()
        .Add("Body", FieldKind.FullText)
        .Add("Tag", FieldKind.Exact)
        .Add("N", FieldKind.Long);

    private static void Sweep(SearchIndex index)
    {
        using var batch = index.BeginBatch();
        batch.SweepDeadEntries();
        batch.Commit();
    }

    private static long DeadCount(SearchIndex index)
    {
        using var searcher = index.OpenSearcher();
        return searcher.Transaction.OpenTree(DeadEntries.IdsTree)?.Count ?? 0;
    }

    /// <summary>Queries over every kind of reader of a full-text field's postings, each with the keys a model says match.</summary>
    private static List<(string Name, Query Query, Func<string, string, bool> Matches)> Queries()
    {
        var queries = new List<(string, Query, Func<string, string, bool>)>();
        foreach (var word in Words)
        {
            queries.Add(($"term {word}", new TermQuery("Body", FieldValue.From(word)), (body, _) => body.Split(' ').Contains(word)));
            queries.Add(($"not {word}", new NotQuery(new TermQuery("Body", FieldValue.From(word))), (body, _) => !body.Split(' ').Contains(word)));
        }
        queries.Add(("phrase", new PhraseQuery("Body", "cat dog"), (body, _) => body.Contains("cat dog", StringComparison.Ordinal)));
        queries.Add(("prefix", new PrefixQuery("Body", "e"), (body, _) => body.Split(' ').Any(w => w.StartsWith('e'))));
        queries.Add(("range", new RangeQuery("Body", FieldValue.From("c"), true, FieldValue.From("e"), false), (body, _) => body.Split(' ').Any(w => w[0] is 'c' or 'd')));
        // Past 16 values an in list is one term set rather than a union of terms.
        queries.Add(("in", new TermsInQuery("Body", [.. Words.Take(4).Concat(Enumerable.Range(0, 20).Select(i => $"absent{i}")).Select(FieldValue.From)]),
            (body, _) => body.Split(' ').Intersect(Words.Take(4)).Any()));
        queries.Add(("fuzzy", new FuzzyQuery("Body", "cox", 1), (body, _) => body.Split(' ').Any(w => w is "cow" or "fox")));
        queries.Add(("or exact", new OrQuery([new TermQuery("Body", FieldValue.From("gnu")), new TermQuery("Tag", FieldValue.From("t1"))]),
            (body, tag) => body.Split(' ').Contains("gnu") || tag == "t1"));
        queries.Add(("text or text", new OrQuery([new FullTextQuery("Body", "hen"), new FullTextQuery("Body", "ant")]),
            (body, _) => body.Split(' ').Intersect(["hen", "ant"]).Any()));
        return queries;
    }

    private static void AssertMatchesModel(SearchIndex index, Dictionary<string, (string Body, string Tag)> model, string when)
    {
        using var searcher = index.OpenSearcher();
        Assert.Equal(model.Count, searcher.EntryCount);
        foreach (var (name, query, matches) in Queries())
        {
            var expected = model.Where(e => matches(e.Value.Body, e.Value.Tag)).Select(e => e.Key).Order(StringComparer.Ordinal).ToList();
            var found = searcher.Search(query, 0, 10_000).Hits.Select(h => h.Key).Order(StringComparer.Ordinal).ToList();
            Assert.True(expected.SequenceEqual(found), $"{name} {when}: expected [{string.Join(' ', expected)}], found [{string.Join(' ', found)}]");
            // By score: a union of term scorers takes the windowed path, which reads the postings itself.
            var scored = searcher.Search(query, 0, 10_000, [SortField.Score]).Hits.Select(h => h.Key).Order(StringComparer.Ordinal).ToList();
            Assert.True(expected.SequenceEqual(scored), $"{name} by score {when}");
            Assert.Equal(expected.Count, searcher.Count(query));
        }
        var walked = new TermCounts();
        searcher.WalkTerms("Body", walked);
        foreach (var word in Words)
        {
            var live = model.Values.Count(e => e.Body.Split(' ').Contains(word));
            Assert.True(live == (walked.Counts.TryGetValue(word, out var count) ? count : 0), $"the term walk's count of {word} {when}");
        }
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    public void Queries_SkipDeadEntries_BeforeAndAfterSweeps(int seed)
    {
        var random = new Random(seed);
        var model = new Dictionary<string, (string Body, string Tag)>(StringComparer.Ordinal);
        using var index = SearchIndex.Open(StorageOptions.InMemory(), Schema());
        for (var round = 0; round < 40; round++)
        {
            using (var batch = index.BeginBatch())
            {
                for (var i = 0; i < 30; i++)
                {
                    var key = $"k{random.Next(120)}";
                    if (random.Next(4) == 0)
                    {
                        Assert.Equal(model.Remove(key), batch.Delete(key));
                        continue;
                    }
                    var body = string.Join(' ', Enumerable.Range(0, 1 + random.Next(5)).Select(_ => Words[random.Next(Words.Length)]));
                    var tag = $"t{random.Next(3)}";
                    batch.Add(new IndexEntry(key).Add("Body", body).Add("Tag", tag).Add("N", (long)random.Next(100)));
                    model[key] = (body, tag);
                }
                if (round % 7 == 6)
                    batch.SweepDeadEntries();
                batch.Commit();
            }
            AssertMatchesModel(index, model, $"after round {round}");
        }
        Sweep(index);
        Assert.Equal(0, DeadCount(index));
        AssertMatchesModel(index, model, "after the last sweep");
        AssertPostingsHoldOnlyLiveEntries(index, model);
    }

    /// <summary>After a sweep, each term's postings count exactly its live entries, and the dictionary only their terms.</summary>
    private static void AssertPostingsHoldOnlyLiveEntries(SearchIndex index, Dictionary<string, (string Body, string Tag)> model)
    {
        using var searcher = index.OpenSearcher();
        var terms = searcher.Transaction.OpenTree(SearchIndex.TermsTree("Body"))!;
        foreach (var word in Words)
        {
            var live = model.Values.Count(e => e.Body.Split(' ').Contains(word));
            Assert.Equal(live, PostingStore.DocumentFrequency(terms, TermEncoding.TermKey(System.Text.Encoding.UTF8.GetBytes(word))));
        }
        Assert.Equal(Words.Where(w => model.Values.Any(e => e.Body.Split(' ').Contains(w))).Order(StringComparer.Ordinal), FullTextTrees.Terms(index, "Body"));
    }

    [Fact]
    public void Commit_SweepsByItself_OnceTheDeadEntriesReachAnEighthOfTheEntries()
    {
        using var index = SearchIndex.Open(StorageOptions.InMemory(), Schema());
        const int entries = 6000;
        using (var batch = index.BeginBatch())
        {
            for (var i = 0; i < entries; i++)
                batch.Add(new IndexEntry($"k{i}").Add("Body", i % 2 == 0 ? "even beta" : "odd beta"));
            batch.Commit();
        }
        // 4,096 dead entries (the least a sweep waits for) in two batches: the second one sweeps.
        var deleted = 0;
        foreach (var count in new[] { 4000, 96 })
        {
            using var batch = index.BeginBatch();
            for (var i = 0; i < count; i++, deleted++)
                Assert.True(batch.Delete($"k{deleted}"));
            batch.Commit();
            Assert.Equal(deleted == 4000 ? 4000 : 0, DeadCount(index));
        }
        using var searcher = index.OpenSearcher();
        var terms = searcher.Transaction.OpenTree(SearchIndex.TermsTree("Body"))!;
        Assert.Equal(entries - deleted, PostingStore.DocumentFrequency(terms, TermEncoding.TermKey("beta"u8)));
        Assert.Equal((entries - deleted) / 2, searcher.Count(new TermQuery("Body", FieldValue.From("even"))));
    }

    [Fact]
    public void DeadEntries_OutliveAReopen_AndTheSweepAfterIt()
    {
        var path = Path.Combine(Path.GetTempPath(), "folio-dead-" + Guid.NewGuid().ToString("N"));
        try
        {
            using (var index = SearchIndex.Open(StorageOptions.ForPath(path), Schema()))
            {
                using (var batch = index.BeginBatch())
                {
                    batch.Add(new IndexEntry("a").Add("Body", "alpha beta"));
                    batch.Add(new IndexEntry("b").Add("Body", "gamma beta"));
                    batch.Commit();
                }
                using (var batch = index.BeginBatch())
                {
                    batch.Delete("a");
                    batch.Commit();
                }
            }
            using (var index = SearchIndex.Open(StorageOptions.ForPath(path), Schema()))
            {
                Assert.Equal(1, DeadCount(index));
                using (var searcher = index.OpenSearcher())
                {
                    Assert.Equal(0, searcher.Count(new TermQuery("Body", FieldValue.From("alpha"))));
                    Assert.Equal(1, searcher.Count(new TermQuery("Body", FieldValue.From("beta"))));
                    var walked = new TermCounts();
                    searcher.WalkTerms("Body", walked);
                    Assert.Equal(["beta", "gamma"], walked.Counts.Keys.Order(StringComparer.Ordinal));
                    Assert.Equal(1, walked.Counts["beta"]);
                }
                Sweep(index);
                Assert.Equal(0, DeadCount(index));
                using var after = index.OpenSearcher();
                Assert.False(after.Transaction.OpenTree(SearchIndex.TermsTree("Body"))!.TryGet(TermEncoding.TermKey("alpha"u8), out _));
            }
        }
        finally
        {
            SearchIndex.Drop(path);
        }
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void Crash_AroundASweep_LeavesTheDeadEntriesWholeOrSwept(bool sweepCommitted)
    {
        var options = StorageOptions.InMemory() with { FileSystem = new MemoryFileSystem(), BackgroundFlush = false };
        var model = new Dictionary<string, (string Body, string Tag)>(StringComparer.Ordinal);
        var index = SearchIndex.Open(options, Schema());
        using (var batch = index.BeginBatch())
        {
            for (var i = 0; i < 300; i++)
            {
                var body = $"{Words[i % Words.Length]} {Words[(i / 3) % Words.Length]}";
                batch.Add(new IndexEntry($"k{i}").Add("Body", body).Add("Tag", $"t{i % 3}"));
                model[$"k{i}"] = (body, $"t{i % 3}");
            }
            batch.Commit();
        }
        using (var batch = index.BeginBatch())
        {
            for (var i = 0; i < 300; i += 3)
            {
                batch.Delete($"k{i}");
                model.Remove($"k{i}");
            }
            batch.Commit();
        }
        index.Environment.FlushToDataFile();
        Assert.Equal(100, DeadCount(index));

        var sweeping = index.BeginBatch();
        sweeping.SweepDeadEntries();
        if (sweepCommitted)
            sweeping.Commit();
        // The process dies: a committed sweep is in the journal only, an uncommitted one nowhere.
        index.Environment.SimulateCrash();

        using var reopened = SearchIndex.Open(options, Schema());
        reopened.Environment.Verify();
        Assert.Equal(sweepCommitted ? 0 : 100, DeadCount(reopened));
        AssertMatchesModel(reopened, model, sweepCommitted ? "after a committed sweep and a crash" : "after a crash before the sweep committed");
        if (sweepCommitted)
            AssertPostingsHoldOnlyLiveEntries(reopened, model);
    }

    [Fact]
    public void MoreLikeThis_CountsTermsByLiveEntries_WhileDeadOnesWait()
    {
        using var index = SearchIndex.Open(StorageOptions.InMemory(), Schema());
        using (var batch = index.BeginBatch())
        {
            batch.Add(new IndexEntry("s").Add("Body", "alpha beta").Add("Tag", "source"));
            batch.Add(new IndexEntry("a1").Add("Body", "alpha one"));
            batch.Add(new IndexEntry("a2").Add("Body", "alpha two"));
            batch.Add(new IndexEntry("c1").Add("Body", "beta three"));
            for (var i = 0; i < 3; i++)
                batch.Add(new IndexEntry($"b{i}").Add("Body", "beta gone"));
            batch.Commit();
        }
        using (var batch = index.BeginBatch())
        {
            for (var i = 0; i < 3; i++)
                batch.Delete($"b{i}");
            batch.Commit();
        }
        Assert.Equal(3, DeadCount(index));
        // beta is in 5 entries' postings but 2 live ones: under the limit of 3 only when the dead are not counted.
        var options = new MoreLikeThisOptions { MinimumTermFrequency = 1, MinimumDocumentFrequency = 1, MaximumDocumentFrequency = 3 };
        using var searcher = index.OpenSearcher();
        var like = new MoreLikeThisQuery(new TermQuery("Tag", FieldValue.From("source")), [], ["Body"], options);
        Assert.Equal(["a1", "a2", "c1", "s"], searcher.Search(like, 0, 10).Hits.Select(h => h.Key).Order(StringComparer.Ordinal));
    }

    [Fact]
    public void Delete_OfAnExactOrNumericField_StillTakesItsPostingsOutAtOnce()
    {
        using var index = SearchIndex.Open(StorageOptions.InMemory(), Schema());
        using (var batch = index.BeginBatch())
        {
            batch.Add(new IndexEntry("a").Add("Tag", "red").Add("N", 5L));
            batch.Commit();
        }
        using (var batch = index.BeginBatch())
        {
            batch.Delete("a");
            batch.Commit();
        }
        Assert.Equal(0, DeadCount(index));
        using var searcher = index.OpenSearcher();
        Assert.Equal(0, PostingStore.DocumentFrequency(searcher.Transaction.OpenTree(SearchIndex.TermsTree("Tag"))!, TermEncoding.TermKey("red"u8)));
    }

    private sealed class TermCounts : ITermWalker
    {
        public Dictionary<string, long> Counts { get; } = new(StringComparer.Ordinal);

        public bool Wants(ReadOnlySpan<byte> term) => true;

        public void Add(ReadOnlySpan<byte> term, long documentFrequency) => Counts[System.Text.Encoding.UTF8.GetString(term)] = documentFrequency;
    }
}
