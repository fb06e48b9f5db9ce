using Folio.Indexing.Search;

namespace Folio.Indexing.Queries.Iterators;

/// <summary>
/// The entries of an intersection whose positions line the phrase's terms up in order, or, with a slop, near enough
/// to it (see <see cref="PhraseQuery.Slop"/>).
/// </summary>
internal sealed class PhraseIterator(IndexSearcher searcher, string field, List<(byte[] Term, int Position)> tokens, AndIterator all, int slop = 0) : DocIdIterator
{
    private readonly List<int>[] _positions = CreateLists(tokens.Count);
    private readonly TermPositions?[] _terms = searcher.Positions(field, tokens);
    // The sweep of a sloppy match: where each term stands in its positions, that position less the term's place in
    // the phrase, which terms wait in the queue, and the largest shifted position yet.
    private readonly int[] _at = new int[tokens.Count];
    private readonly int[] _shifted = new int[tokens.Count];
    private readonly bool[] _queued = new bool[tokens.Count];
    private int _end;
    // For each term, how many earlier places of the phrase hold the same term.
    private readonly int[] _rank = Ranks(tokens);
    private readonly bool _repeats = Array.Exists(Ranks(tokens), rank => rank > 0);

    public override long Cost => all.Cost;

    public override float Score => all.Score;

    public override bool MoveNext() => all.MoveNext() ? Check() : End();

    public override bool Advance(long target) => Current >= target ? Current != NoMoreIds : all.Advance(target) ? Check() : End();

    private bool Check()
    {
        do
        {
            if (Matches(all.Current))
            {
                Current = all.Current;
                return true;
            }
        }
        while (all.MoveNext());
        return End();
    }

    private bool Matches(long entry)
    {
        for (var i = 0; i < _terms.Length; i++)
        {
            if (_terms[i] is not { } term)
                return false;
            term.Read(entry, _positions[i]);
        }
        if (slop > 0)
            return MatchesWithinSlop();
        foreach (var start in _positions[0])
        {
            var ok = true;
            for (var i = 1; i < tokens.Count && ok; i++)
                ok = _positions[i].BinarySearch(start + tokens[i].Position - tokens[0].Position) >= 0;
            if (ok)
                return true;
        }
        return false;
    }

    /// <summary>
    /// Whether the entry's positions hold a match within the slop, found as Lucene's sloppy phrase scorer finds one, so
    /// both engines agree: each term's position is taken less its place in the phrase; the term with the smallest such
    /// position moves on while the spread (largest less smallest) is measured, and a spread within the slop is a match.
    /// A term the phrase repeats starts at its n-th occurrence for its n-th place, and when two of its places meet at
    /// one position the lesser of the two moves on, as Lucene resolves such collisions.
    /// </summary>
    private bool MatchesWithinSlop()
    {
        var count = _positions.Length;
        for (var i = 0; i < count; i++)
        {
            _at[i] = -1;
            if (!Step(i))
                return false;
        }
        if (_repeats)
        {
            for (var i = 0; i < count; i++)
            {
                // The places of a repeated term in phrase order: the n-th after the first moves on n times.
                for (var k = 0; k < _rank[i]; k++)
                {
                    if (!Step(i))
                        return false;
                }
            }
        }
        _end = int.MinValue;
        for (var i = 0; i < count; i++)
        {
            _end = Math.Max(_end, _shifted[i]);
            _queued[i] = true;
        }
        var current = PopSmallest();
        var next = Smallest();
        var matchLength = _end - _shifted[current];
        while (Advance(current))
        {
            if (_repeats && !Separate(current))
                break;
            if (_shifted[current] > next)
            {
                if (matchLength <= slop)
                    return true;
                _queued[current] = true;
                current = PopSmallest();
                next = Smallest();
                matchLength = _end - _shifted[current];
            }
            else
            {
                matchLength = Math.Min(matchLength, _end - _shifted[current]);
            }
        }
        return matchLength <= slop;
    }

    /// <summary>Moves a term to its next position (keeping the largest shifted position); false when it has none.</summary>
    private bool Advance(int term)
    {
        if (!Step(term))
            return false;
        _end = Math.Max(_end, _shifted[term]);
        return true;
    }

    private bool Step(int term)
    {
        var list = _positions[term];
        if (++_at[term] >= list.Count)
            return false;
        _shifted[term] = list[_at[term]] - Offset(term);
        return true;
    }

    /// <summary>Moves the lesser of two places of a repeated term that stand at one position on, until none do.</summary>
    private bool Separate(int term)
    {
        while (Colliding(term) is var other && other >= 0)
        {
            term = Lesser(term, other);
            if (!Advance(term))
                return false;
        }
        return true;
    }

    private int Colliding(int term)
    {
        var position = _shifted[term] + Offset(term);
        for (var i = 0; i < _terms.Length; i++)
        {
            if (i != term && _terms[i] == _terms[term] && _shifted[i] + Offset(i) == position)
                return i;
        }
        return -1;
    }

    private int Lesser(int a, int b) => _shifted[a] < _shifted[b] || (_shifted[a] == _shifted[b] && Offset(a) < Offset(b)) ? a : b;

    /// <summary>Takes the queued term that comes first (smallest shifted position, then place in the phrase) out of the queue.</summary>
    private int PopSmallest()
    {
        var best = -1;
        for (var i = 0; i < _queued.Length; i++)
        {
            if (_queued[i] && (best < 0 || _shifted[i] < _shifted[best] || (_shifted[i] == _shifted[best] && Offset(i) < Offset(best))))
                best = i;
        }
        _queued[best] = false;
        return best;
    }

    /// <summary>The smallest shifted position among the queued terms.</summary>
    private int Smallest()
    {
        var smallest = int.MaxValue;
        for (var i = 0; i < _queued.Length; i++)
        {
            if (_queued[i])
                smallest = Math.Min(smallest, _shifted[i]);
        }
        return smallest;
    }

    private int Offset(int term) => tokens[term].Position - tokens[0].Position;

    private bool End()
    {
        Current = NoMoreIds;
        return false;
    }

    private static int[] Ranks(List<(byte[] Term, int Position)> tokens)
    {
        var ranks = new int[tokens.Count];
        for (var i = 1; i < tokens.Count; i++)
        {
            for (var k = 0; k < i; k++)
            {
                if (tokens[k].Term.AsSpan().SequenceEqual(tokens[i].Term))
                    ranks[i]++;
            }
        }
        return ranks;
    }

    private static List<int>[] CreateLists(int count)
    {
        var lists = new List<int>[count];
        for (var i = 0; i < count; i++)
            lists[i] = [];
        return lists;
    }
}
