namespace Folio.Indexing.Queries.Iterators;

/// <summary>
/// A stream of matching entry ids in increasing order: the shape every query compiles to. An
/// iterator starts before its first id; <see cref="MoveNext"/> steps, <see cref="Advance"/> leaps to
/// the first id at or after a target (what lets an AND skip whole stretches of a long list).
/// </summary>
public abstract class DocIdIterator
{
    /// <summary>The id an exhausted iterator reports.</summary>
    public const long NoMoreIds = long.MaxValue;

    /// <summary>The current entry id: -1 before the first move, <see cref="NoMoreIds"/> once exhausted.</summary>
    public long Current { get; protected set; } = -1;

    /// <summary>An upper estimate of how many ids the iterator yields, used to order intersections.</summary>
    public abstract long Cost { get; }

    /// <summary>The current entry's relevance score (0 for iterators that do not score).</summary>
    public virtual float Score => 0;

    /// <summary>Moves to the next id; false when there are no more.</summary>
    public abstract bool MoveNext();

    /// <summary>Moves to the first id not less than <paramref name="target"/>; never moves backwards.</summary>
    public virtual bool Advance(long target)
    {
        if (Current >= target)
            return Current != NoMoreIds;
        while (MoveNext())
        {
            if (Current >= target)
                return true;
        }
        return false;
    }
}
