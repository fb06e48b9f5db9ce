namespace Folio.Indexing.Queries.Iterators;

/// <summary>Union by merging: the current id is the smallest current id among the children.</summary>
public sealed class OrIterator : DocIdIterator
{
    private readonly DocIdIterator[] _children;
    private readonly bool[] _live;
    private bool _started;

    /// <summary>Unites <paramref name="children"/>.</summary>
    public OrIterator(DocIdIterator[] children)
    {
        _children = children;
        _live = new bool[children.Length];
    }

    /// <summary>The united iterators, in the order their scores are summed.</summary>
    internal ReadOnlySpan<DocIdIterator> Children => _children;

    /// <summary>Whether no child has moved yet.</summary>
    internal bool IsUnstarted => !_started;

    /// <inheritdoc/>
    public override long Cost
    {
        get
        {
            long cost = 0;
            foreach (var child in _children)
                cost += child.Cost;
            return cost;
        }
    }

    /// <summary>The sum of the scores of the children on the current id.</summary>
    public override float Score
    {
        get
        {
            var score = 0f;
            for (var i = 0; i < _children.Length; i++)
            {
                if (_live[i] && _children[i].Current == Current)
                    score += _children[i].Score;
            }
            return score;
        }
    }

    /// <inheritdoc/>
    public override bool MoveNext()
    {
        if (!_started)
        {
            _started = true;
            for (var i = 0; i < _children.Length; i++)
                _live[i] = _children[i].MoveNext();
        }
        else
        {
            for (var i = 0; i < _children.Length; i++)
            {
                if (_live[i] && _children[i].Current == Current)
                    _live[i] = _children[i].MoveNext();
            }
        }
        return SetMinimum();
    }

    /// <inheritdoc/>
    public override bool Advance(long target)
    {
        if (_started && Current >= target)
            return Current != NoMoreIds;
        _started = true;
        for (var i = 0; i < _children.Length; i++)
        {
            if (_live[i] || Current < 0)
                _live[i] = _children[i].Advance(target);
        }
        return SetMinimum();
    }

    private bool SetMinimum()
    {
        var minimum = long.MaxValue;
        for (var i = 0; i < _children.Length; i++)
        {
            if (_live[i] && _children[i].Current < minimum)
                minimum = _children[i].Current;
        }
        Current = minimum;
        return minimum != NoMoreIds;
    }
}
