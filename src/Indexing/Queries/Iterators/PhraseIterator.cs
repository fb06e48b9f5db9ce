using Folio.Indexing.Search;

namespace Folio.Indexing.Queries.Iterators;

/// <summary>
/// The entries of an intersection whose positions line the phrase's terms up in order, or, with a slop, near enough
/// to it (see <see cref="PhraseQuery.Slop"/>).
/// </summary>
internal sealed class PhraseIterator(IndexSearcher searcher, string field, List<(byte[] Term, int Position)> tokens, AndIterator all, int slop = 0) : DocIdIterator
{
    private readonly List<int>[] _positions = CreateLists(tokens.Count);
    private readonly long[] _termIds = searcher.TermIds(field, tokens);
    // Where each term stands in the sweep of a sloppy match.
    private readonly int[] _at = new int[tokens.Count];

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
        searcher.ReadPositions(field, _termIds, entry, _positions);
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
    /// Whether some choice of one position per term has a spread of at most the slop, each position taken less the
    /// term's place in the phrase, as Lucene's sloppy phrase scorer measures a match. Sweeping the lists in step,
    /// always moving the term of the smallest shifted position on, meets the narrowest spread of all choices; a term
    /// the phrase repeats must stand at a position of its own, so a choice that puts two of them on one is passed.
    /// </summary>
    private bool MatchesWithinSlop()
    {
        var count = _positions.Length;
        for (var i = 0; i < count; i++)
        {
            if (_positions[i].Count == 0)
                return false;
            _at[i] = 0;
        }
        while (true)
        {
            var lowest = 0;
            var low = int.MaxValue;
            var high = int.MinValue;
            for (var i = 0; i < count; i++)
            {
                var shifted = _positions[i][_at[i]] - Offset(i);
                if (shifted < low)
                {
                    low = shifted;
                    lowest = i;
                }
                high = Math.Max(high, shifted);
            }
            if (high - low <= slop && !SharesPosition())
                return true;
            if (++_at[lowest] == _positions[lowest].Count)
                return false;
        }
    }

    private int Offset(int term) => tokens[term].Position - tokens[0].Position;

    /// <summary>Whether two of a repeated term's places stand at the same position in the sweep.</summary>
    private bool SharesPosition()
    {
        for (var i = 1; i < _termIds.Length; i++)
        {
            for (var k = 0; k < i; k++)
            {
                if (_termIds[k] == _termIds[i] && _positions[k][_at[k]] == _positions[i][_at[i]])
                    return true;
            }
        }
        return false;
    }

    private bool End()
    {
        Current = NoMoreIds;
        return false;
    }

    private static List<int>[] CreateLists(int count)
    {
        var lists = new List<int>[count];
        for (var i = 0; i < count; i++)
            lists[i] = [];
        return lists;
    }
}
