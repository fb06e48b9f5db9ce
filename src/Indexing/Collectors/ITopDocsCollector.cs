namespace Folio.Indexing.Collectors;

/// <summary>
/// Keeps the best page of the matches by a sort, and counts them all: what
/// <see cref="Engines.IEngineSearcher.Search"/> answers, as a collector that can share a walk with others
/// (<see cref="CompositeCollector"/>). Made by the engine (<see cref="Engines.IEngineSearcher.CreateTopDocsCollector"/>),
/// which reads sort keys its own way.
/// </summary>
public interface ITopDocsCollector : ICollector
{
    /// <summary>The page and the number of all matches; read after the walk ended.</summary>
    /// <exception cref="InvalidOperationException">The walk has not ended.</exception>
    TopDocs TopDocs { get; }
}
