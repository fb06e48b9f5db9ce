using Folio.Indexing.Rql;

namespace Folio.Indexing.Querying;

/// <summary>What a facet aggregated for one field over the matches under one of its values or ranges.</summary>
/// <param name="Name">The aggregated field, or its alias.</param>
/// <param name="Ops">Which of the aggregations the facet asked for (the others are null).</param>
/// <param name="Sum">The sum of the field's numbers (0 when there are none).</param>
/// <param name="Min">The smallest of those numbers; null when there are none.</param>
/// <param name="Max">The largest of those numbers; null when there are none.</param>
/// <param name="Average">Their average; null when there are none.</param>
public sealed record FacetAggregates(string Name, RqlFacetAggregationOp Ops, double? Sum = null, double? Min = null, double? Max = null, double? Average = null);
