using System.Numerics;
using Folio.Indexing.Collectors;
using Folio.Indexing.Engines;
using Folio.Indexing.Queries.Iterators;
using Folio.Indexing.Scoring;

namespace Folio.Indexing.Search;

/// <summary>
/// Walks every match once: counts it, and keeps the best <c>skip + take</c> in a bounded heap by the
/// sort keys (numeric fields from their dense columns, text fields from their doc values, or the
/// score). A match is compared with the worst kept one key by key, reading a key only when the keys
/// before it tie, and nothing is allocated for a match that does not get in. Its searcher walks the matches
/// through it (<see cref="Walk"/>); in a walk shared with other collectors it takes batches of ids instead.
/// </summary>
internal sealed class TopDocsCollector : ITopDocsCollector
{
    private const int InitialSlots = 32;

    private readonly IReadOnlyList<SortField> _sort;
    private readonly IndexSearcher _searcher;
    private readonly SortKeyValues[] _keys;
    private readonly bool[] _descending;
    private readonly int _size;
    private readonly int _skip;
    private readonly bool _needsScore;
    private long[] _ids = [];
    private float[] _scores = [];

    // A heap of slots whose root is the worst kept candidate, the one a better match replaces; the
    // slot outside the heap (_spare) is where the next match is read in to be judged.
    private int[] _heap = [];
    private int _count;
    private int _spare;
    // The matches a batched walk has counted, and its result once it ended.
    private long _total;
    private TopDocs? _topDocs;

    /// <summary>Keeps the page <paramref name="skip"/>..<paramref name="skip"/>+<paramref name="take"/> by <paramref name="sort"/> (entry ids break ties; no keys: id order).</summary>
    public TopDocsCollector(IndexSearcher searcher, IReadOnlyList<SortField> sort, int skip, int take)
    {
        _searcher = searcher;
        _sort = sort;
        _skip = skip;
        _size = (int)Math.Min(int.MaxValue, (long)skip + take);
        _keys = new SortKeyValues[sort.Count];
        _descending = new bool[sort.Count];
        for (var i = 0; i < sort.Count; i++)
        {
            var key = sort[i];
            _needsScore |= key.IsScore;
            _descending[i] = key.Descending;
            _keys[i] = key.IsScore ? new ScoreSortValues()
                : searcher.IsNumeric(key.Field!) ? new NumericSortValues(searcher.NumericColumn(key.Field!))
                : new BytesSortValues(searcher, key.Field!);
        }
        if (_size > 0)
            Grow();
    }

    /// <summary>The searcher whose snapshot the collector reads sort keys and keys from.</summary>
    public IndexSearcher Searcher => _searcher;

    /// <summary>Stops <see cref="Walk"/> (the searcher's <see cref="IndexSearcher.Guard"/>).</summary>
    public QueryGuard Guard { get; set; } = QueryGuard.None;

    /// <inheritdoc/>
    public TopDocs TopDocs => _topDocs ?? throw new InvalidOperationException("The page is known once the walk has ended.");

    /// <inheritdoc/>
    public bool NeedsScores => _needsScore;

    /// <summary>Walks every match of <paramref name="matches"/> and returns the page.</summary>
    public TopDocs Walk(DocIdIterator matches)
    {
        var needsScore = _needsScore;
        long total;
        if (_size == 0)
        {
            total = 0;
            while (matches.MoveNext())
            {
                if ((++total & MatchWalk.CancellationStride) == 0)
                    Guard.Check();
            }
        }
        else if (_keys.Length > 0 && _keys[0] is NumericSortValues { Column: { } column } primary)
        {
            total = CollectByColumn(matches, column, primary, needsScore);
        }
        else if (_keys.Length > 0 && _sort[0].IsScore && _descending[0] && WindowedDisjunction.TryCreate(matches, _searcher.Scratch) is { } windows)
        {
            total = CollectByScoreWindows(windows);
        }
        else
        {
            total = 0;
            while (matches.MoveNext())
            {
                if ((++total & MatchWalk.CancellationStride) == 0)
                    Guard.Check();
                Judge(matches.Current, needsScore ? matches.Score : 0, 0, 0);
            }
        }
        return _topDocs = Hits(total, _skip);
    }

    /// <inheritdoc/>
    public void Begin(IEngineSearcher searcher)
    {
        if (searcher != _searcher)
            throw new InvalidOperationException("A top-K collector reads the snapshot of the searcher that made it; collect with that searcher.");
    }

    /// <inheritdoc/>
    public void Collect(ReadOnlySpan<long> entryIds, ReadOnlySpan<float> scores)
    {
        _total += entryIds.Length;
        if (_size == 0)
            return;
        for (var i = 0; i < entryIds.Length; i++)
            Judge(entryIds[i], _needsScore ? scores[i] : 0, 0, 0);
    }

    /// <inheritdoc/>
    public void Finish() => _topDocs = Hits(_total, _skip);

    /// <summary>
    /// The walk when the first key is a numeric column: matches come in id order, so the block of
    /// their keys is read in place once per block of ids (a span cannot live in a field, hence this loop),
    /// and most matches are turned away on that key alone.
    /// </summary>
    private long CollectByColumn(DocIdIterator matches, NumericColumn column, NumericSortValues primary, bool needsScore)
    {
        long total = 0;
        var blockNumber = -1L;
        ReadOnlySpan<byte> block = default;
        var descending = _descending[0];
        while (matches.MoveNext())
        {
            if ((++total & MatchWalk.CancellationStride) == 0)
                Guard.Check();
            var id = matches.Current;
            if (column.BlockOf(id) != blockNumber)
            {
                blockNumber = column.BlockOf(id);
                block = column.StoredBlock(blockNumber);
            }
            var present = column.TryRead(block, id, out var value);
            var cmp = 0;
            if (_count == _size)
            {
                cmp = primary.Compare(present, value, _heap[0]);
                if (descending)
                    cmp = -cmp;
                if (cmp > 0)
                    continue;
            }
            primary.Set(_spare, present, value);
            Judge(id, needsScore ? matches.Score : 0, 1, cmp);
        }
        return total;
    }

    /// <summary>
    /// The walk of a ranked full-text search: matches come a window at a time with their scores, and
    /// once the heap is full a match scoring below the worst kept one is turned away on the spot. With
    /// score as the only key an equal score is turned away too: ids come in increasing order, and among
    /// equal scores the lower id ranks first.
    /// </summary>
    private long CollectByScoreWindows(WindowedDisjunction windows)
    {
        long total = 0;
        var scoreOnly = _keys.Length == 1;
        while (windows.NextWindow())
        {
            Guard.Check();
            var present = windows.Present;
            var scores = windows.Scores;
            var start = windows.WindowBase;
            for (var w = 0; w < present.Length; w++)
            {
                var bits = present[w];
                while (bits != 0)
                {
                    var offset = (w << 6) + BitOperations.TrailingZeroCount(bits);
                    bits &= bits - 1;
                    total++;
                    var score = scores[offset];
                    if (_count == _size)
                    {
                        var worst = _scores[_heap[0]];
                        if (score < worst || (scoreOnly && score == worst))
                            continue;
                    }
                    Judge(start + offset, score, 0, 0);
                }
            }
        }
        return total;
    }

    /// <summary>
    /// Keeps the match if it ranks before the worst kept one (or the heap is not full). The first
    /// <paramref name="loaded"/> keys of the match are already in the spare slot and compared with the
    /// worst's as <paramref name="cmp"/>; the rest are read only while the keys before them tie.
    /// </summary>
    private void Judge(long id, float score, int loaded, int cmp)
    {
        if (_count < _size)
        {
            Load(_spare, loaded, id, score);
            _heap[_count++] = _spare;
            SiftUp(_count - 1);
            // Slots are handed out in order while the heap fills, so the spare is the next one.
            if (_count >= _ids.Length)
                Grow();
            _spare = _count;
            return;
        }
        var worst = _heap[0];
        while (loaded < _keys.Length && cmp == 0)
        {
            _keys[loaded].Load(_spare, id, score);
            cmp = _keys[loaded].Compare(_spare, worst);
            if (_descending[loaded])
                cmp = -cmp;
            loaded++;
        }
        if (cmp == 0)
            cmp = id.CompareTo(_ids[worst]);
        if (cmp >= 0)
            return;
        Load(_spare, loaded, id, score);
        _heap[0] = _spare;
        _spare = worst;
        SiftDown(0);
    }

    private void Load(int slot, int fromKey, long id, float score)
    {
        for (var k = fromKey; k < _keys.Length; k++)
            _keys[k].Load(slot, id, score);
        _ids[slot] = id;
        _scores[slot] = score;
    }

    private void Grow()
    {
        var slots = (int)Math.Min((long)_size + 1, Math.Max(InitialSlots, _ids.Length * 2L));
        Array.Resize(ref _ids, slots);
        Array.Resize(ref _scores, slots);
        Array.Resize(ref _heap, slots);
        foreach (var key in _keys)
            key.Grow(slots);
    }

    private TopDocs Hits(long total, int skip)
    {
        var ordered = new int[_count];
        Array.Copy(_heap, ordered, _count);
        Array.Sort(ordered, Compare);
        var hits = new List<SearchHit>(Math.Max(0, ordered.Length - skip));
        for (var i = skip; i < ordered.Length; i++)
            hits.Add(new SearchHit(_ids[ordered[i]], _searcher.GetKey(_ids[ordered[i]]), _scores[ordered[i]]));
        return new TopDocs(total, hits);
    }

    /// <summary>Negative when slot <paramref name="a"/> ranks before slot <paramref name="b"/>.</summary>
    private int Compare(int a, int b)
    {
        for (var k = 0; k < _keys.Length; k++)
        {
            var cmp = _keys[k].Compare(a, b);
            if (cmp != 0)
                return _descending[k] ? -cmp : cmp;
        }
        return _ids[a].CompareTo(_ids[b]);
    }

    private void SiftUp(int position)
    {
        var slot = _heap[position];
        while (position > 0)
        {
            var parent = (position - 1) >> 1;
            if (Compare(slot, _heap[parent]) <= 0)
                break;
            _heap[position] = _heap[parent];
            position = parent;
        }
        _heap[position] = slot;
    }

    private void SiftDown(int position)
    {
        var slot = _heap[position];
        while (true)
        {
            var child = 2 * position + 1;
            if (child >= _count)
                break;
            if (child + 1 < _count && Compare(_heap[child + 1], _heap[child]) > 0)
                child++;
            if (Compare(_heap[child], slot) <= 0)
                break;
            _heap[position] = _heap[child];
            position = child;
        }
        _heap[position] = slot;
    }
}
