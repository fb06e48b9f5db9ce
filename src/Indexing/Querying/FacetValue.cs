using Folio.Indexing.Rql;

namespace Folio.Indexing.Querying;

/// <summary>
/// One value of a term facet, or one range of a range facet, with the number of matches under it and, when the
/// facet aggregates numbers, what they add up to. A facet that aggregates several fields answers one value per
/// field for each term or range, each named by its field (<see cref="Name"/>), as the seeds' clients read them.
/// </summary>
/// <remarks>
/// The aggregations sit behind one reference: a facet over 5,000 brands answers 5,000 values on every query, and with
/// its four nullable numbers inline each value took 96 bytes where most facets aggregate nothing.
/// </remarks>
/// <param name="Range">The value as text (in the data's most frequent spelling), null for an explicit null, or the range as the query wrote it.</param>
/// <param name="Count">How many matches have that value, or a value in that range.</param>
public readonly record struct FacetValue(string? Range, long Count)
{
    /// <summary>What the facet aggregated over the matches under this value for one field; null without aggregations.</summary>
    public FacetAggregates? Aggregates { get; init; }

    /// <summary>The aggregated field (or its alias) whose numbers <see cref="Sum"/> … <see cref="Average"/> are; null without aggregations.</summary>
    public string? Name => Aggregates?.Name;

    /// <summary>Which of <see cref="Sum"/>, <see cref="Min"/>, <see cref="Max"/> and <see cref="Average"/> the facet asked for (and the answer carries).</summary>
    public RqlFacetAggregationOp Aggregations => Aggregates?.Ops ?? default;

    /// <summary>The sum of the field's numbers over the matches under this value (0 when they have none).</summary>
    public double? Sum => Aggregates?.Sum;

    /// <summary>The smallest of those numbers; null when there are none.</summary>
    public double? Min => Aggregates?.Min;

    /// <summary>The largest of those numbers; null when there are none.</summary>
    public double? Max => Aggregates?.Max;

    /// <summary>Their average (the sum over how many numbers there are); null when there are none.</summary>
    public double? Average => Aggregates?.Average;
}
