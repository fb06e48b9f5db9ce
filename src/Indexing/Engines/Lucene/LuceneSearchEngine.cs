using Folio.Indexing.Search;
using Folio.Storage;

namespace Folio.Indexing.Engines.Lucene;

/// <summary>
/// Lucene.Net 4.8 as a search engine of Folio's indexes (<c>"SearchEngine": "Lucene"</c>): an index is a
/// <see cref="LuceneIndex"/> in the index's folder, its processed etag in each commit's user data.
/// </summary>
public sealed class LuceneSearchEngine : ISearchEngine
{
    /// <summary>The engine's name in index definitions.</summary>
    public const string EngineName = "Lucene";

    /// <summary>The engine (it keeps no state of its own).</summary>
    public static LuceneSearchEngine Instance { get; } = new();

    private LuceneSearchEngine()
    {
    }

    /// <inheritdoc/>
    public string Name => EngineName;

    /// <inheritdoc/>
    public IEngineIndex Open(StorageOptions options, IndexSchema schema) => LuceneIndex.Open(options, schema);
}
