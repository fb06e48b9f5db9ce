namespace Folio.Indexing.Queries.Iterators;

/// <summary>Difference: the ids of one iterator that another does not have.</summary>
public sealed class AndNotIterator(DocIdIterator include, DocIdIterator exclude) : DocIdIterator
{
    private bool _excludeLive = true;
    private bool _excludeStarted;

    /// <inheritdoc/>
    public override long Cost => include.Cost;

    /// <inheritdoc/>
    public override float Score => include.Score;

    /// <inheritdoc/>
    public override bool MoveNext() => include.MoveNext() ? Skip() : End();

    /// <inheritdoc/>
    public override bool Advance(long target) => Current >= target ? Current != NoMoreIds : include.Advance(target) ? Skip() : End();

    private bool End()
    {
        Current = NoMoreIds;
        return false;
    }

    private bool Skip()
    {
        while (true)
        {
            var candidate = include.Current;
            if (_excludeLive && (!_excludeStarted || exclude.Current < candidate))
            {
                _excludeStarted = true;
                _excludeLive = exclude.Advance(candidate);
            }
            if (!_excludeLive || exclude.Current != candidate)
            {
                Current = candidate;
                return true;
            }
            if (!include.MoveNext())
            {
                Current = NoMoreIds;
                return false;
            }
        }
    }
}
