namespace Folio.Indexing.Search;

/// <summary>
/// One field's posting changes gathered by a batch until it commits: every addition (term, entry,
/// frequency, and a full-text field's positions) in one log in the order entries are added, so in id order,
/// and the removals of stored postings per term. The index lends logs from batch to batch (<see cref="SearchIndex.RentPending"/>):
/// a list per term per batch was a fifth of an indexing run's garbage.
/// </summary>
internal sealed class PendingPostings
{
    private readonly Dictionary<byte[], int> _slots = new(ByteArrayComparer.Instance);
    private readonly List<byte[]> _terms = [];
    private readonly Dictionary<int, List<long>> _removals = [];
    private long[] _ids = new long[InitialCapacity];
    private int[] _frequencies = new int[InitialCapacity];
    // The term slot of each addition; -1 once the addition is taken back.
    private int[] _additionSlots = new int[InitialCapacity];
    private int _count;
    // A full-text field's positions: each addition's (as many as its frequency) start at its entry of _positionStarts.
    private int[] _positions = [];
    private int[] _positionStarts = [];
    private int _positionCount;
    private bool _hasPositions;
    // Flush scratch: the additions grouped by term, where each term's group starts, and the terms in key order.
    private long[] _groupedIds = [];
    private int[] _groupedFrequencies = [];
    private int[] _groupedPositions = [];
    private int[] _positionGroupStarts = [];
    private int[] _starts = [];
    private byte[][] _sortedTerms = [];
    private int[] _sortedSlots = [];

    // Past this many additions a returned log gives its arrays up rather than keep a huge batch's size.
    private const int RetainedCapacity = 1 << 20;

    // Small to start: every field of every index of every loaded database keeps its logs, and most batches are small;
    // a large one doubles its way up once and the log keeps that size.
    private const int InitialCapacity = 64;

    /// <summary>Forgets everything gathered, for the next batch; a log that grew very large starts small again.</summary>
    public void Release()
    {
        _slots.Clear();
        _terms.Clear();
        _removals.Clear();
        _count = 0;
        _positionCount = 0;
        _hasPositions = false;
        if (_ids.Length > RetainedCapacity)
        {
            _ids = new long[InitialCapacity];
            _frequencies = new int[InitialCapacity];
            _additionSlots = new int[InitialCapacity];
            _positionStarts = [];
        }
        if (_positions.Length > RetainedCapacity)
            _positions = [];
        if (_groupedIds.Length > RetainedCapacity)
        {
            _groupedIds = [];
            _groupedFrequencies = [];
        }
        if (_groupedPositions.Length > RetainedCapacity)
            _groupedPositions = [];
        if (_starts.Length > RetainedCapacity)
        {
            _starts = [];
            _sortedTerms = [];
            _sortedSlots = [];
        }
    }

    /// <summary>Whether the log holds no change.</summary>
    public bool IsEmpty => _terms.Count == 0;

    /// <summary>
    /// Gives the term a posting for <paramref name="id"/>, which is at least every id added before; in a full-text field's
    /// log with the term's <paramref name="positions"/> in the entry, as many as <paramref name="frequency"/> (a log holds
    /// positions for every addition or for none).
    /// </summary>
    public void Add(byte[] term, long id, int frequency, ReadOnlySpan<int> positions = default)
    {
        if (_count == 0)
            _hasPositions = !positions.IsEmpty;
        if (_hasPositions != !positions.IsEmpty || _hasPositions && positions.Length != frequency)
            throw new ArgumentException("A log's additions have positions, as many as their frequencies, or none do.", nameof(positions));
        if (_count == _ids.Length)
        {
            Array.Resize(ref _ids, _count * 2);
            Array.Resize(ref _frequencies, _count * 2);
            Array.Resize(ref _additionSlots, _count * 2);
        }
        if (_hasPositions)
        {
            if (_positionStarts.Length < _ids.Length)
                Array.Resize(ref _positionStarts, _ids.Length);
            if (_positionCount + positions.Length > _positions.Length)
                Array.Resize(ref _positions, Math.Max(_positionCount + positions.Length, Math.Max(InitialCapacity, _positions.Length * 2)));
            _positionStarts[_count] = _positionCount;
            positions.CopyTo(_positions.AsSpan(_positionCount));
            _positionCount += positions.Length;
        }
        _ids[_count] = id;
        _frequencies[_count] = frequency;
        _additionSlots[_count] = Slot(term);
        _count++;
    }

    /// <summary>Takes the term's posting for <paramref name="id"/>, an entry stored before this batch, out of the stored postings.</summary>
    public void Remove(byte[] term, long id)
    {
        var slot = Slot(term);
        if (!_removals.TryGetValue(slot, out var removed))
        {
            removed = [];
            _removals.Add(slot, removed);
        }
        removed.Add(id);
    }

    /// <summary>Takes back every addition of <paramref name="id"/>, an entry this batch added and now deletes or replaces.</summary>
    public void RemoveAdditionsOf(long id)
    {
        for (var i = FirstAdditionOf(id); i < _count && _ids[i] == id; i++)
            _additionSlots[i] = -1;
    }

    /// <summary>
    /// Applies the changes to <paramref name="store"/> term by term in key order (so consecutive terms land on
    /// the same or the next pages); a term left without postings leaves <paramref name="dictionary"/> too.
    /// </summary>
    public void Apply(PostingStore store, TermDictionary? dictionary)
    {
        var termCount = _terms.Count;
        GroupByTerm(termCount);
        if (_sortedTerms.Length < termCount)
        {
            _sortedTerms = new byte[termCount * 2][];
            _sortedSlots = new int[termCount * 2];
        }
        for (var slot = 0; slot < termCount; slot++)
        {
            _sortedTerms[slot] = _terms[slot];
            _sortedSlots[slot] = slot;
        }
        Array.Sort(_sortedTerms, _sortedSlots, 0, termCount, ByteArrayComparer.Instance);
        for (var i = 0; i < termCount; i++)
        {
            var slot = _sortedSlots[i];
            var start = _starts[slot];
            var length = _starts[slot + 1] - start;
            ReadOnlySpan<long> removals = default;
            if (_removals.TryGetValue(slot, out var removed))
            {
                removed.Sort();
                removals = System.Runtime.InteropServices.CollectionsMarshal.AsSpan(removed);
            }
            ReadOnlySpan<int> positions = default;
            if (_hasPositions)
                positions = _groupedPositions.AsSpan(_positionGroupStarts[slot], _positionGroupStarts[slot + 1] - _positionGroupStarts[slot]);
            var kept = store.Apply(_sortedTerms[i], _groupedIds.AsSpan(start, length), _groupedFrequencies.AsSpan(start, length), positions, removals);
            if (!kept)
                dictionary?.Remove(_sortedTerms[i]);
        }
        Array.Clear(_sortedTerms, 0, termCount);
    }

    private int Slot(byte[] term)
    {
        if (!_slots.TryGetValue(term, out var slot))
        {
            slot = _terms.Count;
            _slots.Add(term, slot);
            _terms.Add(term);
        }
        return slot;
    }

    /// <summary>The first addition with an id of at least <paramref name="id"/> (the log is in id order).</summary>
    private int FirstAdditionOf(long id)
    {
        int low = 0, high = _count;
        while (low < high)
        {
            var middle = (low + high) >>> 1;
            if (_ids[middle] < id)
                low = middle + 1;
            else
                high = middle;
        }
        return low;
    }

    /// <summary>A counting sort of the live additions by term slot, keeping each term's additions in id order.</summary>
    private void GroupByTerm(int termCount)
    {
        if (_starts.Length < termCount + 1)
            _starts = new int[(termCount + 1) * 2];
        Array.Clear(_starts, 0, termCount + 1);
        var live = 0;
        for (var i = 0; i < _count; i++)
        {
            var slot = _additionSlots[i];
            if (slot < 0)
                continue;
            _starts[slot + 1]++;
            live++;
        }
        for (var slot = 0; slot < termCount; slot++)
            _starts[slot + 1] += _starts[slot];
        if (_groupedIds.Length < live)
        {
            _groupedIds = new long[live * 2];
            _groupedFrequencies = new int[live * 2];
        }
        // _starts[slot] walks up through the slot's group while placing, then is set back.
        for (var i = 0; i < _count; i++)
        {
            var slot = _additionSlots[i];
            if (slot < 0)
                continue;
            var at = _starts[slot]++;
            _groupedIds[at] = _ids[i];
            _groupedFrequencies[at] = _frequencies[i];
        }
        for (var slot = termCount; slot > 0; slot--)
            _starts[slot] = _starts[slot - 1];
        _starts[0] = 0;
        if (_hasPositions)
            GroupPositions(termCount);
    }

    /// <summary>The live additions' positions grouped as <see cref="GroupByTerm"/> grouped the additions: a slot's start at <c>_positionGroupStarts[slot]</c>.</summary>
    private void GroupPositions(int termCount)
    {
        if (_positionGroupStarts.Length < termCount + 1)
            _positionGroupStarts = new int[(termCount + 1) * 2];
        Array.Clear(_positionGroupStarts, 0, termCount + 1);
        var live = 0;
        for (var i = 0; i < _count; i++)
        {
            var slot = _additionSlots[i];
            if (slot < 0)
                continue;
            _positionGroupStarts[slot + 1] += _frequencies[i];
            live += _frequencies[i];
        }
        for (var slot = 0; slot < termCount; slot++)
            _positionGroupStarts[slot + 1] += _positionGroupStarts[slot];
        if (_groupedPositions.Length < live)
            _groupedPositions = new int[live * 2];
        for (var i = 0; i < _count; i++)
        {
            var slot = _additionSlots[i];
            if (slot < 0)
                continue;
            var frequency = _frequencies[i];
            _positions.AsSpan(_positionStarts[i], frequency).CopyTo(_groupedPositions.AsSpan(_positionGroupStarts[slot]));
            _positionGroupStarts[slot] += frequency;
        }
        for (var slot = termCount; slot > 0; slot--)
            _positionGroupStarts[slot] = _positionGroupStarts[slot - 1];
        _positionGroupStarts[0] = 0;
    }
}
