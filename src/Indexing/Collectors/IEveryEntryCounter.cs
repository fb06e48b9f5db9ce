using Folio.Indexing.Engines;

namespace Folio.Indexing.Collectors;

/// <summary>
/// A collector that may count every entry of a snapshot without walking them, from what the doc values keep per value
/// (<see cref="IDocValues.TryCountEveryOrdinal"/>, <see cref="IDocValues.TryCountEveryNumber"/>): a facet over all
/// entries then costs in the number of values, not of entries.
/// </summary>
internal interface IEveryEntryCounter
{
    /// <summary>
    /// Counts every entry of <paramref name="searcher"/>'s snapshot as a walk over all of them would, and ends the walk
    /// (<see cref="ICollector.Finish"/>); false, leaving the collector ready for a walk, when its field's doc values
    /// cannot tell without one.
    /// </summary>
    bool TryCountEveryEntry(IEngineSearcher searcher);
}
