using Folio.Indexing.Collectors;
using Folio.Indexing.Queries;
using Folio.Indexing.Search;
using Folio.Storage;
using Folio.Storage.Platform;

namespace Folio.Indexing.Tests.Search;

/// <summary>
/// Queries through an index whose terms trees are large enough for batches to write posting runs
/// (<see cref="PostingRuns"/>): terms, prefixes, term sets, phrases, facet counts and term walks against a model after
/// each batch of additions, updates and deletes, while runs wait and across folds.
/// </summary>
public class PostingRunsQueryTests
{
    private const int Fillers = 20_000;
    private const int Groups = 30;
    private const int Words = 12;

    private static string Word(int n) => $"k{n}x";

    [Fact]
    public void Queries_WhileRunsWaitAndAcrossFolds_MatchTheModel()
    {
        using var index = SearchIndex.Open(StorageOptions.InMemory() with { FileSystem = new MemoryFileSystem() },
            new IndexSchema().Add("Group", FieldKind.Exact).Add("Body", FieldKind.FullText));
        var random = new Random(5);
        var model = new Dictionary<string, (string Group, string[] Body)>();
        // Unique values fill both terms trees past the size from which batches write runs.
        using (var batch = index.BeginBatch())
        {
            for (var i = 0; i < Fillers; i++)
            {
                var entry = (Group: $"filler-group-{i:D6}", Body: new[] { $"fillerword{i:D6}", Word(i % Words) });
                batch.Add(new IndexEntry($"e{i}").Add("Group", entry.Group).Add("Body", string.Join(' ', entry.Body)));
                model[$"e{i}"] = entry;
            }
            batch.Commit();
        }
        using (var searcher = index.OpenSearcher())
        {
            Assert.True(searcher.Transaction.OpenTree(SearchIndex.TermsTree("Group"))!.LeafPages >= PostingRuns.MinLeafPages);
            Assert.True(searcher.Transaction.OpenTree(SearchIndex.TermsTree("Body"))!.LeafPages >= PostingRuns.MinLeafPages);
        }

        var mostRuns = 0;
        var folds = 0;
        var previous = 0;
        var next = Fillers;
        for (var round = 0; round < 14; round++)
        {
            using (var batch = index.BeginBatch())
            {
                for (var i = 0; i < 150; i++)
                {
                    // New entries, updates of recent ones and of fillers, and deletes.
                    var key = random.Next(4) switch
                    {
                        0 => $"e{random.Next(Fillers, next)}",
                        1 when round > 0 => $"e{random.Next(next)}",
                        _ => $"e{next++}",
                    };
                    if (random.Next(6) == 0)
                    {
                        batch.Delete(key);
                        model.Remove(key);
                        continue;
                    }
                    var body = Enumerable.Range(0, random.Next(1, 6)).Select(_ => Word(random.Next(Words))).ToArray();
                    var group = $"g{random.Next(Groups)}";
                    batch.Add(new IndexEntry(key).Add("Group", group).Add("Body", string.Join(' ', body)));
                    model[key] = (group, body);
                }
                batch.Commit();
            }
            using var searcher = index.OpenSearcher();
            var runs = PostingRuns.Starts(searcher.Transaction.OpenTree(SearchIndex.PostingRunsTree("Body"))).Count;
            mostRuns = Math.Max(mostRuns, runs);
            if (runs < previous)
                folds++;
            previous = runs;

            for (var g = 0; g < Groups; g++)
            {
                var group = $"g{g}";
                Assert.Equal(Expected(e => e.Group == group), Keys(searcher, new TermQuery("Group", FieldValue.From(group))));
            }
            // The words are a full-text field's, whose additions wait in runs: prefixes, term sets past 16 values (a walk
            // of the sorted terms into one bit set), phrases and term walks read them.
            Assert.Equal(Expected(e => e.Body.Any(w => w.StartsWith("k1", StringComparison.Ordinal))), Keys(searcher, new PrefixQuery("Body", "k1")));
            var many = Enumerable.Range(0, 20).Select(Word).ToHashSet();
            Assert.Equal(Expected(e => e.Body.Any(many.Contains)), Keys(searcher, new TermsInQuery("Body", [.. many.Select(FieldValue.From)])));
            for (var w = 0; w < Words; w++)
            {
                var word = Word(w);
                Assert.Equal(Expected(e => e.Body.Contains(word)), Keys(searcher, new TermQuery("Body", FieldValue.From(word))));
            }
            Assert.Equal(Expected(e => Adjacent(e.Body, Word(1), Word(2))), Keys(searcher, new PhraseQuery("Body", $"{Word(1)} {Word(2)}")));
            var walker = new CountingWalker();
            searcher.WalkTerms("Body", walker);
            for (var w = 0; w < Words; w++)
                Assert.Equal(model.Values.Count(e => e.Body.Contains(Word(w))), walker.Counts.GetValueOrDefault(Word(w)));

            // An exact field writes no runs (its facets count each term from its header alone).
            Assert.Null(searcher.Transaction.OpenTree(SearchIndex.PostingRunsTree("Group")));
            Assert.Equal(Expected(e => e.Group.StartsWith("g1", StringComparison.Ordinal)).Count, searcher.Count(new PrefixQuery("Group", "g1")));

            // Facets over every entry, walked and counted from each term's header, give the model's counts.
            var walked = new TermFacetCollector("Group");
            searcher.Collect(MatchAllQuery.Instance, walked);
            var counted = new TermFacetCollector("Group");
            Assert.True(((IEveryEntryCounter)counted).TryCountEveryEntry(searcher));
            for (var g = 0; g < Groups; g++)
            {
                var group = FieldValue.From($"g{g}");
                var expected = model.Values.Count(e => e.Group == $"g{g}");
                Assert.Equal(expected, walked.Counts.TryGetValue(group, out var count) ? count : 0);
                Assert.Equal(expected, counted.Counts.TryGetValue(group, out count) ? count : 0);
            }
        }
        Assert.Equal(PostingRuns.MaxRuns, mostRuns);
        Assert.True(folds >= 1, $"{folds} folds");

        List<string> Expected(Func<(string Group, string[] Body), bool> match) =>
            model.Where(e => match(e.Value)).Select(e => e.Key).Order(StringComparer.Ordinal).ToList();
    }

    private sealed class CountingWalker : Folio.Indexing.Engines.ITermWalker
    {
        public Dictionary<string, long> Counts { get; } = [];

        public bool Wants(ReadOnlySpan<byte> term) => term.Length > 0 && term[0] == (byte)'k';

        public void Add(ReadOnlySpan<byte> term, long documentFrequency) => Counts[System.Text.Encoding.UTF8.GetString(term)] = documentFrequency;
    }

    private static bool Adjacent(string[] body, string first, string second)
    {
        for (var i = 0; i + 1 < body.Length; i++)
        {
            if (body[i] == first && body[i + 1] == second)
                return true;
        }
        return false;
    }

    private static List<string> Keys(IndexSearcher searcher, Query query) =>
        searcher.Search(query, 0, int.MaxValue).Hits.Select(h => h.Key).Order(StringComparer.Ordinal).ToList();
}
