using System.Buffers.Binary;
using System.Text;
using Folio.Indexing.Collectors;
using Folio.Indexing.Queries;
using Folio.Indexing.Search;
using Folio.Storage;
using Folio.Storage.Platform;
using Xunit.Abstractions;

namespace Folio.Indexing.Tests.Search;

/// <summary>Crashes, churn and format versions: what the index looks like after it was reopened or worked hard.</summary>
public class SearchIndexDurabilityTests(ITestOutputHelper output)
{
    private const string EtagTree = "last-etag";
    private static readonly byte[] EtagKey = "etag"u8.ToArray();

    private static IndexSchema Schema() => new IndexSchema()
        .Add("Name", FieldKind.Exact)
        .Add("Tags", FieldKind.Exact)
        .Add("Num", FieldKind.Long)
        .Add("Body", FieldKind.FullText);

    private static IndexEntry Entry(string key, int version) => new IndexEntry(key)
        .Add("Name", $"name {key} v{version}")
        .Add("Tags", $"tag{version % 7}")
        .Add("Tags", version % 2 == 0 ? "even" : "odd")
        .Add("Num", (long)version * 1000 + key.Length)
        .Add("Body", $"version {version} of entry {key} with words {version % 5} and more text");

    private static void WriteEtag(IndexBatch batch, long etag)
    {
        var bytes = new byte[8];
        BinaryPrimitives.WriteInt64LittleEndian(bytes, etag);
        batch.Transaction.CreateTree(EtagTree).Put(EtagKey, bytes);
    }

    private static long ReadEtag(IndexSearcher searcher) =>
        searcher.Transaction.OpenTree(EtagTree) is { } tree && tree.TryGet(EtagKey, out var value) ? BinaryPrimitives.ReadInt64LittleEndian(value) : -1;

    /// <summary>Everything a searcher shows of the index: every entry's key, id and values, plus counts by term.</summary>
    private static string Dump(SearchIndex index)
    {
        using var searcher = index.OpenSearcher();
        var builder = new StringBuilder();
        builder.Append($"entries {searcher.EntryCount}, next id {searcher.NextEntryId}, etag {ReadEtag(searcher)}\n");
        foreach (var hit in searcher.Search(MatchAllQuery.Instance, 0, int.MaxValue, [new SortField("Name")]).Hits)
        {
            builder.Append($"{hit.Key} #{hit.EntryId}:");
            foreach (var field in new[] { "Name", "Tags", "Num" })
                builder.Append(' ').Append(string.Join('|', searcher.GetValues(field, hit.EntryId) ?? []));
            builder.Append('\n');
        }
        for (var t = 0; t < 7; t++)
            builder.Append($"tag{t}: {searcher.Count(new TermQuery("Tags", FieldValue.From($"tag{t}")))}\n");
        builder.Append($"even: {searcher.Count(new TermQuery("Tags", FieldValue.From("even")))}, ");
        builder.Append($"words: {searcher.Count(new FullTextQuery("Body", "entry"))}, ");
        builder.Append($"phrase: {searcher.Count(new PhraseQuery("Body", "more text"))}, ");
        builder.Append($"num>=2000: {searcher.Count(new RangeQuery("Num", FieldValue.From(2000L), true, null, false))}, ");
        builder.Append($"stats: {searcher.Stats("Body")}");
        return builder.ToString();
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void Crash_InTheMiddleOfABatch_LeavesThePreviousBatchAndTheCallersStateIntact(bool flushedBeforeTheCrash)
    {
        var files = new MemoryFileSystem();
        var options = StorageOptions.InMemory() with { FileSystem = files, BackgroundFlush = false };
        var index = SearchIndex.Open(options, Schema());
        using (var batch = index.BeginBatch())
        {
            for (var i = 0; i < 400; i++)
                batch.Add(Entry($"k{i}", 1));
            WriteEtag(batch, 1);
            batch.Commit();
        }
        using (var batch = index.BeginBatch())
        {
            for (var i = 0; i < 400; i += 3)
                batch.Add(Entry($"k{i}", 2));
            for (var i = 1; i < 400; i += 10)
                Assert.True(batch.Delete($"k{i}"));
            WriteEtag(batch, 2);
            batch.Commit();
        }
        if (flushedBeforeTheCrash)
            index.Environment.FlushToDataFile();
        var before = Dump(index);

        // A batch that adds, updates, deletes and writes the caller's state; the process dies before Commit.
        var crashed = index.BeginBatch();
        for (var i = 400; i < 700; i++)
            crashed.Add(Entry($"k{i}", 3));
        for (var i = 0; i < 400; i += 4)
            crashed.Add(Entry($"k{i}", 4));
        for (var i = 2; i < 400; i += 5)
            crashed.Delete($"k{i}");
        WriteEtag(crashed, 3);
        index.Environment.SimulateCrash();

        using var reopened = SearchIndex.Open(options, Schema());
        reopened.Environment.Verify();
        Assert.Equal(before, Dump(reopened));
        using (var searcher = reopened.OpenSearcher())
        {
            Assert.Equal(2, ReadEtag(searcher));
            Assert.Equal(0, searcher.Count(new TermQuery("Name", FieldValue.From("name k500 v3"))));
            Assert.Equal(0, searcher.Count(new PhraseQuery("Body", "version 4")));
            Assert.Equal(0, searcher.Count(new PhraseQuery("Body", "version 3")));
        }

        // The reopened index goes on where the last commit left off: ids continue from it.
        long nextId;
        using (var searcher = reopened.OpenSearcher())
            nextId = searcher.NextEntryId;
        using (var batch = reopened.BeginBatch())
        {
            batch.Add(Entry("after", 5));
            WriteEtag(batch, 4);
            batch.Commit();
        }
        using (var searcher = reopened.OpenSearcher())
        {
            var hit = Assert.Single(searcher.Search(new TermQuery("Name", FieldValue.From("NAME AFTER V5")), 0, 10).Hits);
            Assert.Equal(nextId, hit.EntryId);
            Assert.Equal(4, ReadEtag(searcher));
        }
        reopened.Environment.Verify();
    }

    [Fact]
    public void Churn_RepeatedUpdatesAndDeletes_KeepsAllocatedPagesBounded() => Churn(keys: 1000, rounds: 30);

    [Fact]
    [Trait("Category", "Slow")]
    public void Churn_ManyKeysManyRounds_KeepsAllocatedPagesBounded() => Churn(keys: 5000, rounds: 60);

    /// <summary>
    /// Every key updated in every round (values change each time), a tenth deleted and brought back
    /// later: the pages freed by old versions are reused, so the file stays within 3x its first size.
    /// </summary>
    private void Churn(int keys, int rounds)
    {
        using var index = SearchIndex.Open(StorageOptions.InMemory(), Schema());
        var random = new Random(keys + rounds);
        var live = new Dictionary<string, int>();
        using (var batch = index.BeginBatch())
        {
            for (var i = 0; i < keys; i++)
            {
                batch.Add(Entry($"key/{i}", 0));
                live[$"key/{i}"] = 0;
            }
            batch.Commit();
        }
        var afterLoad = index.Environment.GetStats().AllocatedPages;
        for (var round = 1; round <= rounds; round++)
        {
            using var batch = index.BeginBatch();
            for (var i = 0; i < keys; i++)
            {
                var key = $"key/{i}";
                if (random.Next(10) == 0)
                {
                    Assert.Equal(live.Remove(key), batch.Delete(key));
                }
                else
                {
                    var version = round * 10 + random.Next(10);
                    batch.Add(Entry(key, version));
                    live[key] = version;
                }
            }
            batch.Commit();
        }
        var stats = index.Environment.GetStats();
        output.WriteLine($"{keys} keys, {rounds} rounds: {afterLoad} pages after the load, {stats.AllocatedPages} after churn ({stats.FreePages} free)");
        Assert.True(stats.AllocatedPages <= 3 * afterLoad, $"{stats.AllocatedPages} pages after churn, more than 3x the {afterLoad} after the first load");
        index.Environment.Verify();

        using var searcher = index.OpenSearcher();
        Assert.Equal(live.Count, searcher.EntryCount);
        for (var t = 0; t < 7; t++)
            Assert.Equal(live.Values.Count(v => v % 7 == t), searcher.Count(new TermQuery("Tags", FieldValue.From($"tag{t}"))));
        Assert.Equal(live.Count, searcher.Count(new FullTextQuery("Body", "entry")));
        Assert.Equal(live.Values.Count(v => v % 2 == 0), searcher.Count(new TermQuery("Tags", FieldValue.From("even"))));
    }

    [Theory]
    [InlineData(SearchIndex.FormatVersion + 1)]
    [InlineData(SearchIndex.OldestOpenedFormatVersion - 1)]
    public void Open_IndexOfAnotherFormat_ThrowsUnsupportedFormatAndLeavesItAlone(int stored)
    {
        var options = StorageOptions.InMemory() with { FileSystem = new MemoryFileSystem() };
        using (var index = SearchIndex.Open(options, Schema()))
        {
            using (var batch = index.BeginBatch())
            {
                batch.Add(Entry("a", 1));
                batch.Commit();
            }
            using var tx = index.Environment.BeginWrite();
            BinaryPrimitives.WriteInt32LittleEndian(tx.OpenTree(SearchIndex.MetaTree)!.Reserve(SearchIndex.FormatKey, 4), stored);
            tx.Commit();
        }

        var error = Assert.Throws<UnsupportedFormatException>(() => SearchIndex.Open(options, Schema()));
        Assert.Contains($"format version {stored}", error.Message);
        Assert.Contains("Rebuild the index", error.Message);

        // The failed open let go of the storage and changed nothing in it.
        using var environment = StorageEnvironment.Open(options);
        using var read = environment.BeginRead();
        Assert.True(read.OpenTree(SearchIndex.MetaTree)!.TryGet(SearchIndex.FormatKey, out var format));
        Assert.Equal(stored, BinaryPrimitives.ReadInt32LittleEndian(format));
        Span<byte> key = stackalloc byte[SearchIndex.MaxEntryKeySize];
        Assert.True(EntryStore.TryGet(read.OpenTree(SearchIndex.EntriesTree)!.CreateCursor(), 0, key, out _));
    }

    [Fact]
    public void Open_IndexOfTheCurrentFormat_ReopensWithItsEntries()
    {
        var options = StorageOptions.InMemory() with { FileSystem = new MemoryFileSystem() };
        using (var index = SearchIndex.Open(options, Schema()))
        {
            using var batch = index.BeginBatch();
            batch.Add(Entry("a", 1));
            batch.Commit();
        }
        using var reopened = SearchIndex.Open(options, Schema());
        using var searcher = reopened.OpenSearcher();
        Assert.Equal(1, searcher.Count(new TermQuery("Tags", FieldValue.From("odd"))));
    }
}
