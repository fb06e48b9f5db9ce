namespace Folio.Indexing.Queries.Iterators;

/// <summary>Matches nothing.</summary>
public sealed class EmptyIterator : DocIdIterator
{
    /// <inheritdoc/>
    public override long Cost => 0;

    /// <inheritdoc/>
    public override bool MoveNext()
    {
        Current = NoMoreIds;
        return false;
    }

    /// <inheritdoc/>
    public override bool Advance(long target) => false;
}
