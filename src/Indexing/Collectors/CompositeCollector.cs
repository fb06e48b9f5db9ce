using Folio.Indexing.Engines;

namespace Folio.Indexing.Collectors;

/// <summary>Hands each batch of one walk to several collectors, so a query's count and all its facets take one pass over its matches.</summary>
public sealed class CompositeCollector : ICollector
{
    private readonly ICollector[] _collectors;

    /// <summary>Collects into every one of <paramref name="collectors"/>, in order.</summary>
    public CompositeCollector(IReadOnlyList<ICollector> collectors)
    {
        ArgumentNullException.ThrowIfNull(collectors);
        _collectors = new ICollector[collectors.Count];
        for (var i = 0; i < _collectors.Length; i++)
        {
            _collectors[i] = collectors[i] ?? throw new ArgumentException("A composite collector needs collectors, not nulls.", nameof(collectors));
            NeedsScores |= _collectors[i].NeedsScores;
        }
    }

    /// <inheritdoc/>
    public bool NeedsScores { get; }

    /// <inheritdoc/>
    public void Begin(IEngineSearcher searcher)
    {
        foreach (var collector in _collectors)
            collector.Begin(searcher);
    }

    /// <inheritdoc/>
    public void Collect(ReadOnlySpan<long> entryIds, ReadOnlySpan<float> scores)
    {
        foreach (var collector in _collectors)
            collector.Collect(entryIds, collector.NeedsScores ? scores : default);
    }

    /// <inheritdoc/>
    public void Finish()
    {
        foreach (var collector in _collectors)
            collector.Finish();
    }
}
