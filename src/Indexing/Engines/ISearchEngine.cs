using Folio.Indexing.Search;
using Folio.Storage;

namespace Folio.Indexing.Engines;

/// <summary>
/// A search engine Folio's indexes can live in. Document indexing, RQL, facets and map/reduce talk to the
/// handles it opens (<see cref="IEngineIndex"/>, <see cref="IEngineBatch"/>, <see cref="IEngineSearcher"/>)
/// and to engine-neutral queries (<see cref="Queries.Query"/>) and collectors (<see cref="Collectors.ICollector"/>),
/// never to an engine's own classes, so an index can be kept by whichever engine its definition names.
/// Folio's own engine is <see cref="FolioSearchEngine"/>.
/// </summary>
public interface ISearchEngine
{
    /// <summary>The engine's name, as an index definition names it.</summary>
    string Name { get; }

    /// <summary>
    /// Opens the index stored under <paramref name="options"/> (its <see cref="StorageOptions.Path"/>, or
    /// memory when that is null), creating an empty one when there is none. The other options tune Folio's
    /// storage engine; an engine that stores otherwise ignores them.
    /// </summary>
    /// <exception cref="UnsupportedFormatException">The index was written in a format this build does not read; drop and rebuild it.</exception>
    IEngineIndex Open(StorageOptions options, IndexSchema schema);
}
