using Folio.Indexing.Engines;
using Folio.Indexing.Queries;
using Folio.Indexing.Queries.Iterators;

namespace Folio.Indexing.Collectors;

/// <summary>
/// Multi-select facets in one walk (drill sideways). The searcher walks the query without the conditions of the
/// sideways dimensions (the base); for each base match this collector asks each dimension's condition (an
/// iterator advanced in step, so a dimension costs a leap per match, never a walk of its own) whether the match
/// meets it. A match meeting all of them is a match of the whole query and goes to <c>all</c> (the count and the
/// other facets) and to every dimension's collectors; a match failing exactly one dimension goes to that
/// dimension's collectors only, which so count as if the query had no condition on their own field; a match
/// failing two goes nowhere. Every collector still sees increasing entry ids, and nothing is allocated per match.
/// </summary>
public sealed class DrillSidewaysCollector : ICollector
{
    private readonly ICollector _all;
    private readonly Query[] _conditions;
    private readonly ICollector[] _sideways;
    private readonly DocIdIterator[] _iterators;
    private readonly long[][] _batches;
    private readonly int[] _counts;
    private long[] _full = [];

    /// <summary>
    /// Sends the base query's matches that meet every condition of <paramref name="dimensions"/> to
    /// <paramref name="all"/>, and to each dimension's collector those that meet every condition but maybe its own.
    /// </summary>
    public DrillSidewaysCollector(ICollector all, IReadOnlyList<(Query Condition, ICollector Collector)> dimensions)
    {
        ArgumentNullException.ThrowIfNull(all);
        ArgumentNullException.ThrowIfNull(dimensions);
        if (dimensions.Count == 0)
            throw new ArgumentException("Drilling sideways needs at least one dimension.", nameof(dimensions));
        _all = all;
        _conditions = new Query[dimensions.Count];
        _sideways = new ICollector[dimensions.Count];
        for (var d = 0; d < dimensions.Count; d++)
            (_conditions[d], _sideways[d]) = dimensions[d];
        _iterators = new DocIdIterator[dimensions.Count];
        _batches = new long[dimensions.Count][];
        for (var d = 0; d < _batches.Length; d++)
            _batches[d] = [];
        _counts = new int[dimensions.Count];
    }

    /// <inheritdoc/>
    public bool NeedsScores => false;

    /// <inheritdoc/>
    public void Begin(IEngineSearcher searcher)
    {
        ArgumentNullException.ThrowIfNull(searcher);
        _all.Begin(searcher);
        for (var d = 0; d < _conditions.Length; d++)
        {
            _iterators[d] = searcher.Iterate(_conditions[d]);
            _sideways[d].Begin(searcher);
        }
    }

    /// <inheritdoc/>
    public void Collect(ReadOnlySpan<long> entryIds, ReadOnlySpan<float> scores)
    {
        if (_full.Length < entryIds.Length)
        {
            _full = new long[entryIds.Length];
            for (var d = 0; d < _batches.Length; d++)
                _batches[d] = new long[entryIds.Length];
        }
        var full = 0;
        _counts.AsSpan().Clear();
        foreach (var id in entryIds)
        {
            // -1: meets every condition; d: fails only dimension d's; -2: fails two or more.
            var missed = -1;
            for (var d = 0; d < _iterators.Length && missed != -2; d++)
            {
                var iterator = _iterators[d];
                if (iterator.Current < id)
                    iterator.Advance(id);
                if (iterator.Current != id)
                    missed = missed == -1 ? d : -2;
            }
            if (missed == -1)
            {
                _full[full++] = id;
                for (var d = 0; d < _batches.Length; d++)
                    _batches[d][_counts[d]++] = id;
            }
            else if (missed >= 0)
            {
                _batches[missed][_counts[missed]++] = id;
            }
        }
        if (full > 0)
            _all.Collect(_full.AsSpan(0, full), default);
        for (var d = 0; d < _sideways.Length; d++)
        {
            if (_counts[d] > 0)
                _sideways[d].Collect(_batches[d].AsSpan(0, _counts[d]), default);
        }
    }

    /// <inheritdoc/>
    public void Finish()
    {
        _all.Finish();
        foreach (var collector in _sideways)
            collector.Finish();
    }
}
