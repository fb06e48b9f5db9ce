using Folio.Indexing.Engines;
using Folio.Storage;

namespace Folio.Indexing.Search;

/// <summary>
/// Folio's own search engine: an index is a <see cref="SearchIndex"/> in a storage environment of its own,
/// whose batches commit with their processed etag in one transaction.
/// </summary>
public sealed class FolioSearchEngine : ISearchEngine
{
    /// <summary>The engine's name in index definitions.</summary>
    public const string EngineName = "Folio";

    /// <summary>The engine (it keeps no state of its own).</summary>
    public static FolioSearchEngine Instance { get; } = new();

    private FolioSearchEngine()
    {
    }

    /// <inheritdoc/>
    public string Name => EngineName;

    /// <inheritdoc/>
    public IEngineIndex Open(StorageOptions options, IndexSchema schema) => SearchIndex.Open(options, schema);
}
