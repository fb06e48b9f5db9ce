using System.Buffers.Binary;
using Folio.Indexing.Collectors;
using Folio.Indexing.Queries;
using Folio.Indexing.Search;
using Folio.Storage;
using Folio.Storage.Platform;

namespace Folio.Indexing.Tests.Search;

/// <summary>
/// A posting chunk that reaches <see cref="PostingStore.ExtendLimit"/> ids is sealed: its bytes move to the
/// field's sealed tree and its entry in the terms tree refers to them. These tests check where chunks are
/// stored and that queries, deletes and reopening see one list across both forms.
/// </summary>
public class SealedChunksTests
{
    private const int Sealable = PostingStore.ExtendLimit;

    private static IndexSchema Schema() => new IndexSchema()
        .Add("Tag", FieldKind.Exact)
        .Add("Num", FieldKind.Long)
        .Add("Body", FieldKind.FullText);

    private static SearchIndex Open(StorageOptions? options = null) => SearchIndex.Open(options ?? StorageOptions.InMemory(), Schema());

    private static IndexEntry Entry(string key, string tag, long num, string body) =>
        new IndexEntry(key).Add("Tag", tag).Add("Num", num).Add("Body", body);

    private static void Commit(SearchIndex index, Action<IndexBatch> change)
    {
        using var batch = index.BeginBatch();
        change(batch);
        batch.Commit();
    }

    /// <summary>Adds entries <paramref name="prefix"/>0 … with the tag, the number <paramref name="from"/> + i and a body naming the tag.</summary>
    private static void AddMany(IndexBatch batch, string prefix, string tag, int count, long from = 0)
    {
        for (var i = 0; i < count; i++)
            batch.Add(Entry($"{prefix}{i}", tag, from + i, $"{tag} word{i % 7}"));
    }

    /// <summary>The term's chunk entries in order, each as whether it is sealed, and the sealed tree's size.</summary>
    private static (List<bool> Chunks, long SealedCount) Stored(SearchIndex index, string field, string term)
    {
        using var searcher = index.OpenSearcher();
        var terms = searcher.Transaction.OpenTree(SearchIndex.TermsTree(field))!;
        var termKey = TermEncoding.TermKey(TermEncoding.Text(term));
        var chunks = new List<bool>();
        var cursor = terms.CreateCursor();
        var more = cursor.Seek(TermEncoding.ChunkKey(termKey, 0));
        while (more && PostingStore.IsChunkOf(cursor.Key, termKey))
        {
            chunks.Add(PostingStore.IsSealed(cursor.Value));
            more = cursor.MoveNext();
        }
        return (chunks, searcher.Transaction.OpenTree(SearchIndex.SealedTree(field))?.Count ?? 0);
    }

    /// <summary>The sequence numbers of the field's sealed chunks.</summary>
    private static List<long> SealNumbers(SearchIndex index, string field)
    {
        using var searcher = index.OpenSearcher();
        var numbers = new List<long>();
        var cursor = searcher.Transaction.OpenTree(SearchIndex.SealedTree(field))!.CreateCursor();
        for (var more = cursor.First(); more; more = cursor.MoveNext())
            numbers.Add(BinaryPrimitives.ReadInt64BigEndian(cursor.Key));
        return numbers;
    }

    /// <summary>Deletes sealed chunk <paramref name="seal"/> of the field, as damage on disk would lose it.</summary>
    private static void LoseSealedChunk(SearchIndex index, string field, long seal)
    {
        using var tx = index.Environment.BeginWrite();
        var key = new byte[8];
        BinaryPrimitives.WriteInt64BigEndian(key, seal);
        Assert.True(tx.OpenTree(SearchIndex.SealedTree(field))!.Delete(key));
        tx.Commit();
    }

    /// <summary>Replaces the value of the term's first chunk entry, as damage on disk would.</summary>
    private static void DamageFirstChunk(SearchIndex index, string field, string term, byte[] value)
    {
        using var tx = index.Environment.BeginWrite();
        var terms = tx.OpenTree(SearchIndex.TermsTree(field))!;
        var termKey = TermEncoding.TermKey(TermEncoding.Text(term));
        var cursor = terms.CreateCursor();
        Assert.True(cursor.Seek(TermEncoding.ChunkKey(termKey, 0)) && PostingStore.IsChunkOf(cursor.Key, termKey));
        terms.Put(cursor.Key.ToArray(), value);
        tx.Commit();
    }

    private static void AssertStored(bool[] chunks, long sealedCount, SearchIndex index, string field, string term)
    {
        var stored = Stored(index, field, term);
        Assert.Equal(chunks, stored.Chunks);
        Assert.Equal(sealedCount, stored.SealedCount);
    }

    private static List<string> Keys(SearchIndex index, Query query)
    {
        using var searcher = index.OpenSearcher();
        return searcher.Search(query, 0, 100_000, [new SortField("Num")]).Hits.Select(h => h.Key).ToList();
    }

    private static List<string> Names(string prefix, int count) => Enumerable.Range(0, count).Select(i => $"{prefix}{i}").ToList();

    private static TermQuery Tag(string value) => new("Tag", FieldValue.From(value));

    /// <summary>Entries a0 … a(2 × limit − 1) tagged "full", in two batches, so two chunks (a batch fills one chunk up to <see cref="PostingStore.ChunkSize"/>).</summary>
    private static void AddTwoSealedChunks(SearchIndex index)
    {
        Commit(index, b => AddMany(b, "a", "full", Sealable));
        Commit(index, b =>
        {
            for (var i = Sealable; i < Sealable * 2; i++)
                b.Add(Entry($"a{i}", "full", i, $"full word{i % 7}"));
        });
    }

    [Fact]
    public void Apply_ChunkReachingTheExtendLimit_IsSealed()
    {
        using var index = Open();
        Commit(index, b =>
        {
            AddMany(b, "a", "full", Sealable);
            AddMany(b, "b", "short", Sealable - 1, Sealable);
        });

        AssertStored([true], 1, index, "Tag", "full");
        Assert.Equal([false], Stored(index, "Tag", "short").Chunks);
        Assert.Equal(Names("a", Sealable), Keys(index, Tag("full")));
        Assert.Equal(Names("a", Sealable), Keys(index, new FullTextQuery("Body", "full")));
        // A prefix walks the terms tree itself, reading chunks in place rather than through an iterator.
        Assert.Equal(Sealable * 2 - 1, Keys(index, new PrefixQuery("Tag", "fu")).Count + Keys(index, new PrefixQuery("Tag", "sh")).Count);
    }

    [Fact]
    public void Apply_ChunkPastWholeBlocks_SealsTheBlocksAndLeavesTheRestOpen()
    {
        using var index = Open();
        Commit(index, b => AddMany(b, "a", "full", Sealable + 100));
        AssertStored([true, false], 1, index, "Tag", "full");
        Commit(index, b => AddMany(b, "b", "full", 30, Sealable + 100));

        // The open chunk took the next batch's ids in: still one sealed and one open chunk.
        AssertStored([true, false], 1, index, "Tag", "full");
        Assert.Equal([.. Names("a", Sealable + 100), .. Names("b", 30)], Keys(index, Tag("full")));
    }

    [Fact]
    public void Apply_NoChunkToSeal_MakesNoSealedTree()
    {
        using var index = Open();
        Commit(index, b => AddMany(b, "b", "short", Sealable - 1));

        using var searcher = index.OpenSearcher();
        Assert.Null(searcher.Transaction.OpenTree(SearchIndex.SealedTree("Tag")));
        Assert.Null(searcher.Transaction.OpenTree(SearchIndex.SealedTree("Body")));
        Assert.Equal(Sealable - 1, searcher.Count(Tag("short")));
    }

    [Fact]
    public void Apply_BatchesGrowingATerm_SealEachChunkOnceAndExtendOnlyTheOpenOne()
    {
        using var index = Open();
        const int PerBatch = 300;
        for (var b = 0; b < 5; b++)
            Commit(index, batch => AddMany(batch, $"b{b}-", "grows", PerBatch, b * PerBatch));

        // 300 open; 600: 512 sealed, 88 open; 388 open; 688: 640 sealed, 48 open; 348 still open.
        AssertStored([true, true, false], 2, index, "Tag", "grows");
        var expected = Enumerable.Range(0, 5).SelectMany(b => Names($"b{b}-", PerBatch)).ToList();
        Assert.Equal(expected, Keys(index, Tag("grows")));
        Assert.Equal(5 * PerBatch, Keys(index, new FullTextQuery("Body", "grows")).Count);
    }

    [Fact]
    public void TermIterator_AdvanceAcrossSealedChunks_FindsEveryTarget()
    {
        using var index = Open();
        const int Count = Sealable * 5 + 17;
        // Batches of a sealable chunk each, so the list crosses from sealed chunk to sealed chunk.
        for (var start = 0; start < Count; start += Sealable)
        {
            Commit(index, b =>
            {
                for (var i = start; i < Math.Min(Count, start + Sealable); i++)
                    b.Add(Entry($"k{i}", i % 997 == 3 ? "rare" : "common", i, i % 997 == 3 ? "common rare" : "common"));
            });
        }
        AssertStored([true, true, true, true, true, false], 5, index, "Body", "common");

        var rare = Enumerable.Range(0, Count).Where(i => i % 997 == 3).Select(i => $"k{i}").ToList();
        Assert.Equal(rare, Keys(index, new AndQuery([new TermQuery("Body", FieldValue.From("common")), Tag("rare")])));
        Assert.Equal(rare, Keys(index, new PhraseQuery("Body", "common rare")));
        using var searcher = index.OpenSearcher();
        var postings = searcher.Postings("Body", TermEncoding.Text("common"))!;
        var seen = new List<long>();
        for (var target = 0L; postings.Advance(target); target = postings.Current + 301)
            seen.Add(postings.Current);
        Assert.Equal(Enumerable.Range(0, Count).Where(i => i % 301 == 0).Select(i => (long)i), seen);
    }

    [Fact]
    public void Delete_SomeIdsOfASealedChunk_ShrinksItInPlace()
    {
        using var index = Open();
        AddTwoSealedChunks(index);
        AssertStored([true, true], 2, index, "Tag", "full");

        // The first id goes too, so the chunk's key changes while its sealed bytes keep their place.
        Commit(index, b =>
        {
            for (var i = 0; i < Sealable * 2; i += 3)
                b.Delete($"a{i}");
        });

        AssertStored([true, true], 2, index, "Tag", "full");
        Assert.Equal([0L, 1L], SealNumbers(index, "Tag"));
        var expected = Names("a", Sealable * 2).Where((_, i) => i % 3 != 0).ToList();
        Assert.Equal(expected, Keys(index, Tag("full")));
        Assert.Equal(expected.Count, Keys(index, new FullTextQuery("Body", "full")).Count);
    }

    [Fact]
    public void Delete_EveryIdOfASealedChunk_DeletesItsSealedBytes()
    {
        using var index = Open();
        AddTwoSealedChunks(index);
        Commit(index, b =>
        {
            for (var i = 0; i < Sealable; i++)
                b.Delete($"a{i}");
        });

        AssertStored([true], 1, index, "Tag", "full");
        Assert.Equal(Names("a", Sealable * 2)[Sealable..], Keys(index, Tag("full")));
    }

    [Fact]
    public void Delete_DownToAnInlineList_GathersFromSealedChunksAndEmptiesTheSealedTree()
    {
        using var index = Open();
        Commit(index, b => AddMany(b, "a", "full", Sealable * 2 + 10));
        Commit(index, b =>
        {
            for (var i = 0; i < Sealable * 2 + 10; i++)
            {
                if (i != 7 && i != Sealable + 7)
                    b.Delete($"a{i}");
            }
        });

        AssertStored([], 0, index, "Tag", "full");
        Assert.Equal(["a7", $"a{Sealable + 7}"], Keys(index, Tag("full")));
        Assert.Equal(2, Keys(index, new FullTextQuery("Body", "full")).Count);
    }

    [Fact]
    public void Reopen_AfterSealing_NumbersNewSealedChunksAfterTheStoredOnes()
    {
        var options = StorageOptions.InMemory() with { FileSystem = new MemoryFileSystem() };
        using (var index = Open(options))
            Commit(index, b => AddMany(b, "a", "first", Sealable * 2));
        using var reopened = Open(options);
        Commit(reopened, b => AddMany(b, "b", "second", Sealable * 2, Sealable * 2));

        // Had the numbers started again at 0, the second chunk would have replaced the first one's bytes.
        AssertStored([true], 2, reopened, "Tag", "second");
        Assert.Equal(Names("a", Sealable * 2), Keys(reopened, Tag("first")));
        Assert.Equal(Names("b", Sealable * 2), Keys(reopened, Tag("second")));
    }

    [Fact]
    public void Search_ChunkReferringToAMissingSealedChunk_FailsAsCorruption()
    {
        using var index = Open();
        Commit(index, b => AddMany(b, "a", "full", Sealable));
        LoseSealedChunk(index, "Tag", 0);

        using var searcher = index.OpenSearcher();
        Assert.Throws<CorruptionException>(() => searcher.Count(Tag("full")));
    }

    [Theory]
    [InlineData(new byte[0])]
    [InlineData(new byte[] { 0 })]
    [InlineData(new byte[] { 0, 0x80 })]
    [InlineData(new byte[] { 0, 5, 1 })]
    [InlineData(new byte[] { 0, 9 })]
    public void Search_MalformedReferenceToASealedChunk_FailsAsCorruption(byte[] reference)
    {
        using var index = Open();
        Commit(index, b => AddMany(b, "a", "full", Sealable));
        DamageFirstChunk(index, "Tag", "full", reference);

        using var searcher = index.OpenSearcher();
        Assert.Throws<CorruptionException>(() => searcher.Count(Tag("full")));
        Assert.Throws<CorruptionException>(() => searcher.Count(new PrefixQuery("Tag", "fu")));
    }

    [Fact]
    public void Delete_FromAChunkWhoseSealedBytesAreMissing_FailsAsCorruptionAndChangesNothing()
    {
        using var index = Open();
        Commit(index, b => AddMany(b, "a", "full", Sealable));
        LoseSealedChunk(index, "Tag", 0);

        Assert.Throws<CorruptionException>(() => Commit(index, b => b.Delete("a3")));
        using var searcher = index.OpenSearcher();
        Assert.Equal(Sealable, searcher.Count(new RangeQuery("Num", FieldValue.From(0L), true, FieldValue.From((long)Sealable), false)));
    }
}
