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
        // Bounds are whole values: a value longer than a term keeps only its first bytes in its
        // term, so terms that cannot decide are verified against the entries' whole values.
        var low = lower is { } l ? searcher.WholeTerm(Field, l) : [];
        var high = upper is { } u ? searcher.WholeTerm(Field, u) : null;
        if (low is null || (upper is not null && high is null))
            return new EmptyIterator();
        var bounds = new RangeBounds(lower is null ? null : low, lowerInclusive, high, upperInclusive);
        var from = low.Length > TermEncoding.KeptBytes ? low[..TermEncoding.KeptBytes] : low;
        return searcher.UnionOfTerms(Field, from, static (term, b) =>
        {
            var above = b.Lower is null ? 1 : TermEncoding.CompareToValue(term, b.Lower);
            if (above is { } a && (a < 0 || (a == 0 && !b.LowerInclusive)))
                return TermVerdict.Skip;
            var below = b.Upper is null ? -1 : TermEncoding.CompareToValue(term, b.Upper);
            if (below is { } c && (c > 0 || (c == 0 && !b.UpperInclusive)))
            {
                // Shortened terms sort after every whole term with the same kept bytes, so the walk
                // goes on while it is among terms that share the upper bound's kept bytes.
                return c > 0 && !TermEncoding.SharesKeptPrefix(term, b.Upper) ? TermVerdict.Stop : TermVerdict.Skip;
            }
            return above is null || below is null ? TermVerdict.Verify : TermVerdict.Take;
        }, bounds, static (value, b) =>
        {
            var above = b.Lower is null ? 1 : value.SequenceCompareTo(b.Lower);
            var below = b.Upper is null ? -1 : value.SequenceCompareTo(b.Upper);
            return (above > 0 || (above == 0 && b.LowerInclusive)) && (below < 0 || (below == 0 && b.UpperInclusive));
        });
    }

    private sealed record RangeBounds(byte[]? Lower, bool LowerInclusive, byte[]? Upper, bool UpperInclusive);
}
