using System.Runtime.InteropServices;
using Folio.Indexing.Engines;
using Folio.Indexing.Search;

namespace Folio.Indexing.Collectors;

/// <summary>
/// Counts, over the matches, how many have each value of a field: an entry counts once per distinct value
/// (an array repeating a value counts it once), an explicit null counts as <see cref="FieldValue.Null"/>,
/// an entry without a value counts as missing (<see cref="Missing"/>). With a <see cref="FacetAggregator"/>, each
/// value also gathers the numbers of the entries counted under it. Values are counted by their bytes as the doc
/// values hold them and decoded once each at the end, so a match costs no allocation.
/// </summary>
public sealed class TermFacetCollector : ICollector
{
    private readonly Dictionary<byte[], Tally> _tallies = new(ByteArrayComparer.Instance);
    private readonly Dictionary<byte[], Tally>.AlternateLookup<ReadOnlySpan<byte>> _talliesBySpan;
    private readonly DocValuesBlock _values = new();
    private readonly FacetAggregator? _aggregator;
    private IEngineSearcher? _searcher;
    private IDocValues? _docValues;
    private List<FacetTerm>? _terms;
    private Dictionary<FieldValue, long>? _counts;
    private long _missing;

    /// <summary>Counts the values of <paramref name="field"/>, aggregating numbers per value with <paramref name="aggregator"/> when given.</summary>
    public TermFacetCollector(string field, FacetAggregator? aggregator = null)
    {
        ArgumentException.ThrowIfNullOrEmpty(field);
        Field = field;
        _aggregator = aggregator;
        _talliesBySpan = _tallies.GetAlternateLookup<ReadOnlySpan<byte>>();
    }

    /// <summary>The field counted.</summary>
    public string Field { get; }

    /// <summary>The aggregator of the values' numbers, if any.</summary>
    public FacetAggregator? Aggregator => _aggregator;

    /// <summary>Every value counted, in no particular order; read after the walk ended.</summary>
    /// <exception cref="InvalidOperationException">The walk has not ended.</exception>
    public IReadOnlyList<FacetTerm> Terms =>
        _terms ?? throw new InvalidOperationException("The counts of a term facet are known once the walk has ended.");

    /// <summary>How many matches have each value; read after the walk ended.</summary>
    /// <exception cref="InvalidOperationException">The walk has not ended.</exception>
    public IReadOnlyDictionary<FieldValue, long> Counts
    {
        get
        {
            if (_counts is null)
            {
                var counts = new Dictionary<FieldValue, long>(Terms.Count);
                foreach (var term in Terms)
                    counts.Add(term.Value, term.Count);
                _counts = counts;
            }
            return _counts;
        }
    }

    /// <summary>How many matches have no value in the field (missing, an empty array, or values that are not kept, like objects).</summary>
    public long Missing => _terms is not null ? _missing : throw new InvalidOperationException("The counts of a term facet are known once the walk has ended.");

    /// <inheritdoc/>
    public bool NeedsScores => false;

    /// <inheritdoc/>
    public void Begin(IEngineSearcher searcher)
    {
        _searcher = searcher;
        _aggregator?.Begin(searcher);
    }

    /// <inheritdoc/>
    public void Collect(ReadOnlySpan<long> entryIds, ReadOnlySpan<float> scores)
    {
        // Opened by the first match, not at Begin: a query that matches nothing reads no field, so a facet
        // on a field the index lacks answers empty then, as counting always has.
        _docValues ??= (_searcher ?? throw new InvalidOperationException("Begin was not called.")).OpenDocValues(Field);
        _docValues.Read(entryIds, _values);
        _aggregator?.Read(entryIds);
        for (var i = 0; i < entryIds.Length; i++)
        {
            var entry = entryIds[i];
            var values = _values[i];
            if (values.IsEmpty)
            {
                _missing++;
                continue;
            }
            foreach (var value in values)
            {
                ref var tally = ref CollectionsMarshal.GetValueRefOrAddDefault(_talliesBySpan, value.Encoded, out var exists);
                if (!exists)
                {
                    tally.LastEntry = -1;
                    tally.Slot = _tallies.Count - 1;
                    _aggregator?.EnsureSlots(_tallies.Count);
                }
                if (tally.LastEntry == entry)
                    continue;
                tally.LastEntry = entry;
                tally.Count++;
                _aggregator?.Add(tally.Slot, i);
            }
        }
    }

    /// <inheritdoc/>
    public void Finish()
    {
        var terms = new List<FacetTerm>(_tallies.Count);
        foreach (var (encoded, tally) in _tallies)
        {
            foreach (var value in new DocValueList(encoded))
                terms.Add(new FacetTerm(value.ToFieldValue(), value.Kind, value.Bytes.ToArray(), tally.Count, tally.Slot));
        }
        _terms = terms;
    }

    /// <summary>
    /// <paramref name="term"/>'s text as the data spells it most often where the field folds case
    /// (<see cref="IDocValues.Spelling"/>); null for a value spelled as counted, or one that is not text. Asks the
    /// searcher the walk ran on, so call it while that is open.
    /// </summary>
    public string? Spelling(FacetTerm term) => term.Kind == DocValueKind.Text && _docValues is { } docValues ? docValues.Spelling(term.Bytes) : null;

    // LastEntry: the last entry counted for the value, so an entry having it twice counts once (entries come in increasing order).
    // Slot: where the aggregator keeps the value's numbers.
    private struct Tally
    {
        public long Count;
        public long LastEntry;
        public int Slot;
    }
}
