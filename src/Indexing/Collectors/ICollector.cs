using Folio.Indexing.Engines;

namespace Folio.Indexing.Collectors;

/// <summary>
/// Takes the matches of one query as a search engine walks them (<see cref="IEngineSearcher.Collect"/>):
/// <see cref="Begin"/> once, then <see cref="Collect"/> for each batch of matching entry ids (increasing,
/// a few hundred at a time), then <see cref="Finish"/>. Batches rather than single ids, so a collector costs
/// one interface call per batch and reads the doc values it needs for a whole batch at once
/// (<see cref="IDocValues.Read"/>); several collectors share one walk through <see cref="CompositeCollector"/>.
/// A collector serves one walk.
/// </summary>
/// <remarks>
/// The interface carries counting (<see cref="CountCollector"/>), the best page by a sort
/// (<see cref="ITopDocsCollector"/>), facets by value and by range (<see cref="TermFacetCollector"/>,
/// <see cref="RangeFacetCollector"/>) and, in the same way, a group-by aggregation: it opens the doc values
/// of its group keys and aggregated fields in <see cref="Begin"/>, reads them per batch in <see cref="Collect"/>
/// and folds each entry into its group's accumulators (keyed by <see cref="DocValue.Encoded"/>, as the term
/// facets count), and exposes the groups after <see cref="Finish"/>.
/// </remarks>
public interface ICollector
{
    /// <summary>Whether the collector reads the matches' relevance scores (an engine computes none otherwise).</summary>
    bool NeedsScores { get; }

    /// <summary>Starts the walk on <paramref name="searcher"/>'s snapshot, where the collector opens what it reads.</summary>
    void Begin(IEngineSearcher searcher);

    /// <summary>
    /// Takes a batch of matches: their entry ids, increasing and after those of earlier batches, and when
    /// <see cref="NeedsScores"/> their scores (<paramref name="scores"/>[i] is the score of
    /// <paramref name="entryIds"/>[i]; empty otherwise). The spans are valid only during the call.
    /// </summary>
    void Collect(ReadOnlySpan<long> entryIds, ReadOnlySpan<float> scores);

    /// <summary>Ends the walk: every match was collected, and the collector's result can be read.</summary>
    void Finish();
}
