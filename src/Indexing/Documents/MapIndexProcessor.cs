using Folio.Indexing.Definitions;
using Folio.Indexing.Engines;
using Folio.Indexing.Runner;
using Folio.Indexing.Search;
using Folio.Storage;
using Folio.Storage.Documents;

namespace Folio.Indexing.Documents;

/// <summary>
/// The work of a map index: a document becomes one entry of the fields its definition names, and a batch's
/// entries, deletes and the etag it reached commit as one batch of the index's search engine
/// (<see cref="IEngineBatch.Commit"/>), whichever engine keeps it.
/// </summary>
internal sealed class MapIndexProcessor : IIndexBatchProcessor
{
    private readonly IndexDefinition _definition;
    private readonly IEngineIndex _index;
    private readonly DocumentStore? _store;

    private MapIndexProcessor(IndexDefinition definition, IEngineIndex index, DocumentStore? store)
    {
        _definition = definition;
        _index = index;
        _store = store;
    }

    public IndexSchema Schema => _index.Schema;

    public long SizeOnDisk => _index.SizeOnDisk;

    public IReadOnlyList<StorageEnvironment> Environments => _index.StorageEnvironments;

    public Task Closed => _index.Closed;

    /// <summary>
    /// Opens (creating if needed) the index of <paramref name="definition"/> in <paramref name="storage"/> on <paramref name="engine"/>;
    /// a map script's <c>load</c> reads <paramref name="store"/>.
    /// </summary>
    /// <exception cref="UnsupportedFormatException">The index was written in a format this build does not read.</exception>
    public static MapIndexProcessor Open(IndexDefinition definition, StorageOptions storage, ISearchEngine engine, DocumentStore? store = null) =>
        new(definition, engine.Open(storage, definition.ToSchema()), store);

    public long ReadProcessedEtag() => _index.ReadProcessedEtag();

    public IIndexBatch CreateBatch() => new MapIndexBatch(_definition, _index, _store);

    public IEngineSearcher OpenSearcher() => _index.OpenSearcher();

    public void Dispose() => _index.Dispose();
}
