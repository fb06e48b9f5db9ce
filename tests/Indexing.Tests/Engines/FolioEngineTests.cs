using Folio.Indexing.Engines;
using Folio.Indexing.Queries;
using Folio.Indexing.Search;
using Folio.Indexing.Tests.Search;
using Folio.Storage;

namespace Folio.Indexing.Tests.Engines;

/// <summary>Folio's engine behind the engine interfaces: batches commit with their etag, searchers keep their snapshot.</summary>
public sealed class FolioEngineTests : IDisposable
{
    private static readonly IndexSchema Schema = new IndexSchema().Add("Tag", FieldKind.Exact).Add("Num", FieldKind.Long);
    private readonly string _directory = Path.Combine(Path.GetTempPath(), "folio-engine-" + Guid.NewGuid().ToString("N"));
    private readonly ISearchEngine _engine = FolioSearchEngine.Instance;

    public void Dispose() => SearchIndex.Drop(_directory);

    private IEngineIndex Open() => _engine.Open(StorageOptions.ForPath(_directory), Schema);

    private static void Add(IEngineIndex index, long etag, params string[] keys)
    {
        using var batch = index.BeginBatch();
        foreach (var key in keys)
            batch.Add(new IndexEntry(key).Add("Tag", key).Add("Num", key.Length));
        batch.Commit(etag);
    }

    [Fact]
    public void Commit_RecordsTheProcessedEtag_WithTheBatch_AcrossAReopen()
    {
        using (var index = Open())
        {
            Assert.Equal(0, index.ReadProcessedEtag());
            Add(index, 7, "a", "b");
            Assert.Equal(7, index.ReadProcessedEtag());
            Add(index, 12, "c");
        }
        using (var reopened = Open())
        {
            Assert.Equal(12, reopened.ReadProcessedEtag());
            using var searcher = reopened.OpenSearcher();
            Assert.Equal(3, searcher.EntryCount);
        }
    }

    [Fact]
    public void Dispose_DiscardsTheEntriesAndTheEtag_WithoutCommit()
    {
        using var index = Open();
        Add(index, 3, "a");
        using (var batch = index.BeginBatch())
        {
            batch.Add(new IndexEntry("b").Add("Tag", "b"));
            Assert.True(batch.Delete("a"));
            Assert.Equal(1, batch.Added);
            Assert.Equal(1, batch.Deleted);
        }
        Assert.Equal(3, index.ReadProcessedEtag());
        using var searcher = index.OpenSearcher();
        Assert.Equal("a", searcher.GetKey(DocIdIterators.Drain(searcher.Iterate(MatchAllQuery.Instance)).Single()));
    }

    [Fact]
    public void ReadProcessedEtag_ReadsTheEtag_DocumentIndexesWroteThemselves()
    {
        using var index = SearchIndex.Open(StorageOptions.ForPath(_directory), Schema);
        using (var batch = index.BeginBatch())
        {
            // What DocumentIndex writes through the batch's transaction before it commits.
            System.Buffers.Binary.BinaryPrimitives.WriteInt64LittleEndian(batch.Transaction.CreateTree("indexing-state").Reserve("processed-etag"u8, 8), 41);
            batch.Commit();
        }
        Assert.Equal(41, ((IEngineIndex)index).ReadProcessedEtag());
    }

    [Fact]
    public async Task Searcher_KeepsItsSnapshot_WhileBatchesCommit_AndTheIndexCloses()
    {
        var index = Open();
        Add(index, 1, "a");
        var searcher = index.OpenSearcher();
        Add(index, 2, "b", "c");
        using (var batch = index.BeginBatch())
        {
            batch.Delete("a");
            batch.Commit(3);
        }
        index.Dispose();
        Assert.Throws<ObjectDisposedException>(() => index.OpenSearcher());
        Assert.False(index.Closed.IsCompleted, "the index's files were closed under an open searcher");
        Assert.Equal(1, searcher.EntryCount);
        Assert.Equal(1, searcher.Count(new TermQuery("Tag", FieldValue.From("a"))));
        Assert.Equal([FieldValue.From(1L)], searcher.GetValues("Num", searcher.Search(MatchAllQuery.Instance, 0, 1).Hits[0].EntryId)!);
        searcher.Dispose();
        await index.Closed.WaitAsync(TimeSpan.FromSeconds(30));
    }

    [Fact]
    public void Add_LeavesNoTraceOfTheEntry_WhenAValueCannotBeIndexed()
    {
        using var index = Open();
        Add(index, 1, "kept");
        using (var batch = index.BeginBatch())
        {
            Assert.Throws<IndexValueException>(() => batch.Add(new IndexEntry("kept").Add("Num", "not a number")));
            batch.Commit(2);
        }
        using var searcher = index.OpenSearcher();
        Assert.Equal(1, searcher.Count(new TermQuery("Tag", FieldValue.From("kept"))));
        Assert.True(index.SizeOnDisk > 0);
        Assert.Same(Schema, index.Schema);
    }
}
