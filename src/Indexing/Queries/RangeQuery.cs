using Folio.Indexing.Queries.Iterators;
using Folio.Indexing.Search;

namespace Folio.Indexing.Queries;

/// <summary>
/// Entries whose field has a value within bounds (either may be open): numerically for numeric
/// fields, by normalized UTF-8 order for text fields.
/// </summary>
public sealed class RangeQuery(string field, FieldValue? lower, bool lowerInclusive, FieldValue? upper, bool upperInclusive) : Query
{
    /// <summary>The field.</summary>
    public string Field { get; } = field;

    /// <inheritdoc/>
    public override DocIdIterator CreateIterator(IndexSearcher searcher)
    {
        var from = lower is { } l ? searcher.EqualityTerm(Field, l) : [];
        var to = upper is { } u ? searcher.EqualityTerm(Field, u) : null;
        if (from is null || (upper is not null && to is null))
            return new EmptyIterator();
        var bounds = new RangeBounds(from, lower is not null && !lowerInclusive, to, upperInclusive);
        return searcher.UnionOfTerms(Field, from, static (term, b) =>
        {
            if (b.ExcludeLower && term.AsSpan().SequenceEqual(b.Lower))
                return TermVerdict.Skip;
            if (b.Upper is null)
                return TermVerdict.Take;
            var cmp = term.AsSpan().SequenceCompareTo(b.Upper);
            return cmp < 0 || (cmp == 0 && b.UpperInclusive) ? TermVerdict.Take : TermVerdict.Stop;
        }, bounds);
    }

    private sealed record RangeBounds(byte[] Lower, bool ExcludeLower, byte[]? Upper, bool UpperInclusive);
}
