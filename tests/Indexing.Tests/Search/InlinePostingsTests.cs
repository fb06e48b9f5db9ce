using Folio.Indexing.Collectors;
using Folio.Indexing.Postings;
using Folio.Indexing.Queries;
using Folio.Indexing.Queries.Iterators;
using Folio.Indexing.Search;
using Folio.Storage;
using Folio.Storage.Platform;

namespace Folio.Indexing.Tests.Search;

/// <summary>
/// A term with at most <see cref="PostingStore.InlineLimit"/> ids keeps them in its header; these
/// tests move terms between that form and chunks and check both what queries see and the stored form.
/// </summary>
public class InlinePostingsTests
{
    private static IndexSchema Schema() => new IndexSchema()
        .Add("Tag", FieldKind.Exact)
        .Add("Num", FieldKind.Long)
        .Add("Body", FieldKind.FullText);

    private static SearchIndex Open(StorageOptions? options = null) => SearchIndex.Open(options ?? StorageOptions.InMemory(), Schema());

    private static IndexEntry Entry(string key, string tag, long num, string body = "plain words") =>
        new IndexEntry(key).Add("Tag", tag).Add("Num", num).Add("Body", body);

    private static void Commit(SearchIndex index, Action<IndexBatch> change)
    {
        using var batch = index.BeginBatch();
        change(batch);
        batch.Commit();
    }

    private enum Form
    {
        Absent,
        Inline,
        Chunked,
    }

    /// <summary>How a term is stored: its header's form and how many chunk entries follow it.</summary>
    private static (Form Form, long Frequency, int Chunks) Stored(SearchIndex index, string field, byte[] term)
    {
        using var searcher = index.OpenSearcher();
        var terms = searcher.Transaction.OpenTree(SearchIndex.TermsTree(field))!;
        var termKey = TermEncoding.TermKey(term);
        var chunks = 0;
        var cursor = terms.CreateCursor();
        var more = cursor.Seek(TermEncoding.ChunkKey(termKey, 0));
        while (more && PostingStore.IsChunkOf(cursor.Key, termKey))
        {
            chunks++;
            more = cursor.MoveNext();
        }
        if (!terms.TryGet(termKey, out var header))
            return (Form.Absent, 0, chunks);
        return (PostingStore.IsChunked(header) ? Form.Chunked : Form.Inline, PostingStore.DocumentFrequency(header), chunks);
    }

    private static List<string> Keys(SearchIndex index, Query query)
    {
        using var searcher = index.OpenSearcher();
        return searcher.Search(query, 0, 1000, [new SortField("Num")]).Hits.Select(h => h.Key).ToList();
    }

    private const int Limit = PostingStore.InlineLimit;

    private static TermQuery Tag(string value) => new("Tag", FieldValue.From(value));

    /// <summary>Adds <paramref name="count"/> entries keyed <paramref name="prefix"/>0, 1, … with the same tag and number.</summary>
    private static void AddMany(IndexBatch batch, string prefix, string tag, int count, long num)
    {
        for (var i = 0; i < count; i++)
            batch.Add(Entry($"{prefix}{i}", tag, num));
    }

    private static List<string> Names(string prefix, int count) => Enumerable.Range(0, count).Select(i => $"{prefix}{i}").ToList();

    private static RangeQuery Nums(long from, long to) => new("Num", FieldValue.From(from), true, FieldValue.From(to), true);

    [Fact]
    public void Apply_SingleId_IsStoredInlineWithoutChunk()
    {
        using var index = Open();
        Commit(index, b => b.Add(Entry("a", "solo", 7)));
        Assert.Equal((Form.Inline, 1L, 0), Stored(index, "Tag", TermEncoding.Text("solo")));
        Assert.Equal(["a"], Keys(index, Tag("solo")));
        Assert.Equal(["a"], Keys(index, Nums(0, 10)));
        Assert.Equal(["a"], Keys(index, new PrefixQuery("Tag", "so")));
    }

    [Fact]
    public void Apply_IdPastTheLimitInALaterCommit_MovesTheTermToAChunk()
    {
        using var index = Open();
        Commit(index, b => AddMany(b, "k", "few", Limit, 1));
        Assert.Equal((Form.Inline, (long)Limit, 0), Stored(index, "Tag", TermEncoding.Text("few")));
        Commit(index, b => b.Add(Entry("last", "few", 2)));
        Assert.Equal((Form.Chunked, Limit + 1L, 1), Stored(index, "Tag", TermEncoding.Text("few")));
        Assert.Equal([.. Names("k", Limit), "last"], Keys(index, Tag("few")));
    }

    [Fact]
    public void Apply_MoreThanTheLimitInOneCommit_AreStoredAsAChunk()
    {
        using var index = Open();
        Commit(index, b => AddMany(b, "k", "few", Limit + 1, 1));
        Assert.Equal((Form.Chunked, Limit + 1L, 1), Stored(index, "Tag", TermEncoding.Text("few")));
        Assert.Equal(Names("k", Limit + 1), Keys(index, Nums(1, 1)));
    }

    [Fact]
    public void Apply_DeleteDownToTheLimit_MovesTheTermBackInline()
    {
        using var index = Open();
        Commit(index, b => AddMany(b, "k", "few", Limit + 1, 1));
        Commit(index, b => b.Delete("k0"));
        Assert.Equal((Form.Inline, (long)Limit, 0), Stored(index, "Tag", TermEncoding.Text("few")));
        Assert.Equal(Names("k", Limit + 1)[1..], Keys(index, Tag("few")));
        Commit(index, b =>
        {
            for (var i = 1; i <= Limit; i++)
                b.Delete($"k{i}");
        });
        Assert.Equal((Form.Absent, 0L, 0), Stored(index, "Tag", TermEncoding.Text("few")));
        Assert.Empty(Keys(index, Tag("few")));
    }

    [Fact]
    public void Apply_DeleteOfTheInlineId_RemovesTheTerm()
    {
        using var index = Open();
        Commit(index, b => b.Add(Entry("a", "solo", 3)));
        Commit(index, b => b.Delete("a"));
        Assert.Equal((Form.Absent, 0L, 0), Stored(index, "Tag", TermEncoding.Text("solo")));
        Assert.Empty(Keys(index, Nums(0, 10)));
    }

    [Fact]
    public void Apply_UpdateOfTheOnlyEntry_ReplacesTheInlineId()
    {
        using var index = Open();
        Commit(index, b => b.Add(Entry("a", "solo", 3)));
        Commit(index, b => b.Add(Entry("a", "solo", 3)));
        Assert.Equal((Form.Inline, 1L, 0), Stored(index, "Tag", TermEncoding.Text("solo")));
        Assert.Equal(["a"], Keys(index, Tag("solo")));
        Assert.Equal(["a"], Keys(index, Nums(3, 3)));
    }

    [Fact]
    public void Apply_UpdateMovingAnEntryBetweenTerms_KeepsBothTermsRight()
    {
        using var index = Open();
        Commit(index, b =>
        {
            b.Add(Entry("a", "left", 1));
            AddMany(b, "r", "right", Limit, 2);
        });
        Commit(index, b => b.Add(Entry("a", "right", 1)));
        Assert.Equal((Form.Absent, 0L, 0), Stored(index, "Tag", TermEncoding.Text("left")));
        Assert.Equal((Form.Chunked, Limit + 1L, 1), Stored(index, "Tag", TermEncoding.Text("right")));
        Assert.Equal(["a", .. Names("r", Limit)], Keys(index, Tag("right")));
        Commit(index, b => b.Add(Entry("a", "left", 1)));
        Assert.Equal((Form.Inline, 1L, 0), Stored(index, "Tag", TermEncoding.Text("left")));
        Assert.Equal((Form.Inline, (long)Limit, 0), Stored(index, "Tag", TermEncoding.Text("right")));
        Assert.Equal(["a"], Keys(index, Tag("left")));
        Assert.Equal(Names("r", Limit), Keys(index, Tag("right")));
    }

    [Fact]
    public void Apply_DeleteAndReAddInOneBatch_KeepsOneInlineId()
    {
        using var index = Open();
        Commit(index, b => b.Add(Entry("a", "solo", 3)));
        Commit(index, b =>
        {
            b.Delete("a");
            b.Add(Entry("c", "solo", 4));
        });
        Assert.Equal((Form.Inline, 1L, 0), Stored(index, "Tag", TermEncoding.Text("solo")));
        Assert.Equal(["c"], Keys(index, Tag("solo")));
    }

    [Fact]
    public void Apply_ManyIdsDeletedDownToOne_GathersTheLastIdFromItsChunk()
    {
        using var index = Open();
        Commit(index, b =>
        {
            for (var i = 0; i < PostingStore.ChunkSize + 10; i++)
                b.Add(Entry($"k{i}", "many", i));
        });
        Assert.Equal((Form.Chunked, PostingStore.ChunkSize + 10L, 2), Stored(index, "Tag", TermEncoding.Text("many")));
        Commit(index, b =>
        {
            for (var i = 0; i < PostingStore.ChunkSize + 10; i++)
            {
                if (i != PostingStore.ChunkSize + 5)
                    b.Delete($"k{i}");
            }
        });
        Assert.Equal((Form.Inline, 1L, 0), Stored(index, "Tag", TermEncoding.Text("many")));
        Assert.Equal([$"k{PostingStore.ChunkSize + 5}"], Keys(index, Tag("many")));
    }

    [Fact]
    public void Apply_SmallBatchesToOneTerm_OpenANewChunkOnceTheLastHoldsTheExtendLimit()
    {
        using var index = Open();
        const int Batches = 30;
        const int PerBatch = 97;
        for (var b = 0; b < Batches; b++)
            Commit(index, batch => AddMany(batch, $"b{b}-", "growing", PerBatch, b));

        // Each batch re-encodes at most the last chunk's ExtendLimit ids: chunks close once they hold that
        // many, so 2,910 ids make several chunks rather than one of up to ChunkSize. A closed chunk keeps whole
        // blocks of ids; the ids past them stay open.
        var (closed, open) = (0, 0);
        for (var b = 0; b < Batches; b++)
        {
            open += PerBatch;
            if (open >= PostingStore.ExtendLimit)
                (closed, open) = (closed + 1, open % PostingsEncoder.BlockSize);
        }
        var (form, frequency, chunks) = Stored(index, "Tag", TermEncoding.Text("growing"));
        Assert.Equal((Form.Chunked, (long)Batches * PerBatch), (form, frequency));
        Assert.Equal(closed + (open > 0 ? 1 : 0), chunks);

        // Across those chunk boundaries the list reads, leaps and loses entries like one list.
        using (var searcher = index.OpenSearcher())
        {
            Assert.Equal(Batches * PerBatch, searcher.Count(Tag("growing")));
            var postings = searcher.Postings("Tag", TermEncoding.Text("growing"))!;
            var seen = new List<long>();
            for (var target = 0L; postings.Advance(target); target = postings.Current + 41)
                seen.Add(postings.Current);
            Assert.Equal(Enumerable.Range(0, Batches * PerBatch).Where(i => i % 41 == 0).Select(i => (long)i), seen);
        }
        Commit(index, batch =>
        {
            for (var b = 0; b < Batches; b++)
                batch.Delete($"b{b}-{b % PerBatch}");
        });
        using var after = index.OpenSearcher();
        Assert.Equal(Batches * (PerBatch - 1), after.Count(Tag("growing")));
        Assert.Equal(Batches * (PerBatch - 1), after.Count(new AndQuery([Tag("growing"), Nums(0, Batches)])));
    }

    [Fact]
    public void TermIterator_InlineTermInAnIntersection_LeapsWithTheLongList()
    {
        using var index = Open();
        Commit(index, b =>
        {
            for (var i = 0; i < PostingStore.ChunkSize * 2 + 100; i++)
                b.Add(Entry($"k{i}", i == 5000 ? "rare" : "common", i, i == 5000 ? "common rare" : "common"));
        });
        Assert.Equal((Form.Inline, 1L, 0), Stored(index, "Tag", TermEncoding.Text("rare")));
        Assert.Equal(["k5000"], Keys(index, new AndQuery([new TermQuery("Body", FieldValue.From("common")), Tag("rare")])));
        Assert.Equal(["k5000"], Keys(index, new AndQuery([new FullTextQuery("Body", "rare"), Nums(4000, 6000)])));
        using var searcher = index.OpenSearcher();
        var rare = Assert.IsType<TermIterator>(searcher.Postings("Tag", TermEncoding.Text("rare")));
        Assert.True(rare.Advance(100));
        var id = rare.Current;
        Assert.True(rare.Advance(id));
        Assert.False(rare.Advance(id + 1));
        Assert.Equal(DocIdIterator.NoMoreIds, rare.Current);
        Assert.False(rare.MoveNext());
    }

    [Fact]
    public void TermIterator_InlineFullTextTerm_KeepsFrequencyAndDocumentFrequency()
    {
        using var index = Open();
        Commit(index, b =>
        {
            b.Add(Entry("a", "x", 1, "zebra zebra zebra runs"));
            b.Add(Entry("b", "x", 2, "horse runs"));
        });
        Assert.Equal((Form.Inline, 1L, 0), Stored(index, "Body", TermEncoding.Text("zebra")));
        using var searcher = index.OpenSearcher();
        var zebra = Assert.IsType<TermIterator>(searcher.Postings("Body", TermEncoding.Text("zebra")));
        Assert.Equal(1, zebra.DocumentFrequency);
        Assert.True(zebra.MoveNext());
        Assert.Equal(3, zebra.Frequency);
        Assert.False(zebra.MoveNext());
        var top = searcher.Search(new FullTextQuery("Body", "zebra runs"), 0, 10, [SortField.Score]).Hits;
        Assert.Equal(["a", "b"], top.Select(h => h.Key));
        Assert.True(top[0].Score > top[1].Score);
        Assert.Equal(1, searcher.Count(new PhraseQuery("Body", "zebra runs")));
        Assert.Equal(1, searcher.Count(new PhraseQuery("Body", "horse runs")));
    }

    [Fact]
    public void Reopen_AfterTransitions_ReadsBothForms()
    {
        var options = StorageOptions.InMemory() with { FileSystem = new MemoryFileSystem() };
        using (var index = Open(options))
        {
            Commit(index, b =>
            {
                AddMany(b, "p", "shrinks", Limit + 1, 1);
                b.Add(Entry("g", "grows", 3));
            });
            Commit(index, b => b.Delete("p0"));
            Commit(index, b => AddMany(b, "q", "grows", Limit, 4));
        }
        using var reopened = Open(options);
        Assert.Equal((Form.Inline, (long)Limit, 0), Stored(reopened, "Tag", TermEncoding.Text("shrinks")));
        Assert.Equal((Form.Chunked, Limit + 1L, 1), Stored(reopened, "Tag", TermEncoding.Text("grows")));
        Assert.Equal(Names("p", Limit + 1)[1..], Keys(reopened, Tag("shrinks")));
        Assert.Equal(["g", .. Names("q", Limit)], Keys(reopened, Tag("grows")));
        Assert.Equal(Limit + 1 + Limit, Keys(reopened, Nums(1, 4)).Count);
        Commit(reopened, b => b.Add(Entry("e", "shrinks", 5)));
        Assert.Equal([.. Names("p", Limit + 1)[1..], "e"], Keys(reopened, Tag("shrinks")));
    }
}
