using Folio.Indexing.Engines;
using Folio.Indexing.Search;

namespace Folio.Indexing.Collectors;

/// <summary>
/// Counts, over the matches, how many have a value of a field in each of several ranges: an entry counts
/// once per range any of its values falls in; nulls fall in none. Bounds compare with the values byte by
/// byte in the doc values' form (<see cref="IDocValues.Encode"/>); a bound that cannot be one of the field's
/// values (text on a numeric field) leaves its side of the range open. With a <see cref="FacetAggregator"/>, each
/// range also gathers the numbers of the entries counted in it (range <c>r</c> is the aggregator's slot <c>r</c>).
/// </summary>
public sealed class RangeFacetCollector : ICollector
{
    private readonly IReadOnlyList<ValueRange> _ranges;
    private readonly long[] _counts;
    private readonly DocValuesBlock _values = new();
    private readonly FacetAggregator? _aggregator;
    private IDocValues? _docValues;
    private byte[]?[] _lower = [];
    private byte[]?[] _upper = [];
    private bool _finished;

    /// <summary>Counts the values of <paramref name="field"/> in each of <paramref name="ranges"/>, aggregating numbers per range with <paramref name="aggregator"/> when given.</summary>
    public RangeFacetCollector(string field, IReadOnlyList<ValueRange> ranges, FacetAggregator? aggregator = null)
    {
        ArgumentException.ThrowIfNullOrEmpty(field);
        ArgumentNullException.ThrowIfNull(ranges);
        Field = field;
        _ranges = ranges;
        _counts = new long[ranges.Count];
        _aggregator = aggregator;
        _aggregator?.EnsureSlots(ranges.Count);
    }

    /// <summary>The aggregator of the ranges' numbers, if any.</summary>
    public FacetAggregator? Aggregator => _aggregator;

    /// <summary>The field counted.</summary>
    public string Field { get; }

    /// <summary>How many matches have a value in each range, in the ranges' order; read after the walk ended.</summary>
    /// <exception cref="InvalidOperationException">The walk has not ended.</exception>
    public IReadOnlyList<long> Counts =>
        _finished ? _counts : throw new InvalidOperationException("The counts of a range facet are known once the walk has ended.");

    /// <inheritdoc/>
    public bool NeedsScores => false;

    /// <inheritdoc/>
    public void Begin(IEngineSearcher searcher)
    {
        var docValues = searcher.OpenDocValues(Field);
        _lower = new byte[]?[_ranges.Count];
        _upper = new byte[]?[_ranges.Count];
        for (var r = 0; r < _ranges.Count; r++)
        {
            _lower[r] = _ranges[r].Lower is { } lower ? docValues.Encode(lower) : null;
            _upper[r] = _ranges[r].Upper is { } upper ? docValues.Encode(upper) : null;
        }
        _docValues = docValues;
        _aggregator?.Begin(searcher);
    }

    /// <inheritdoc/>
    public void Collect(ReadOnlySpan<long> entryIds, ReadOnlySpan<float> scores)
    {
        var docValues = _docValues ?? throw new InvalidOperationException("Begin was not called.");
        docValues.Read(entryIds, _values);
        _aggregator?.Read(entryIds);
        for (var i = 0; i < entryIds.Length; i++)
        {
            var values = _values[i];
            if (values.IsEmpty)
                continue;
            for (var r = 0; r < _counts.Length; r++)
            {
                if (!AnyValueIn(values, _lower[r], _ranges[r].LowerInclusive, _upper[r], _ranges[r].UpperInclusive))
                    continue;
                _counts[r]++;
                _aggregator?.Add(r, i);
            }
        }
    }

    /// <inheritdoc/>
    public void Finish() => _finished = true;

    private static bool AnyValueIn(DocValueList values, byte[]? lower, bool lowerInclusive, byte[]? upper, bool upperInclusive)
    {
        foreach (var value in values)
        {
            if (value.Kind == DocValueKind.Null)
                continue;
            var bytes = value.Bytes;
            var aboveLower = lower is null || (bytes.SequenceCompareTo(lower) is var l && (l > 0 || (l == 0 && lowerInclusive)));
            var belowUpper = upper is null || (bytes.SequenceCompareTo(upper) is var u && (u < 0 || (u == 0 && upperInclusive)));
            if (aboveLower && belowUpper)
                return true;
        }
        return false;
    }
}
