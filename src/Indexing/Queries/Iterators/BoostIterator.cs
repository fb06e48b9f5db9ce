namespace Folio.Indexing.Queries.Iterators;

/// <summary>
/// The entries of a clause with their score multiplied by a factor, or, for a clause that does not score, the factor
/// as their score (see <see cref="QueryScoring"/>).
/// </summary>
internal sealed class BoostIterator(DocIdIterator clause, float factor, bool scored) : DocIdIterator
{
    /// <inheritdoc/>
    public override long Cost => clause.Cost;

    /// <inheritdoc/>
    public override float Score => scored ? clause.Score * factor : factor;

    /// <inheritdoc/>
    public override bool MoveNext()
    {
        var more = clause.MoveNext();
        Current = clause.Current;
        return more;
    }

    /// <inheritdoc/>
    public override bool Advance(long target)
    {
        var more = clause.Advance(target);
        Current = clause.Current;
        return more;
    }
}
