using Folio.Indexing.Collectors;
using Folio.Indexing.Search;
using Lucene.Net.Index;

namespace Folio.Indexing.Engines.Lucene;

/// <summary>
/// The best page of a <see cref="LuceneSearcher"/>'s matches by a sort, with the count of them all, ordered exactly as
/// Folio's engine orders: a field's key is its smallest value's bytes (missing and null before every value), the score
/// is the score, and ties go to the lower entry id. A match is judged against the worst kept one key by key, reading a
/// key only while the keys before it tie, and is copied only when it gets in.
/// </summary>
internal sealed class LuceneTopDocsCollector : ITopDocsCollector
{
    private readonly LuceneSearcher _searcher;
    private readonly IReadOnlyList<SortField> _sort;
    // Per sort key, the field's binary doc values per segment (null for the score).
    private readonly BinaryDocValues?[]?[] _fields;
    private readonly int _skip;
    private readonly int _size;
    private readonly bool _needsScores;
    // The kept matches, the worst first (a max-heap by rank).
    private readonly PriorityQueue<Candidate, Candidate> _kept;
    private long _total;
    private TopDocs? _topDocs;

    public LuceneTopDocsCollector(LuceneSearcher searcher, IReadOnlyList<SortField> sort, int skip, int take)
    {
        _searcher = searcher;
        _sort = sort;
        _skip = skip;
        _size = (int)Math.Min(int.MaxValue, (long)skip + take);
        _fields = new BinaryDocValues?[]?[sort.Count];
        for (var i = 0; i < sort.Count; i++)
        {
            _needsScores |= sort[i].IsScore;
            if (!sort[i].IsScore)
            {
                searcher.Schema.Get(sort[i].Field!);
                _fields[i] = searcher.FieldValues(sort[i].Field!);
            }
        }
        _kept = new PriorityQueue<Candidate, Candidate>(Comparer<Candidate>.Create((a, b) => Rank(b, a)));
    }

    /// <inheritdoc/>
    public TopDocs TopDocs => _topDocs ?? throw new InvalidOperationException("The page is known once the walk has ended.");

    /// <inheritdoc/>
    public bool NeedsScores => _needsScores;

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
        {
            var score = _needsScores ? scores[i] : 0;
            if (_kept.Count < _size)
            {
                var candidate = Load(entryIds[i], score);
                _kept.Enqueue(candidate, candidate);
                continue;
            }
            if (Beats(entryIds[i], score, _kept.Peek()))
            {
                var candidate = Load(entryIds[i], score);
                _kept.DequeueEnqueue(candidate, candidate);
            }
        }
    }

    /// <inheritdoc/>
    public void Finish()
    {
        var ordered = new List<Candidate>(_kept.Count);
        while (_kept.TryDequeue(out var candidate, out _))
            ordered.Add(candidate);
        ordered.Sort(Rank);
        var hits = new List<SearchHit>(Math.Max(0, ordered.Count - _skip));
        for (var i = _skip; i < ordered.Count; i++)
            hits.Add(new SearchHit(ordered[i].Id, _searcher.GetKey(ordered[i].Id), ordered[i].Score));
        _topDocs = new TopDocs(_total, hits);
    }

    /// <summary>Whether the match ranks before <paramref name="worst"/>, reading its keys only as far as they tie.</summary>
    private bool Beats(long id, float score, Candidate worst)
    {
        for (var k = 0; k < _sort.Count; k++)
        {
            var cmp = _fields[k] is { } field
                ? CompareKeys(SmallestValue(_searcher.Read(field, id), out var found), found, worst.Keys[k])
                : score.CompareTo(worst.Score);
            if (cmp != 0)
                return (_sort[k].Descending ? -cmp : cmp) < 0;
        }
        return id < worst.Id;
    }

    private Candidate Load(long id, float score)
    {
        var keys = new byte[]?[_sort.Count];
        for (var k = 0; k < keys.Length; k++)
        {
            if (_fields[k] is { } field)
            {
                var smallest = SmallestValue(_searcher.Read(field, id), out var found);
                keys[k] = found ? smallest.ToArray() : null;
            }
        }
        return new Candidate(id, score, keys);
    }

    /// <summary>Negative when <paramref name="a"/> ranks before <paramref name="b"/>.</summary>
    private int Rank(Candidate a, Candidate b)
    {
        for (var k = 0; k < _sort.Count; k++)
        {
            var cmp = _fields[k] is null
                ? a.Score.CompareTo(b.Score)
                : CompareKeys(a.Keys[k], a.Keys[k] is not null, b.Keys[k]);
            if (cmp != 0)
                return _sort[k].Descending ? -cmp : cmp;
        }
        return a.Id.CompareTo(b.Id);
    }

    private static int CompareKeys(ReadOnlySpan<byte> value, bool present, byte[]? other) =>
        !present ? (other is null ? 0 : -1) : other is null ? 1 : value.SequenceCompareTo(other);

    /// <summary>The smallest non-null value's bytes of an entry's encoded values; <paramref name="found"/> false when it has none.</summary>
    private static ReadOnlySpan<byte> SmallestValue(ReadOnlySpan<byte> encoded, out bool found)
    {
        found = false;
        ReadOnlySpan<byte> smallest = default;
        var position = 0;
        while (position < encoded.Length)
        {
            if (encoded[position++] == (byte)DocValueKind.Null)
                continue;
            var value = ByteCoding.ReadBytes(encoded, ref position);
            if (!found || value.SequenceCompareTo(smallest) < 0)
                smallest = value;
            found = true;
        }
        return smallest;
    }

    private sealed record Candidate(long Id, float Score, byte[]?[] Keys);
}
