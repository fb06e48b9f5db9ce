using Folio.Indexing.Search;

namespace Folio.Indexing.Queries;

/// <summary>
/// Entries whose field has a value within bounds (either may be open): numerically for numeric
/// fields, by normalized UTF-8 order for text fields. Bounds are whole values, however long.
/// </summary>
public sealed class RangeQuery(string field, FieldValue? lower, bool lowerInclusive, FieldValue? upper, bool upperInclusive) : Query
{
    /// <summary>The field.</summary>
    public string Field { get; } = field;

    /// <summary>The lower bound; null when open.</summary>
    public FieldValue? Lower { get; } = lower;

    /// <summary>Whether a value equal to <see cref="Lower"/> matches.</summary>
    public bool LowerInclusive { get; } = lowerInclusive;

    /// <summary>The upper bound; null when open.</summary>
    public FieldValue? Upper { get; } = upper;

    /// <summary>Whether a value equal to <see cref="Upper"/> matches.</summary>
    public bool UpperInclusive { get; } = upperInclusive;
}
