using Folio.Indexing.Analysis;
using Folio.Indexing.Queries;
using Folio.Indexing.Search;
using Folio.Storage;

namespace Folio.Indexing.Tests.Search;

/// <summary>Entry records that name fields by ordinal and exact terms by id, and full-text fields whose postings keep their terms and positions: deletes, phrases and the term dictionary.</summary>
public class EntryRecordTests
{
    private static IndexSchema Schema(FieldKind tagKind = FieldKind.Exact) => new IndexSchema()
        .Add("Body", FieldKind.FullText)
        .Add("Tag", tagKind)
        .Add("Marked", new FieldOptions(FieldKind.FullText, Analyzer: new MarkedPositionsAnalyzer()));

    private static void Index(SearchIndex index, params IndexEntry[] entries)
    {
        using var batch = index.BeginBatch();
        foreach (var entry in entries)
            batch.Add(entry);
        batch.Commit();
    }

    private static void Delete(SearchIndex index, params string[] keys)
    {
        using var batch = index.BeginBatch();
        foreach (var key in keys)
            Assert.True(batch.Delete(key));
        batch.Commit();
    }

    /// <summary>A batch that takes every deleted entry out of the full-text postings (<see cref="IndexBatch.SweepDeadEntries"/>).</summary>
    private static void Sweep(SearchIndex index)
    {
        using var batch = index.BeginBatch();
        batch.SweepDeadEntries();
        batch.Commit();
    }

    private static List<string> Keys(SearchIndex index, Query query)
    {
        using var searcher = index.OpenSearcher();
        return searcher.Search(query, 0, 1000).Hits.Select(h => h.Key).Order(StringComparer.Ordinal).ToList();
    }

    /// <summary>The terms the dictionary of <paramref name="field"/> holds, checked against its id → term tree.</summary>
    private static List<string> DictionaryTerms(SearchIndex index, string field)
    {
        using var searcher = index.OpenSearcher();
        var ids = searcher.Transaction.OpenTree(SearchIndex.TermIdsTree(field));
        var terms = searcher.Transaction.OpenTree(SearchIndex.IdTermsTree(field));
        Assert.Equal(ids?.Count ?? 0, terms?.Count ?? 0);
        var result = new List<string>();
        if (terms is null)
            return result;
        var cursor = terms.CreateCursor();
        for (var more = cursor.Seek([]); more; more = cursor.MoveNext())
            result.Add(System.Text.Encoding.UTF8.GetString(cursor.Value));
        result.Sort(StringComparer.Ordinal);
        return result;
    }

    [Fact]
    public void Delete_TakesATermOut_WhenItsLastEntryGoes_AtTheSweepForFullText()
    {
        using var index = SearchIndex.Open(StorageOptions.InMemory(), Schema());
        Index(index,
            new IndexEntry("a").Add("Body", "alpha beta").Add("Tag", "red"),
            new IndexEntry("b").Add("Body", "beta gamma").Add("Tag", "red"));
        Assert.Equal(["alpha", "beta", "gamma"], FullTextTrees.Terms(index, "Body"));
        Assert.Equal(["red"], DictionaryTerms(index, "Tag"));

        Delete(index, "a");
        // The full-text postings keep the deleted entry until the sweep; no query finds it meanwhile.
        Assert.Equal(["alpha", "beta", "gamma"], FullTextTrees.Terms(index, "Body"));
        Assert.Empty(Keys(index, new TermQuery("Body", FieldValue.From("alpha"))));
        Assert.Equal(["b"], Keys(index, new TermQuery("Body", FieldValue.From("beta"))));
        Sweep(index);
        Assert.Equal(["beta", "gamma"], FullTextTrees.Terms(index, "Body"));
        Assert.Equal(["red"], DictionaryTerms(index, "Tag"));

        Index(index, new IndexEntry("c").Add("Body", "alpha beta").Add("Tag", "blue"));
        Assert.Equal(["alpha", "beta", "gamma"], FullTextTrees.Terms(index, "Body"));
        Assert.Equal(["c"], Keys(index, new PhraseQuery("Body", "alpha beta")));
        Delete(index, "b", "c");
        Assert.Empty(DictionaryTerms(index, "Tag"));
        Sweep(index);
        Assert.Empty(FullTextTrees.Terms(index, "Body"));
    }

    [Fact]
    public void Update_KeepsTheDictionaryToTheLiveTerms_UnderChurnOfNewTerms()
    {
        using var index = SearchIndex.Open(StorageOptions.InMemory(), Schema());
        for (var round = 0; round < 30; round++)
        {
            using var batch = index.BeginBatch();
            for (var key = 0; key < 10; key++)
                batch.Add(new IndexEntry($"k{key}").Add("Body", $"common w{round}x{key} word{round}").Add("Tag", $"t{round}-{key % 3}"));
            // An entry added and deleted in one batch leaves its terms nowhere either.
            batch.Add(new IndexEntry("passing").Add("Body", $"transient{round}").Add("Tag", $"gone{round}"));
            batch.Delete("passing");
            batch.Commit();
        }
        Assert.Empty(Keys(index, new TermQuery("Body", FieldValue.From("word28"))));
        Sweep(index);
        var live = new List<string> { "common", "word29" };
        for (var key = 0; key < 10; key++)
            live.Add($"w29x{key}");
        live.Sort(StringComparer.Ordinal);
        Assert.Equal(live, FullTextTrees.Terms(index, "Body"));
        Assert.Equal(["t29-0", "t29-1", "t29-2"], DictionaryTerms(index, "Tag"));
        Assert.Equal(["k3"], Keys(index, new PhraseQuery("Body", "common w29x3 word29")));
    }

    [Fact]
    public void Phrase_FindsTokensAnAnalyzerEmitsOutOfOrderOrAtOnePosition()
    {
        using var index = SearchIndex.Open(StorageOptions.InMemory(), Schema());
        Index(index,
            new IndexEntry("shuffled").Add("Marked", "c@2 a@0 b@1 far@9"),
            new IndexEntry("synonyms").Add("Marked", "quick@0 fast@0 fox@1"));
        Assert.Equal(["shuffled"], Keys(index, new PhraseQuery("Marked", "a@0 b@1")));
        Assert.Equal(["shuffled"], Keys(index, new PhraseQuery("Marked", "b@0 c@1")));
        Assert.Equal(["shuffled"], Keys(index, new PhraseQuery("Marked", "c@0 far@7")));
        Assert.Empty(Keys(index, new PhraseQuery("Marked", "a@0 c@1")));
        Assert.Equal(["synonyms"], Keys(index, new PhraseQuery("Marked", "fast@0 fox@1")));
        Assert.Equal(["synonyms"], Keys(index, new PhraseQuery("Marked", "quick@0 fox@1")));

        Delete(index, "shuffled", "synonyms");
        Sweep(index);
        Assert.Empty(FullTextTrees.Terms(index, "Marked"));
    }

    [Fact]
    public void Add_RefusesANegativeTokenPosition_AndLeavesTheEntryAsItWas()
    {
        using var index = SearchIndex.Open(StorageOptions.InMemory(), Schema());
        Index(index, new IndexEntry("a").Add("Marked", "old@0"));
        using (var batch = index.BeginBatch())
        {
            var error = Assert.Throws<InvalidOperationException>(() => batch.Add(new IndexEntry("a").Add("Marked", "new@-1")));
            Assert.Contains("position -1", error.Message);
            batch.Commit();
        }
        Assert.Equal(["a"], Keys(index, new PhraseQuery("Marked", "old@0")));
        Assert.Equal(["old"], FullTextTrees.Terms(index, "Marked"));
    }

    [Fact]
    public void Add_RefusesATokenPositionPastTheLimit_AndLeavesTheEntryAsItWas()
    {
        using var index = SearchIndex.Open(StorageOptions.InMemory(), Schema());
        Index(index, new IndexEntry("a").Add("Marked", "old@0"));
        using (var batch = index.BeginBatch())
        {
            Assert.Throws<InvalidOperationException>(() => batch.Add(new IndexEntry("a").Add("Marked", $"far@{int.MaxValue}")));
            // The limit counts the gap before a second value too.
            Assert.Throws<InvalidOperationException>(() => batch.Add(new IndexEntry("a").Add("Marked", $"x@{IndexBatch.MaxPosition}").Add("Marked", "y@0")));
            batch.Add(new IndexEntry("b").Add("Marked", $"edge@{IndexBatch.MaxPosition}"));
            batch.Commit();
        }
        Assert.Equal(["a"], Keys(index, new PhraseQuery("Marked", "old@0")));
        Assert.Equal(["b"], Keys(index, new TermQuery("Marked", FieldValue.From("edge@0"))));
        Delete(index, "a", "b");
        Sweep(index);
        Assert.Empty(FullTextTrees.Terms(index, "Marked"));
    }

    [Fact]
    public void Phrase_DoesNotSpanValues_WhenAValueEndsOnAnEarlierPositionThanItsHighest()
    {
        using var index = SearchIndex.Open(StorageOptions.InMemory(), Schema());
        Index(index, new IndexEntry("a").Add("Marked", "x@101 y@0").Add("Marked", "z@1"));
        Assert.Empty(Keys(index, new PhraseQuery("Marked", "x@0 z@1")));
        Assert.Equal(["a"], Keys(index, new TermQuery("Marked", FieldValue.From("z@0"))));
    }

    [Fact]
    public void GetValues_StillReadsAnExactFieldsValues_AfterTheFieldIsRedeclaredStored()
    {
        var path = Path.Combine(Path.GetTempPath(), "folio-record-" + Guid.NewGuid().ToString("N"));
        try
        {
            long id;
            using (var index = SearchIndex.Open(StorageOptions.ForPath(path), Schema(FieldKind.Exact)))
            {
                Index(index, new IndexEntry("a").Add("Tag", "Red"));
                using var searcher = index.OpenSearcher();
                id = searcher.Search(new MatchAllQuery(), 0, 1).Hits[0].EntryId;
            }
            using (var index = SearchIndex.Open(StorageOptions.ForPath(path), Schema(FieldKind.Stored)))
            {
                using (var searcher = index.OpenSearcher())
                    Assert.Equal([FieldValue.From("red")], searcher.GetValues("Tag", id));
                Delete(index, "a");
                using (var searcher = index.OpenSearcher())
                {
                    Assert.Null(searcher.GetValues("Tag", id));
                    Assert.Equal(0, searcher.Transaction.OpenTree(SearchIndex.IdColumnTree("Tag"))!.Count);
                }
                Assert.Empty(DictionaryTerms(index, "Tag"));
            }
        }
        finally
        {
            SearchIndex.Drop(path);
        }
    }

    [Fact]
    public void Delete_TakesOutAnEntryIndexedBeforeItsFieldWasRedeclared()
    {
        var path = Path.Combine(Path.GetTempPath(), "folio-record-" + Guid.NewGuid().ToString("N"));
        try
        {
            using (var index = SearchIndex.Open(StorageOptions.ForPath(path), Schema(FieldKind.Exact)))
                Index(index, new IndexEntry("a").Add("Tag", "12").Add("Body", "kept words"), new IndexEntry("b").Add("Tag", "12"));
            using (var index = SearchIndex.Open(StorageOptions.ForPath(path), Schema(FieldKind.Long)))
            {
                Delete(index, "a");
                Sweep(index);
                Assert.Equal(["12"], DictionaryTerms(index, "Tag"));
                Assert.Empty(FullTextTrees.Terms(index, "Body"));
                Index(index, new IndexEntry("c").Add("Tag", 12L));
                Delete(index, "b", "c");
                Assert.Empty(DictionaryTerms(index, "Tag"));
            }
        }
        finally
        {
            SearchIndex.Drop(path);
        }
    }

    [Fact]
    public void GetValues_ReadsAnExactValueFromItsTermIdOrItsDocValues_UntilTheEntryIsDeleted()
    {
        using var index = SearchIndex.Open(StorageOptions.InMemory(), Schema());
        var longValue = new string('v', 300);
        Index(index,
            new IndexEntry("term").Add("Tag", "Red"),
            new IndexEntry("long").Add("Tag", longValue),
            new IndexEntry("many").Add("Tag", "x").Add("Tag", "y"),
            new IndexEntry("null").AddNull("Tag"));
        Dictionary<string, long> ids;
        using (var searcher = index.OpenSearcher())
        {
            ids = searcher.Search(new MatchAllQuery(), 0, 10).Hits.ToDictionary(h => h.Key, h => h.EntryId);
            Assert.Equal([FieldValue.From("red")], searcher.GetValues("Tag", ids["term"]));
            Assert.Equal([FieldValue.From(longValue)], searcher.GetValues("Tag", ids["long"]));
            Assert.Equal([FieldValue.From("x"), FieldValue.From("y")], searcher.GetValues("Tag", ids["many"]));
            Assert.Equal([FieldValue.Null], searcher.GetValues("Tag", ids["null"]));
            var column = NumericColumn.ForTermIds(searcher.Transaction.OpenTree(SearchIndex.IdColumnTree("Tag"))!);
            Assert.True(column.TryGet(ids["term"], out _));
            Assert.False(column.TryGet(ids["long"], out _));
            Assert.False(column.TryGet(ids["many"], out _));
            Assert.False(column.TryGet(ids["null"], out _));
        }
        Delete(index, "term", "long", "many", "null");
        using (var searcher = index.OpenSearcher())
        {
            foreach (var id in ids.Values)
                Assert.Null(searcher.GetValues("Tag", id));
            Assert.Equal(0, searcher.Transaction.OpenTree(SearchIndex.IdColumnTree("Tag"))!.Count);
        }
    }

    [Fact]
    public void Commit_AppliesOnlyItsOwnBatch_AfterABatchWasRolledBack()
    {
        using var index = SearchIndex.Open(StorageOptions.InMemory(), Schema());
        Index(index, new IndexEntry("kept").Add("Body", "shared words").Add("Tag", "old"));
        using (var abandoned = index.BeginBatch())
        {
            abandoned.Add(new IndexEntry("abandoned").Add("Body", "shared ghost").Add("Tag", "ghost"));
            abandoned.Delete("kept");
        }
        Index(index, new IndexEntry("next").Add("Body", "shared fresh").Add("Tag", "new"));
        Assert.Equal(["kept", "next"], Keys(index, new TermQuery("Body", FieldValue.From("shared"))));
        Assert.Empty(Keys(index, new TermQuery("Body", FieldValue.From("ghost"))));
        Assert.Empty(Keys(index, new TermQuery("Tag", FieldValue.From("ghost"))));
        Assert.Equal(["kept", "next"], Keys(index, new ExistsQuery("Tag")));
        Assert.Equal(["fresh", "share", "word"], FullTextTrees.Terms(index, "Body"));
    }

    /// <summary>Splits on spaces; each word is <c>term@position</c>, so a test states the positions it wants.</summary>
    private sealed class MarkedPositionsAnalyzer : Analyzer
    {
        public override void Analyze<TSink>(ReadOnlySpan<char> text, ref TSink sink)
        {
            var previous = 0;
            foreach (var range in text.Split(' '))
            {
                var word = text[range];
                var at = word.IndexOf('@');
                var position = int.Parse(word[(at + 1)..], System.Globalization.CultureInfo.InvariantCulture);
                sink.OnToken(new Token(word[..at], position, position - previous, range.Start.Value, range.End.Value));
                previous = position;
            }
        }
    }
}
