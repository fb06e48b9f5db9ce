namespace Folio.Indexing.Queries.Iterators;

/// <summary>
/// Intersection by leap-frog: the cheapest list leads, each other list leaps to the candidate, and
/// any list that overshoots makes the overshoot the new candidate. Long lists are mostly skipped.
/// </summary>
public sealed class AndIterator : DocIdIterator
{
    private readonly DocIdIterator[] _children;

    /// <summary>Intersects <paramref name="children"/> (at least one).</summary>
    public AndIterator(DocIdIterator[] children)
    {
        if (children.Length == 0)
            throw new ArgumentException("An intersection needs at least one list.", nameof(children));
        _children = (DocIdIterator[])children.Clone();
        Array.Sort(_children, static (a, b) => a.Cost.CompareTo(b.Cost));
    }

    /// <inheritdoc/>
    public override long Cost => _children[0].Cost;

    /// <inheritdoc/>
    public override float Score
    {
        get
        {
            var score = 0f;
            foreach (var child in _children)
                score += child.Score;
            return score;
        }
    }

    /// <inheritdoc/>
    public override bool MoveNext() => _children[0].MoveNext() ? Align(_children[0].Current) : Exhausted();

    /// <inheritdoc/>
    public override bool Advance(long target)
    {
        if (Current >= target)
            return Current != NoMoreIds;
        return _children[0].Advance(target) ? Align(_children[0].Current) : Exhausted();
    }

    private bool Align(long candidate)
    {
        var i = 1;
        while (i < _children.Length)
        {
            if (!_children[i].Advance(candidate))
                return Exhausted();
            var found = _children[i].Current;
            if (found == candidate)
            {
                i++;
                continue;
            }
            if (!_children[0].Advance(found))
                return Exhausted();
            candidate = _children[0].Current;
            i = 1;
        }
        Current = candidate;
        return true;
    }

    private bool Exhausted()
    {
        Current = NoMoreIds;
        return false;
    }
}
