using Folio.Indexing.Queries.Iterators;
using Folio.Indexing.Search;

namespace Folio.Indexing.Collectors;

/// <summary>
/// Walks every match once: counts it, and keeps the best <c>skip + take</c> in a bounded heap by the
/// sort keys (doc values read per candidate, or the score). Nothing is materialized beyond the heap.
/// </summary>
internal sealed class TopDocsCollector
{
    private readonly IndexSearcher _searcher;
    private readonly IReadOnlyList<SortField> _sort;
    private readonly int _size;
    private readonly PriorityQueue<Candidate, Candidate> _heap;

    public TopDocsCollector(IndexSearcher searcher, IReadOnlyList<SortField> sort, int size)
    {
        _searcher = searcher;
        _sort = sort;
        _size = size;
        // The heap's root is the worst kept candidate, so it is what a better one replaces.
        _heap = new PriorityQueue<Candidate, Candidate>(Comparer<Candidate>.Create((a, b) => -Compare(a, b)));
    }

    public TopDocs Collect(DocIdIterator matches, int skip)
    {
        long total = 0;
        var needsScore = false;
        foreach (var key in _sort)
            needsScore |= key.IsScore;
        while (matches.MoveNext())
        {
            total++;
            if (_size == 0)
                continue;
            var candidate = new Candidate(matches.Current, needsScore ? matches.Score : 0, SortKeys(matches.Current));
            if (_heap.Count < _size)
            {
                _heap.Enqueue(candidate, candidate);
            }
            else if (Compare(candidate, _heap.Peek()) < 0)
            {
                _heap.DequeueEnqueue(candidate, candidate);
            }
        }
        var ordered = new Candidate[_heap.Count];
        for (var i = ordered.Length - 1; i >= 0; i--)
            ordered[i] = _heap.Dequeue();
        var hits = new List<SearchHit>(Math.Max(0, ordered.Length - skip));
        for (var i = skip; i < ordered.Length; i++)
            hits.Add(new SearchHit(ordered[i].Id, _searcher.GetKey(ordered[i].Id), ordered[i].Score));
        return new TopDocs(total, hits);
    }

    private byte[]?[]? SortKeys(long id)
    {
        byte[]?[]? keys = null;
        for (var i = 0; i < _sort.Count; i++)
        {
            if (_sort[i].IsScore)
                continue;
            keys ??= new byte[]?[_sort.Count];
            keys[i] = _searcher.SortValue(_sort[i].Field!, id);
        }
        return keys;
    }

    /// <summary>Negative when <paramref name="a"/> ranks before <paramref name="b"/>.</summary>
    private int Compare(Candidate a, Candidate b)
    {
        for (var i = 0; i < _sort.Count; i++)
        {
            var key = _sort[i];
            int cmp;
            if (key.IsScore)
            {
                cmp = a.Score.CompareTo(b.Score);
            }
            else
            {
                var x = a.Keys![i];
                var y = b.Keys![i];
                cmp = x is null ? (y is null ? 0 : -1) : y is null ? 1 : x.AsSpan().SequenceCompareTo(y);
            }
            if (cmp != 0)
                return key.Descending ? -cmp : cmp;
        }
        return a.Id.CompareTo(b.Id);
    }

    private readonly record struct Candidate(long Id, float Score, byte[]?[]? Keys);
}
