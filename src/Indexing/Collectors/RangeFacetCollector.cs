using System.Buffers.Binary;
using Folio.Indexing.Engines;
using Folio.Indexing.Search;

namespace Folio.Indexing.Collectors;

/// <summary>
/// Counts, over the matches, how many have a value of a field in each of several ranges: an entry counts
/// once per range any of its values falls in; nulls fall in none. Bounds compare with the values byte by
/// byte in the doc values' form (<see cref="IDocValues.Encode"/>); a bound that cannot be one of the field's
/// values (text on a numeric field) leaves its side of the range open. With a <see cref="FacetAggregator"/>, each
/// range also gathers the numbers of the entries counted in it (range <c>r</c> is the aggregator's slot <c>r</c>).
/// Where the doc values keep each entry's one number apart (<see cref="IDocValues.TryReadNumbers"/>), such an entry
/// is compared as that number, an integer ordered as the bytes are, with the bounds read the same way once.
/// </summary>
public sealed class RangeFacetCollector : ICollector, IEveryEntryCounter
{
    private readonly IReadOnlyList<ValueRange> _ranges;
    private readonly long[] _counts;
    private readonly DocValuesBlock _values = new();
    private readonly FacetAggregator? _aggregator;
    private IDocValues? _docValues;
    private byte[]?[] _lower = [];
    private byte[]?[] _upper = [];
    // The ranges as inclusive bounds on the integers numbers read as (see NumericBounds), when every bound is a
    // number's eight bytes; null otherwise. A range with nothing between its bounds has a lower bound above its upper.
    private ulong[]? _lowest;
    private ulong[]? _highest;
    private ulong[] _numbers = [];
    private long[] _states = [];
    private long[] _readIds = [];
    private int[] _readPlaces = [];
    private bool _finished;
    // The non-empty ranges counted without branches (see CountNumbers): their places in _ranges, bounds and counts.
    private int[] _countedRanges = [];
    private ulong[] _countedLowest = [];
    private ulong[] _countedWidths = [];
    private long[] _countedCounts = [];

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
        (_lowest, _highest) = NumericBounds(_lower, _upper, _ranges);
        PrepareBranchlessCounts();
        _aggregator?.Begin(searcher);
    }

    /// <inheritdoc/>
    public void Collect(ReadOnlySpan<long> entryIds, ReadOnlySpan<float> scores)
    {
        var docValues = _docValues ?? throw new InvalidOperationException("Begin was not called.");
        _aggregator?.Read(entryIds);
        if (_lowest is { } lowest && _highest is { } highest)
        {
            if (_aggregator is null)
            {
                // Without an aggregator only the counts matter, and the doc values may count in place.
                var counted = docValues.CountNumbersInRanges(entryIds, _countedLowest, _countedWidths, _countedCounts);
                if (counted == entryIds.Length)
                    return;
                entryIds = entryIds[counted..];
            }
            if (_numbers.Length < entryIds.Length)
                (_numbers, _states) = (new ulong[entryIds.Length], new long[entryIds.Length]);
            if (docValues.TryReadNumbers(entryIds, _numbers.AsSpan(0, entryIds.Length), _states.AsSpan(0, entryIds.Length)))
            {
                var toRead = 0;
                if (_aggregator is null)
                    CountNumbers(_numbers.AsSpan(0, entryIds.Length), _states.AsSpan(0, entryIds.Length));
                for (var i = 0; i < entryIds.Length; i++)
                {
                    if (_states[i] == IDocValues.OneNumber)
                    {
                        if (_aggregator is not null)
                            CountNumber(_numbers[i], i, lowest, highest);
                    }
                    else if (_states[i] == IDocValues.ReadValues)
                    {
                        // Made when first needed: a field of single numbers never reads any.
                        if (_readIds.Length < entryIds.Length)
                            (_readIds, _readPlaces) = (new long[entryIds.Length], new int[entryIds.Length]);
                        _readIds[toRead] = entryIds[i];
                        _readPlaces[toRead++] = i;
                    }
                }
                if (toRead > 0)
                {
                    docValues.Read(_readIds.AsSpan(0, toRead), _values);
                    for (var r = 0; r < toRead; r++)
                        CountValues(_values[r], _readPlaces[r]);
                }
                return;
            }
        }
        docValues.Read(entryIds, _values);
        for (var i = 0; i < entryIds.Length; i++)
            CountValues(_values[i], i);
    }

    /// <inheritdoc/>
    bool IEveryEntryCounter.TryCountEveryEntry(IEngineSearcher searcher)
    {
        // An aggregator needs each entry's numbers; an empty index reads no field, as an empty walk does.
        if (_aggregator is not null || searcher.EntryCount == 0)
            return false;
        // When this fails, the walk begins again, which only reads the bounds once more.
        Begin(searcher);
        if (_lowest is not { } lowest || _highest is not { } highest || !_docValues!.TryCountEveryNumber(lowest, highest, _counts))
            return false;
        Finish();
        return true;
    }

    /// <inheritdoc/>
    public void Finish()
    {
        for (var c = 0; c < _countedRanges.Length; c++)
            _counts[_countedRanges[c]] += _countedCounts[c];
        _finished = true;
    }

    /// <summary>
    /// Counts every entry of a batch that has one number in each range it falls in, without a branch on the
    /// comparison: prices fall in ranges at random, so a branch per range was mispredicted about once per entry.
    /// </summary>
    private void CountNumbers(ReadOnlySpan<ulong> numbers, ReadOnlySpan<long> states)
    {
        var lowest = _countedLowest;
        var widths = _countedWidths;
        var counts = _countedCounts;
        for (var i = 0; i < numbers.Length; i++)
        {
            // Zero for an entry whose number is elsewhere or missing: its comparisons then add nothing.
            var one = states[i] == IDocValues.OneNumber ? 1L : 0L;
            var number = numbers[i];
            for (var r = 0; r < lowest.Length; r++)
                counts[r] += one & (number - lowest[r] <= widths[r] ? 1L : 0L);
        }
    }

    /// <summary>Counts the <paramref name="place"/>-th match of its batch, whose one value is <paramref name="number"/>, in every range it falls in.</summary>
    private void CountNumber(ulong number, int place, ulong[] lowest, ulong[] highest)
    {
        for (var r = 0; r < lowest.Length; r++)
        {
            // In one unsigned comparison: below the lower bound wraps around past the width of the range.
            if (lowest[r] > highest[r] || number - lowest[r] > highest[r] - lowest[r])
                continue;
            _counts[r]++;
            _aggregator?.Add(r, place);
        }
    }

    /// <summary>Counts the <paramref name="place"/>-th match of its batch, whose values were read, in every range any of them falls in.</summary>
    private void CountValues(DocValueList values, int place)
    {
        if (values.IsEmpty)
            return;
        for (var r = 0; r < _counts.Length; r++)
        {
            if (!AnyValueIn(values, _lower[r], _ranges[r].LowerInclusive, _upper[r], _ranges[r].UpperInclusive))
                continue;
            _counts[r]++;
            _aggregator?.Add(r, place);
        }
    }

    /// <summary>The non-empty ranges' lower bounds and widths for <see cref="CountNumbers"/>, which counts apart and adds at <see cref="Finish"/>.</summary>
    private void PrepareBranchlessCounts()
    {
        if (_lowest is not { } lowest || _highest is not { } highest)
            return;
        var ranges = new List<int>(lowest.Length);
        for (var r = 0; r < lowest.Length; r++)
        {
            if (lowest[r] <= highest[r])
                ranges.Add(r);
        }
        _countedRanges = [.. ranges];
        _countedLowest = new ulong[ranges.Count];
        _countedWidths = new ulong[ranges.Count];
        _countedCounts = new long[ranges.Count];
        for (var c = 0; c < ranges.Count; c++)
            (_countedLowest[c], _countedWidths[c]) = (lowest[ranges[c]], highest[ranges[c]] - lowest[ranges[c]]);
    }

    /// <summary>
    /// The ranges as inclusive bounds on the integers an eight-byte number's bytes read as (big-endian): an exclusive
    /// bound moved by one, a missing bound the lowest or highest integer; nulls when some bound is not eight bytes, so
    /// the ranges are compared as bytes.
    /// </summary>
    private static (ulong[]? Lowest, ulong[]? Highest) NumericBounds(byte[]?[] lower, byte[]?[] upper, IReadOnlyList<ValueRange> ranges)
    {
        var lowest = new ulong[ranges.Count];
        var highest = new ulong[ranges.Count];
        for (var r = 0; r < ranges.Count; r++)
        {
            if (lower[r] is { Length: not sizeof(ulong) } || upper[r] is { Length: not sizeof(ulong) })
                return (null, null);
            var low = lower[r] is { } l ? BinaryPrimitives.ReadUInt64BigEndian(l) : ulong.MinValue;
            var high = upper[r] is { } h ? BinaryPrimitives.ReadUInt64BigEndian(h) : ulong.MaxValue;
            var empty = false;
            if (lower[r] is not null && !ranges[r].LowerInclusive)
                (low, empty) = low == ulong.MaxValue ? (low, true) : (low + 1, empty);
            if (upper[r] is not null && !ranges[r].UpperInclusive)
                (high, empty) = high == ulong.MinValue ? (high, true) : (high - 1, empty);
            (lowest[r], highest[r]) = empty ? (ulong.MaxValue, ulong.MinValue) : (low, high);
        }
        return (lowest, highest);
    }

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
