using Folio.Indexing.Engines;

namespace Folio.Indexing.Collectors;

/// <summary>Counts the matches.</summary>
public sealed class CountCollector : ICollector
{
    /// <summary>The matches collected so far.</summary>
    public long Count { get; private set; }

    /// <inheritdoc/>
    public bool NeedsScores => false;

    /// <inheritdoc/>
    public void Begin(IEngineSearcher searcher)
    {
    }

    /// <inheritdoc/>
    public void Collect(ReadOnlySpan<long> entryIds, ReadOnlySpan<float> scores) => Count += entryIds.Length;

    /// <inheritdoc/>
    public void Finish()
    {
    }
}
