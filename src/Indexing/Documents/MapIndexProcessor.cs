using System.Buffers.Binary;
using Folio.Indexing.Definitions;
using Folio.Indexing.Runner;
using Folio.Indexing.Search;
using Folio.Storage;
using Folio.Storage.Transactions;

namespace Folio.Indexing.Documents;

/// <summary>
/// The work of a map index on Folio's search engine: a document becomes one entry of the fields its
/// definition names, and a batch's entries, deletes and the etag it reached commit in one transaction of the
/// index's own storage environment.
/// </summary>
internal sealed class MapIndexProcessor : IIndexBatchProcessor
{
    private const string StateTree = "indexing-state";
    private static readonly byte[] ProcessedKey = "processed-etag"u8.ToArray();

    private readonly IndexDefinition _definition;
    private readonly SearchIndex _search;

    private MapIndexProcessor(IndexDefinition definition, SearchIndex search)
    {
        _definition = definition;
        _search = search;
    }

    public IndexSchema Schema => _search.Schema;

    public long SizeOnDisk => _search.Environment.GetStats().DataFilePages * StorageLimits.PageSize;

    public Task Closed => _search.Environment.Closed;

    /// <summary>Opens (creating if needed) the search index of <paramref name="definition"/> in <paramref name="storage"/>.</summary>
    /// <exception cref="UnsupportedFormatException">The index was written in a format this build does not read.</exception>
    public static MapIndexProcessor Open(IndexDefinition definition, StorageOptions storage) =>
        new(definition, SearchIndex.Open(storage, definition.ToSchema()));

    public long ReadProcessedEtag()
    {
        using var read = _search.Environment.BeginRead();
        var state = read.OpenTree(StateTree);
        return state is not null && state.TryGet(ProcessedKey, out var processed) ? BinaryPrimitives.ReadInt64LittleEndian(processed) : 0;
    }

    public IIndexBatch CreateBatch() => new MapIndexBatch(_definition, _search);

    public IndexSearcher OpenSearcher() => _search.OpenSearcher();

    public void Dispose() => _search.Dispose();

    /// <summary>Records <paramref name="etag"/> as processed in the transaction that commits the batch which reached it.</summary>
    internal static void WriteProcessedEtag(WriteTransaction transaction, long etag) =>
        BinaryPrimitives.WriteInt64LittleEndian(transaction.CreateTree(StateTree).Reserve(ProcessedKey, 8), etag);
}
