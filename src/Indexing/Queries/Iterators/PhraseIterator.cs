using Folio.Indexing.Search;

namespace Folio.Indexing.Queries.Iterators;

/// <summary>The entries of an intersection whose positions line the phrase's terms up in order.</summary>
internal sealed class PhraseIterator(IndexSearcher searcher, string field, List<(byte[] Term, int Position)> tokens, AndIterator all) : DocIdIterator
{
    private readonly List<int>[] _positions = CreateLists(tokens.Count);
    private readonly long[] _termIds = searcher.TermIds(field, tokens);

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
