using Folio.Indexing.Queries;
using Folio.Indexing.Search;
using Folio.Storage;
using Folio.Storage.Platform;

namespace Folio.Indexing.Tests.Search;

/// <summary>
/// A full-text field's positions kept per posting list (<see cref="PositionLists"/>): phrases read them through every
/// form a list takes (inline, open chunk, sealed chunk), as lists grow, are swept and shrink back inline, and across a reopen.
/// </summary>
public sealed class PositionsTests
{
    // Few words, so each is in most entries and its list runs to many chunks; "ant ant" repeats a term in a phrase.
    private static readonly string[] Words = ["ant", "bee", "cat", "dog", "eel"];

    private static readonly string[] Phrases = ["ant bee", "bee ant", "cat dog eel", "ant ant", "eel eel eel", "dog cat", "bee cat dog ant"];

    private static IndexSchema Schema() => new IndexSchema().Add("Body", FieldKind.FullText).Add("Tag", FieldKind.Exact);

    private static bool Contains(string body, string phrase) => (" " + body + " ").Contains(" " + phrase + " ", StringComparison.Ordinal);

    private static void AssertPhrasesMatchModel(SearchIndex index, Dictionary<string, string> model, string when)
    {
        using var searcher = index.OpenSearcher();
        foreach (var phrase in Phrases)
        {
            var expected = model.Where(e => Contains(e.Value, phrase)).Select(e => e.Key).Order(StringComparer.Ordinal).ToList();
            var found = searcher.Search(new PhraseQuery("Body", phrase), 0, model.Count + 1).Hits.Select(h => h.Key).Order(StringComparer.Ordinal).ToList();
            Assert.True(expected.SequenceEqual(found), $"{when}: \"{phrase}\" found {found.Count} entries, the model {expected.Count}.");
        }
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    public void Phrases_MatchAModel_ThroughChunksSealsSweepsAndAReopen(int seed)
    {
        var random = new Random(seed);
        var options = StorageOptions.InMemory() with { FileSystem = new MemoryFileSystem() };
        var model = new Dictionary<string, string>();
        var index = SearchIndex.Open(options, Schema());
        try
        {
            var next = 0;
            for (var round = 0; round < 14; round++)
            {
                using (var batch = index.BeginBatch())
                {
                    // Early rounds mostly add (lists pass 512 ids and seal); later ones replace and delete, and round 9 deletes
                    // most entries so the sweep shrinks lists back to a few ids, some inline again.
                    var operations = round < 6 ? 1500 : 400;
                    for (var i = 0; i < operations; i++)
                    {
                        var choice = random.Next(10);
                        if (round == 9 || (choice < 2 && model.Count > 0))
                        {
                            if (model.Count == 0)
                                break;
                            var key = model.Keys.ElementAt(random.Next(model.Count));
                            Assert.True(batch.Delete(key));
                            model.Remove(key);
                            continue;
                        }
                        var target = choice < 5 && model.Count > 0 ? model.Keys.ElementAt(random.Next(model.Count)) : $"e{next++}";
                        var body = string.Join(' ', Enumerable.Range(0, random.Next(1, 9)).Select(_ => Words[random.Next(Words.Length)]));
                        batch.Add(new IndexEntry(target).Add("Body", body).Add("Tag", $"t{random.Next(3)}"));
                        model[target] = body;
                    }
                    if (round % 3 == 2 || round == 9)
                        batch.SweepDeadEntries();
                    batch.Commit();
                }
                AssertPhrasesMatchModel(index, model, $"round {round}");
                if (round == 7)
                {
                    index.Dispose();
                    index = SearchIndex.Open(options, Schema());
                    AssertPhrasesMatchModel(index, model, "after the reopen");
                }
            }
            Assert.Equal(Words.Where(w => model.Values.Any(b => b.Split(' ').Contains(w))).Order(StringComparer.Ordinal), FullTextTrees.Terms(index, "Body"));
        }
        finally
        {
            index.Dispose();
        }
    }

    [Fact]
    public void Phrases_ReadPositionsOfLongTexts_AndOfTermsLeftWithAFewEntries()
    {
        using var index = SearchIndex.Open(StorageOptions.InMemory(), Schema());
        var far = string.Join(' ', Enumerable.Repeat("zeta", 5000)) + " omega kappa";
        using (var batch = index.BeginBatch())
        {
            batch.Add(new IndexEntry("long").Add("Body", far));
            for (var i = 0; i < 700; i++)
                batch.Add(new IndexEntry($"s{i}").Add("Body", i % 2 == 0 ? "omega kappa" : "kappa omega"));
            batch.Commit();
        }
        using (var searcher = index.OpenSearcher())
        {
            Assert.Equal(351, searcher.Count(new PhraseQuery("Body", "omega kappa")));
            Assert.Equal(1, searcher.Count(new PhraseQuery("Body", "zeta zeta omega")));
        }
        using (var batch = index.BeginBatch())
        {
            for (var i = 0; i < 698; i++)
                batch.Delete($"s{i}");
            batch.SweepDeadEntries();
            batch.Commit();
        }
        using (var searcher = index.OpenSearcher())
        {
            Assert.Equal(["long", "s698"], searcher.Search(new PhraseQuery("Body", "omega kappa"), 0, 10).Hits.Select(h => h.Key).Order(StringComparer.Ordinal));
            Assert.Equal(["s699"], searcher.Search(new PhraseQuery("Body", "kappa omega"), 0, 10).Hits.Select(h => h.Key));
        }
        Assert.Equal(["kappa", "omega", "zeta"], FullTextTrees.Terms(index, "Body"));
    }
}
