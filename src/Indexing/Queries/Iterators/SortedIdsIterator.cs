namespace Folio.Indexing.Queries.Iterators;

/// <summary>Ids held in an ascending array, such as the entries with one numeric value, read out of its points in one pass.</summary>
internal sealed class SortedIdsIterator(long[] ids, int count) : DocIdIterator
{
    private int _index = -1;

    /// <inheritdoc/>
    public override long Cost => count;

    /// <inheritdoc/>
    public override bool MoveNext()
    {
        if (_index < count && ++_index < count)
        {
            Current = ids[_index];
            return true;
        }
        Current = NoMoreIds;
        return false;
    }

    /// <inheritdoc/>
    public override bool Advance(long target)
    {
        if (Current >= target)
            return Current != NoMoreIds;
        var found = Array.BinarySearch(ids, _index + 1, count - _index - 1, target);
        _index = found >= 0 ? found : ~found;
        if (_index < count)
        {
            Current = ids[_index];
            return true;
        }
        Current = NoMoreIds;
        return false;
    }
}
