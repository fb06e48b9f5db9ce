namespace Folio.Indexing.Definitions;

/// <summary>One aggregated value of a map/reduce index's results.</summary>
/// <param name="Name">The value's name in the result rows.</param>
/// <param name="Op">How a group's values combine.</param>
/// <param name="Path">Where the values are read; null only for <see cref="AggregationOp.Count"/> of entries.</param>
public sealed record AggregationDefinition(string Name, AggregationOp Op, FieldPath? Path);
