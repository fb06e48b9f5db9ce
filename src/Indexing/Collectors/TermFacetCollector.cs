using System.Buffers;
using System.Runtime.InteropServices;
using Folio.Indexing.Engines;
using Folio.Indexing.Search;

namespace Folio.Indexing.Collectors;

/// <summary>
/// Counts, over the matches, how many have each value of a field: an entry counts once per distinct value
/// (an array repeating a value counts it once), an explicit null counts as <see cref="FieldValue.Null"/>,
/// an entry without a value counts as missing (<see cref="Missing"/>). With a <see cref="FacetAggregator"/>, each
/// value also gathers the numbers of the entries counted under it. Values are counted by their bytes as the doc
/// values hold them and decoded once each at the end, so a match costs no allocation; where the doc values number
/// their values (<see cref="IDocValues.TryReadOrdinals"/>), an entry with one value is counted by its number, and the
/// value's bytes are read once per number, not once per entry.
/// </summary>
public sealed class TermFacetCollector : ICollector, IEveryEntryCounter
{
    // Each value's slot: where its tally (and its aggregator's numbers) is.
    private readonly Dictionary<byte[], int> _slots = new(ByteArrayComparer.Instance);
    private readonly Dictionary<byte[], int>.AlternateLookup<ReadOnlySpan<byte>> _slotsBySpan;
    // Ordinals below this index an array of slots (4 bytes each, grown as met); higher ones, a dictionary.
    private const long MaxArrayOrdinal = 1 << 22;

    // The slot of each ordinal met, plus one (0: not met yet); several ordinals may share a value, and so a slot.
    private int[] _slotsByOrdinal = [];
    // Without an aggregator: the matches counted under each ordinal below MaxArrayOrdinal, folded into slots by Finish.
    private long[] _ordinalCounts = [];
    private readonly Dictionary<long, int> _slotsByLargeOrdinal = [];
    private readonly DocValuesBlock _values = new();
    private readonly FacetAggregator? _aggregator;
    private Tally[] _tallies = new Tally[16];
    // The decoded value of each slot made from an ordinal (null for one made from read values), so Finish need not decode it again.
    private OrdinalTerm?[] _slotTerms = new OrdinalTerm?[16];
    private long[] _ordinals = [];
    // The entries of a batch whose values are read rather than numbered: their ids and their places in the batch.
    private long[] _readIds = [];
    private int[] _readPlaces = [];
    private IEngineSearcher? _searcher;
    private Action<long, long>? _addOrdinalCount;
    private IDocValues? _docValues;
    // Rented for the one query: a facet over 5,000 brands made a 300 KB array of them on every query. Its first _termCount are the values.
    private FacetTerm[]? _terms;
    private int _termCount;
    private bool _released;
    private Dictionary<FieldValue, long>? _counts;
    private long _missing;

    /// <summary>Counts the values of <paramref name="field"/>, aggregating numbers per value with <paramref name="aggregator"/> when given.</summary>
    public TermFacetCollector(string field, FacetAggregator? aggregator = null)
    {
        ArgumentException.ThrowIfNullOrEmpty(field);
        Field = field;
        _aggregator = aggregator;
        _slotsBySpan = _slots.GetAlternateLookup<ReadOnlySpan<byte>>();
    }

    /// <summary>The field counted.</summary>
    public string Field { get; }

    /// <summary>The aggregator of the values' numbers, if any.</summary>
    public FacetAggregator? Aggregator => _aggregator;

    /// <summary>Every value counted, in no particular order; read after the walk ended.</summary>
    /// <exception cref="InvalidOperationException">The walk has not ended.</exception>
    public IReadOnlyList<FacetTerm> Terms => CountedTerms;

    /// <summary><see cref="Terms"/> as the array the answer orders by position, without copying the values.</summary>
    internal ArraySegment<FacetTerm> CountedTerms => _terms is not null
        ? new ArraySegment<FacetTerm>(_terms, 0, _termCount)
        : throw new InvalidOperationException(_released
            ? "The counts of a term facet are gone once its answer was made."
            : "The counts of a term facet are known once the walk has ended.");

    /// <summary>
    /// Gives back what the counted values took, once the answer was made from them (<see cref="CountedTerms"/> is gone
    /// then): a query makes a collector per facet and drops it after its answer.
    /// </summary>
    internal void Release()
    {
        if (_terms is null)
            return;
        // Cleared so the pool does not keep the values of one query alive.
        Array.Clear(_terms, 0, _termCount);
        ArrayPool<FacetTerm>.Shared.Return(_terms);
        (_terms, _termCount, _released) = (null, 0, true);
    }

    /// <summary>
    /// Each counted value's place in value order (<see cref="IDocValues.ValueRanks"/>), by its position in
    /// <see cref="CountedTerms"/>, into <paramref name="ranks"/>; false, with <paramref name="ranks"/> unfinished, when some
    /// value has no place (it was read rather than numbered, or met since the places were made).
    /// </summary>
    internal bool TryRankValues(Span<int> ranks)
    {
        var terms = CountedTerms.AsSpan();
        if (_docValues?.ValueRanks() is not { } byNumber)
            return false;
        for (var i = 0; i < terms.Length; i++)
        {
            var slot = terms[i].Slot;
            if ((uint)slot >= (uint)_slotTerms.Length || _slotTerms[slot] is not { } known || (uint)known.Number >= (uint)byNumber.Length)
                return false;
            ranks[i] = byNumber[known.Number];
        }
        return true;
    }

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
    public long Missing => _terms is not null || _released ? _missing : throw new InvalidOperationException("The counts of a term facet are known once the walk has ended.");

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
        var docValues = _docValues ??= (_searcher ?? throw new InvalidOperationException("Begin was not called.")).OpenDocValues(Field);
        _aggregator?.Read(entryIds);
        if (_aggregator is null)
        {
            // Without an aggregator an entry's number is all that is needed, and the doc values may count by it in place.
            var counted = docValues.CountOrdinals(entryIds, ref _ordinalCounts, (int)MaxArrayOrdinal, ref _missing);
            if (counted == entryIds.Length)
                return;
            entryIds = entryIds[counted..];
        }
        if (_ordinals.Length < entryIds.Length)
            _ordinals = new long[entryIds.Length];
        var ordinals = _ordinals.AsSpan(0, entryIds.Length);
        if (!docValues.TryReadOrdinals(entryIds, ordinals))
        {
            docValues.Read(entryIds, _values);
            for (var i = 0; i < entryIds.Length; i++)
                CountValues(entryIds[i], _values[i], i);
            return;
        }
        var toRead = 0;
        for (var i = 0; i < entryIds.Length; i++)
        {
            var ordinal = ordinals[i];
            if (ordinal >= 0)
            {
                // An entry numbered has one value, so it needs no guard against counting it twice; without an
                // aggregator to feed per entry, the numbers are counted as they are and folded into values at the end.
                if (_aggregator is null && ordinal < MaxArrayOrdinal)
                    CountOrdinal(ordinal);
                else
                    Count(SlotOfOrdinal(docValues, ordinal), entryIds[i], i);
            }
            else if (ordinal == IDocValues.NoValue)
            {
                _missing++;
            }
            else
            {
                // Made when first needed: a field of single values never reads any.
                if (_readIds.Length < entryIds.Length)
                    (_readIds, _readPlaces) = (new long[entryIds.Length], new int[entryIds.Length]);
                _readIds[toRead] = entryIds[i];
                _readPlaces[toRead++] = i;
            }
        }
        if (toRead == 0)
            return;
        docValues.Read(_readIds.AsSpan(0, toRead), _values);
        for (var r = 0; r < toRead; r++)
            CountValues(_readIds[r], _values[r], _readPlaces[r]);
    }

    /// <inheritdoc/>
    bool IEveryEntryCounter.TryCountEveryEntry(IEngineSearcher searcher)
    {
        // An aggregator needs each entry's numbers; an empty index reads no field, as an empty walk does.
        if (_aggregator is not null || searcher.EntryCount == 0)
            return false;
        // Kept for the walk when this fails: it is what the walk's first batch opens.
        var docValues = _docValues = searcher.OpenDocValues(Field);
        if (!docValues.TryCountEveryOrdinal(_addOrdinalCount ??= AddOrdinalCount, out var counted))
            return false;
        _searcher = searcher;
        _missing = searcher.EntryCount - counted;
        Finish();
        return true;
    }

    /// <summary>Counts <paramref name="count"/> entries under <paramref name="ordinal"/> (from <see cref="IDocValues.TryCountEveryOrdinal"/>).</summary>
    private void AddOrdinalCount(long ordinal, long count)
    {
        if (ordinal >= MaxArrayOrdinal)
        {
            // The slot first: finding it may grow the tallies.
            var slot = SlotOfOrdinal(_docValues!, ordinal);
            _tallies[slot].Count += count;
            return;
        }
        if (ordinal >= _ordinalCounts.Length)
            Array.Resize(ref _ordinalCounts, (int)Math.Min(MaxArrayOrdinal, Math.Max(ordinal + 1, _ordinalCounts.Length * 2L)));
        _ordinalCounts[ordinal] += count;
    }

    /// <inheritdoc/>
    public void Finish()
    {
        // How many values the counted numbers bring is known before any is looked up: room for them all at once
        // rather than by doubling (a facet of 5,000 values grew its tallies and slots a dozen times per query).
        var met = 0;
        foreach (var counted in _ordinalCounts)
            met += counted != 0 ? 1 : 0;
        var numbered = met > 0 && _slots.Count == 0 ? FoldByNumber(met) : 0;
        if (met > 0 && numbered == 0)
        {
            MakeRoom(_slots.Count + met, _ordinalCounts.Length);
            for (var ordinal = 0; ordinal < _ordinalCounts.Length; ordinal++)
            {
                if (_ordinalCounts[ordinal] == 0)
                    continue;
                // The slot first: finding it may grow the tallies.
                var slot = SlotOfOrdinal(_docValues!, ordinal);
                _tallies[slot].Count += _ordinalCounts[ordinal];
            }
        }
        // A slot holds one value; the answer orders the values' positions where they are.
        var terms = ArrayPool<FacetTerm>.Shared.Rent(Math.Max(1, numbered + _slots.Count));
        var count = 0;
        for (var slot = 0; slot < numbered; slot++)
        {
            var known = _slotTerms[slot]!;
            terms[count++] = new FacetTerm(known.Value, known.Kind, known.Bytes, _tallies[slot].Count, slot);
        }
        foreach (var (encoded, slot) in _slots)
        {
            if (_slotTerms[slot] is { } known)
            {
                Add(ref terms, ref count, new FacetTerm(known.Value, known.Kind, known.Bytes, _tallies[slot].Count, slot));
                continue;
            }
            foreach (var value in new DocValueList(encoded))
                Add(ref terms, ref count, new FacetTerm(value.ToFieldValue(), value.Kind, value.Bytes.ToArray(), _tallies[slot].Count, slot));
        }
        (_terms, _termCount) = (terms, count);
    }

    /// <summary>
    /// Folds the counts by ordinal into one slot per value by the values' numbers (<see cref="OrdinalTerm.Number"/>),
    /// where every ordinal counted has one and no slot was made by the walk: ordinals merge without hashing their
    /// values' bytes. Returns how many slots it made, the first ones; 0, having changed nothing, when it cannot.
    /// </summary>
    private int FoldByNumber(int met)
    {
        var docValues = _docValues!;
        var largest = -1;
        for (var ordinal = 0; ordinal < _ordinalCounts.Length; ordinal++)
        {
            if (_ordinalCounts[ordinal] == 0)
                continue;
            var number = docValues.ReadOrdinal(ordinal).Number;
            if (number < 0)
                return 0;
            largest = Math.Max(largest, number);
        }
        if (_tallies.Length < met)
        {
            _tallies = new Tally[met];
            _slotTerms = new OrdinalTerm?[met];
        }
        // The slot of each number met, plus one (0: not met yet).
        var slotsByNumber = new int[largest + 1];
        var slots = 0;
        for (var ordinal = 0; ordinal < _ordinalCounts.Length; ordinal++)
        {
            var counted = _ordinalCounts[ordinal];
            if (counted == 0)
                continue;
            var term = docValues.ReadOrdinal(ordinal);
            ref var slot = ref slotsByNumber[term.Number];
            if (slot == 0)
            {
                slot = ++slots;
                _slotTerms[slots - 1] = term;
                _tallies[slots - 1] = default;
            }
            _tallies[slot - 1].Count += counted;
        }
        return slots;
    }

    private static void Add(ref FacetTerm[] terms, ref int count, in FacetTerm term)
    {
        if (count == terms.Length)
        {
            var grown = ArrayPool<FacetTerm>.Shared.Rent(Math.Max(4, count * 2));
            terms.AsSpan(0, count).CopyTo(grown);
            Array.Clear(terms, 0, count);
            ArrayPool<FacetTerm>.Shared.Return(terms);
            terms = grown;
        }
        terms[count++] = term;
    }

    /// <summary>
    /// <paramref name="term"/>'s text as the data spells it most often where the field folds case
    /// (<see cref="IDocValues.Spelling(ReadOnlySpan{byte})"/>); null for a value spelled as counted, or one that is not text. Asks the
    /// searcher the walk ran on, so call it while that is open.
    /// </summary>
    public string? Spelling(in FacetTerm term)
    {
        if (term.Kind != DocValueKind.Text || _docValues is not { } docValues)
            return null;
        // A value read by its ordinal has a number, by which its spelling is found without hashing its bytes.
        return (uint)term.Slot < (uint)_slotTerms.Length && _slotTerms[term.Slot] is { } known && known.Kind == DocValueKind.Text
            ? docValues.Spelling(known)
            : docValues.Spelling(term.Bytes);
    }

    /// <summary>Counts an entry whose values were read (the <paramref name="place"/>-th match of its batch).</summary>
    private void CountValues(long entry, DocValueList values, int place)
    {
        if (values.IsEmpty)
        {
            _missing++;
            return;
        }
        foreach (var value in values)
            Count(SlotOf(value.Encoded), entry, place);
    }

    private void Count(int slot, long entry, int place)
    {
        ref var tally = ref _tallies[slot];
        if (tally.LastEntry == entry)
            return;
        tally.LastEntry = entry;
        tally.Count++;
        _aggregator?.Add(slot, place);
    }

    private void CountOrdinal(long ordinal)
    {
        var counts = _ordinalCounts;
        if ((ulong)ordinal < (ulong)counts.Length)
            counts[ordinal]++;
        else
            GrowAndCount(ordinal);
    }

    // Apart from CountOrdinal so that stays small enough to inline into the walk over a batch.
    private void GrowAndCount(long ordinal)
    {
        Array.Resize(ref _ordinalCounts, (int)Math.Min(MaxArrayOrdinal, Math.Max(ordinal + 1, _ordinalCounts.Length * 2L)));
        _ordinalCounts[ordinal]++;
    }

    private int SlotOfOrdinal(IDocValues docValues, long ordinal)
    {
        if (ordinal < _slotsByOrdinal.Length && _slotsByOrdinal[ordinal] != 0)
            return _slotsByOrdinal[ordinal] - 1;
        if (ordinal >= MaxArrayOrdinal)
        {
            ref var large = ref CollectionsMarshal.GetValueRefOrAddDefault(_slotsByLargeOrdinal, ordinal, out var exists);
            if (!exists)
                large = SlotOfValue(docValues, ordinal);
            return large;
        }
        if (ordinal >= _slotsByOrdinal.Length)
            Array.Resize(ref _slotsByOrdinal, (int)Math.Min(MaxArrayOrdinal, Math.Max(ordinal + 1, _slotsByOrdinal.Length * 2L)));
        var slot = SlotOfValue(docValues, ordinal);
        _slotsByOrdinal[ordinal] = slot + 1;
        return slot;
    }

    /// <summary>The slot of the value an ordinal stands for, decoded once per ordinal (and, by the doc values, once per index).</summary>
    private int SlotOfValue(IDocValues docValues, long ordinal)
    {
        var term = docValues.ReadOrdinal(ordinal);
        ref var slot = ref CollectionsMarshal.GetValueRefOrAddDefault(_slots, term.Encoded, out var exists);
        if (!exists)
            slot = NewSlot();
        _slotTerms[slot] ??= term;
        return slot;
    }

    private int SlotOf(ReadOnlySpan<byte> encoded)
    {
        ref var slot = ref CollectionsMarshal.GetValueRefOrAddDefault(_slotsBySpan, encoded, out var exists);
        if (!exists)
            slot = NewSlot();
        return slot;
    }

    /// <summary>Room for <paramref name="values"/> slots and for the slots of ordinals below <paramref name="ordinals"/>.</summary>
    private void MakeRoom(int values, int ordinals)
    {
        _slots.EnsureCapacity(values);
        if (_tallies.Length < values)
        {
            Array.Resize(ref _tallies, values);
            Array.Resize(ref _slotTerms, values);
        }
        if (_slotsByOrdinal.Length < ordinals)
            Array.Resize(ref _slotsByOrdinal, ordinals);
    }

    /// <summary>Readies the tallies for the value just added to the slots, and gives its slot.</summary>
    private int NewSlot()
    {
        var slot = _slots.Count - 1;
        if (slot == _tallies.Length)
        {
            Array.Resize(ref _tallies, _tallies.Length * 2);
            Array.Resize(ref _slotTerms, _tallies.Length);
        }
        _tallies[slot].LastEntry = -1;
        _aggregator?.EnsureSlots(_slots.Count);
        return slot;
    }

    // LastEntry: the last entry counted for the value, so an entry having it twice counts once (entries come in increasing order).
    private struct Tally
    {
        public long Count;
        public long LastEntry;
    }
}
