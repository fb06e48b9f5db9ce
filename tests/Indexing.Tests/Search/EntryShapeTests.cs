using Folio.Indexing.Queries;
using Folio.Indexing.Search;
using Folio.Storage;
using Folio.Storage.Platform;

namespace Folio.Indexing.Tests.Search;

/// <summary>
/// Entry shapes (<see cref="EntryShapes"/>): records of entries with the same fields share one shape id,
/// a rolled-back batch's shapes are never reused, and past the limit records carry their shape themselves.
/// </summary>
public class EntryShapeTests
{
    private const int OptionalFields = 13;

    private static IndexSchema Schema()
    {
        var schema = new IndexSchema()
            .Add("Body", FieldKind.FullText)
            .Add("Tag", FieldKind.Exact)
            .Add("Price", FieldKind.Double);
        for (var f = 0; f < OptionalFields; f++)
            schema.Add($"F{f}", FieldKind.Exact);
        return schema;
    }

    private static void Index(SearchIndex index, params IndexEntry[] entries)
    {
        using var batch = index.BeginBatch();
        foreach (var entry in entries)
            batch.Add(entry);
        batch.Commit();
    }

    private static long ShapeCount(SearchIndex index)
    {
        using var searcher = index.OpenSearcher();
        return searcher.Transaction.OpenTree(SearchIndex.ShapesTree)!.Count;
    }

    private static List<string> Keys(SearchIndex index, Query query)
    {
        using var searcher = index.OpenSearcher();
        return searcher.Search(query, 0, 100_000).Hits.Select(h => h.Key).Order(StringComparer.Ordinal).ToList();
    }

    /// <summary>An entry with a body, and the optional fields whose bits <paramref name="fields"/> sets (each a shape of its own).</summary>
    private static IndexEntry EntryWithFields(string key, int fields, string body)
    {
        var entry = new IndexEntry(key).Add("Body", body);
        for (var f = 0; f < OptionalFields; f++)
        {
            if ((fields & (1 << f)) != 0)
                entry.Add($"F{f}", $"v{f}");
        }
        return entry;
    }

    /// <summary>Asserts that nothing is left of any entry: no keys, no postings, no terms, no column values.</summary>
    /// <summary>Asserts that nothing of the deleted entries is left, once a sweep took their ids out of the full-text postings.</summary>
    private static void AssertEmpty(SearchIndex index)
    {
        using (var batch = index.BeginBatch())
        {
            batch.SweepDeadEntries();
            batch.Commit();
        }
        using var searcher = index.OpenSearcher();
        Assert.Equal(0, searcher.EntryCount);
        Assert.Equal(0, searcher.Count(new ExistsQuery("Body")));
        Assert.Equal(0, searcher.Count(new TermQuery("Body", FieldValue.From("shared"))));
        var transaction = searcher.Transaction;
        foreach (var field in new[] { "Body", "Tag", "F0", "F12" })
            Assert.Equal(0, transaction.OpenTree(SearchIndex.TermIdsTree(field))?.Count ?? 0);
        Assert.Equal(0, transaction.OpenTree(SearchIndex.IdColumnTree("F0"))?.Count ?? 0);
        Assert.Equal(0, transaction.OpenTree(SearchIndex.PointsTree("Price"))?.Count ?? 0);
    }

    [Fact]
    public void Add_NamesOneShapePerSetOfFields_AndReusesItAfterReopening()
    {
        var options = StorageOptions.InMemory() with { FileSystem = new MemoryFileSystem() };
        using (var index = SearchIndex.Open(options, Schema()))
        {
            Index(index, Enumerable.Range(0, 200).Select(i => new IndexEntry($"a{i}").Add("Body", "shared words").Add("Tag", "t").Add("Price", i + 0.5)).ToArray());
            Assert.Equal(1, ShapeCount(index));
            Index(index, new IndexEntry("b").Add("Body", "shared other"));
            Assert.Equal(2, ShapeCount(index));
        }

        using var reopened = SearchIndex.Open(options, Schema());
        Index(reopened, new IndexEntry("c").Add("Body", "shared again").Add("Tag", "t").Add("Price", 1.5), new IndexEntry("d").Add("Body", "shared"));
        Assert.Equal(2, ShapeCount(reopened));
        Assert.Equal(["a7", "c"], Keys(reopened, new OrQuery([new PhraseQuery("Body", "shared again"), new TermQuery("Price", FieldValue.From(7.5))])));

        using (var batch = reopened.BeginBatch())
        {
            for (var i = 0; i < 200; i++)
                Assert.True(batch.Delete($"a{i}"));
            foreach (var key in new[] { "b", "c", "d" })
                Assert.True(batch.Delete(key));
            batch.Commit();
        }
        AssertEmpty(reopened);
    }

    [Fact]
    public void Add_NamesShapesAfresh_AfterABatchThatNamedShapesRolledBack()
    {
        using var index = SearchIndex.Open(StorageOptions.InMemory(), Schema());
        using (var abandoned = index.BeginBatch())
        {
            abandoned.Add(new IndexEntry("ghost").Add("Body", "shared ghost"));
            abandoned.Add(new IndexEntry("ghost2").Add("Body", "shared ghost").Add("F3", "x"));
        }
        Assert.Equal(0, ShapeCount(index));

        // The rolled-back batch's shapes had ids 1 and 2, which the next two batches hand out again: a cached
        // leftover would give "plain" the id of "with-tag"'s shape, and its delete would misread its record.
        Index(index, new IndexEntry("with-tag").Add("Body", "shared tagged words").Add("Tag", "red").Add("Price", 2.25));
        Index(index, new IndexEntry("plain").Add("Body", "shared plain words"));
        Assert.Equal(2, ShapeCount(index));
        Assert.Equal(["plain"], Keys(index, new PhraseQuery("Body", "shared plain")));
        Assert.Equal(["with-tag"], Keys(index, new PhraseQuery("Body", "shared tagged")));

        using (var batch = index.BeginBatch())
        {
            Assert.True(batch.Delete("plain"));
            Assert.True(batch.Delete("with-tag"));
            batch.Commit();
        }
        AssertEmpty(index);
    }

    [Fact]
    public void Add_CarriesTheShapeInTheRecord_OnceTheIndexNamesAsManyShapesAsItMay()
    {
        using var index = SearchIndex.Open(StorageOptions.InMemory(), Schema());
        var count = EntryShapes.MaxShapes + 100;
        Index(index, Enumerable.Range(1, count).Select(i => EntryWithFields($"e{i}", i, $"shared w{i} tail")).ToArray());
        Assert.Equal(EntryShapes.MaxShapes, ShapeCount(index));

        // Entries past the limit carry their shapes inline: phrases, fields and deletes still read them.
        Assert.Equal([$"e{count}"], Keys(index, new PhraseQuery("Body", $"w{count} tail")));
        Assert.Equal(count / 2, Keys(index, new ExistsQuery("F0")).Count);
        Assert.Equal([$"e{EntryShapes.MaxShapes + 1}"], Keys(index, new PhraseQuery("Body", $"shared w{EntryShapes.MaxShapes + 1}")));
        using (var batch = index.BeginBatch())
        {
            for (var i = 1; i <= count; i++)
                Assert.True(batch.Delete($"e{i}"));
            batch.Commit();
        }
        AssertEmpty(index);
    }

    [Fact]
    public void Get_ReadsACommittedShapeFromTheSnapshot_WhenTheCacheLacksIt()
    {
        using var index = SearchIndex.Open(StorageOptions.InMemory(), Schema());
        Index(index, new IndexEntry("a").Add("Body", "words").Add("Tag", "t").Add("Price", 1.0));
        using var searcher = index.OpenSearcher();
        var shape = new EntryShapes().Get(1, searcher.Transaction.OpenTree(SearchIndex.ShapesTree)!);
        Assert.Equal(3, shape.FieldCount);
        Assert.NotEqual(shape.Ordinal(0), shape.Ordinal(1));
        Assert.Throws<CorruptionException>(() => new EntryShapes().Get(2, searcher.Transaction.OpenTree(SearchIndex.ShapesTree)!));
    }
}
