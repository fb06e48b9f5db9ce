using Folio.Indexing.Engines;
using Folio.Indexing.Search;

namespace Folio.Indexing.Collectors;

/// <summary>
/// The numbers a facet aggregates per value or range: for each batch of matches it reads the doc values of every
/// aggregated field once and sums up each match's numbers (<see cref="Read"/>), and a facet collector then folds a
/// match into each slot (a value or a range) it counts the match under (<see cref="Add"/>). Numbers are the fields'
/// long and double values; text and nulls are not numbers and are left out. Nothing is allocated per match.
/// </summary>
public sealed class FacetAggregator
{
    private readonly string[] _fields;
    private readonly DocValuesBlock[] _blocks;
    private readonly IDocValues?[] _docValues;
    private IEngineSearcher? _searcher;
    // Per match of the current batch and per field: its numbers' stats (entry-major).
    private NumberStats[] _matches = [];
    // Per slot and per field (slot-major).
    private NumberStats[] _slots = [];

    /// <summary>Aggregates the numbers of <paramref name="fields"/> (index fields, each once).</summary>
    public FacetAggregator(IReadOnlyList<string> fields)
    {
        ArgumentNullException.ThrowIfNull(fields);
        if (fields.Count == 0)
            throw new ArgumentException("An aggregator needs at least one field.", nameof(fields));
        _fields = [.. fields];
        _blocks = new DocValuesBlock[_fields.Length];
        for (var f = 0; f < _blocks.Length; f++)
            _blocks[f] = new DocValuesBlock();
        _docValues = new IDocValues?[_fields.Length];
    }

    /// <summary>Starts a walk on <paramref name="searcher"/>'s snapshot (the fields are opened by the first batch).</summary>
    public void Begin(IEngineSearcher searcher) => _searcher = searcher;

    /// <summary>Reads the aggregated fields of a batch of matches; <see cref="Add"/> then folds them by their index in it.</summary>
    public void Read(ReadOnlySpan<long> entryIds)
    {
        var searcher = _searcher ?? throw new InvalidOperationException("Begin was not called.");
        var width = _fields.Length;
        if (_matches.Length < entryIds.Length * width)
            _matches = new NumberStats[entryIds.Length * width];
        for (var f = 0; f < width; f++)
        {
            var docValues = _docValues[f] ??= searcher.OpenDocValues(_fields[f]);
            docValues.Read(entryIds, _blocks[f]);
            for (var i = 0; i < entryIds.Length; i++)
            {
                ref var stats = ref _matches[(i * width) + f];
                stats = default;
                foreach (var value in _blocks[f][i])
                {
                    if (value.Kind == DocValueKind.Long)
                        stats.Add(TermEncoding.DecodeLong(value.Bytes));
                    else if (value.Kind == DocValueKind.Double)
                        stats.Add(TermEncoding.DecodeDouble(value.Bytes));
                }
            }
        }
    }

    /// <summary>Makes room for slots 0 to <paramref name="count"/> − 1 (amortized: called when a facet meets a new value).</summary>
    public void EnsureSlots(int count)
    {
        var needed = count * _fields.Length;
        if (_slots.Length < needed)
            Array.Resize(ref _slots, Math.Max(needed, _slots.Length * 2));
    }

    /// <summary>Folds the numbers of the <paramref name="match"/>-th match of the last batch read into <paramref name="slot"/>.</summary>
    public void Add(int slot, int match)
    {
        var width = _fields.Length;
        for (var f = 0; f < width; f++)
            _slots[(slot * width) + f].Add(in _matches[(match * width) + f]);
    }

    /// <summary>What <paramref name="slot"/> gathered of the <paramref name="field"/>-th field's numbers.</summary>
    public NumberStats Stats(int slot, int field) =>
        (slot + 1) * _fields.Length <= _slots.Length ? _slots[(slot * _fields.Length) + field] : default;
}
