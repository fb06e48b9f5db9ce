using System.Runtime.InteropServices;
using Folio.Indexing.Engines;
using Folio.Indexing.Search;

namespace Folio.Indexing.Collectors;

/// <summary>
/// Counts, over the matches, how many have each value of a field: an entry counts once per distinct value
/// (an array repeating a value counts it once), an explicit null counts as <see cref="FieldValue.Null"/>,
/// an entry without the field counts nowhere. Values are counted by their bytes as the doc values hold
/// them and decoded once each at the end, so a match costs no allocation.
/// </summary>
public sealed class TermFacetCollector : ICollector
{
    private readonly Dictionary<byte[], Tally> _tallies = new(ByteArrayComparer.Instance);
    private readonly Dictionary<byte[], Tally>.AlternateLookup<ReadOnlySpan<byte>> _talliesBySpan;
    private readonly DocValuesBlock _values = new();
    private IEngineSearcher? _searcher;
    private IDocValues? _docValues;
    private Dictionary<FieldValue, long>? _counts;

    /// <summary>Counts the values of <paramref name="field"/>.</summary>
    public TermFacetCollector(string field)
    {
        ArgumentException.ThrowIfNullOrEmpty(field);
        Field = field;
        _talliesBySpan = _tallies.GetAlternateLookup<ReadOnlySpan<byte>>();
    }

    /// <summary>The field counted.</summary>
    public string Field { get; }

    /// <summary>How many matches have each value; read after the walk ended.</summary>
    /// <exception cref="InvalidOperationException">The walk has not ended.</exception>
    public IReadOnlyDictionary<FieldValue, long> Counts =>
        _counts ?? throw new InvalidOperationException("The counts of a term facet are known once the walk has ended.");

    /// <inheritdoc/>
    public bool NeedsScores => false;

    /// <inheritdoc/>
    public void Begin(IEngineSearcher searcher) => _searcher = searcher;

    /// <inheritdoc/>
    public void Collect(ReadOnlySpan<long> entryIds, ReadOnlySpan<float> scores)
    {
        // Opened by the first match, not at Begin: a query that matches nothing reads no field, so a facet
        // on a field the index lacks answers empty then, as counting always has.
        _docValues ??= (_searcher ?? throw new InvalidOperationException("Begin was not called.")).OpenDocValues(Field);
        _docValues.Read(entryIds, _values);
        for (var i = 0; i < entryIds.Length; i++)
        {
            var entry = entryIds[i];
            foreach (var value in _values[i])
            {
                ref var tally = ref CollectionsMarshal.GetValueRefOrAddDefault(_talliesBySpan, value.Encoded, out var exists);
                if (!exists)
                    tally.LastEntry = -1;
                if (tally.LastEntry == entry)
                    continue;
                tally.LastEntry = entry;
                tally.Count++;
            }
        }
    }

    /// <inheritdoc/>
    public void Finish()
    {
        var counts = new Dictionary<FieldValue, long>(_tallies.Count);
        foreach (var (encoded, tally) in _tallies)
        {
            foreach (var value in new DocValueList(encoded))
                counts.Add(value.ToFieldValue(), tally.Count);
        }
        _counts = counts;
    }

    // LastEntry: the last entry counted for the value, so an entry having it twice counts once (entries come in increasing order).
    private struct Tally
    {
        public long Count;
        public long LastEntry;
    }
}
