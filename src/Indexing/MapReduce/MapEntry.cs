namespace Folio.Indexing.MapReduce;

/// <summary>
/// What one document gives one group: the group it belongs to and, per aggregation in the definition's
/// order, the values it adds. A document fanning out over an array gives one entry per item.
/// </summary>
/// <param name="GroupKey">The group's values as a canonical JSON array (<c>["companies/1",2024]</c>): equal values, equal keys.</param>
/// <param name="Present">Per aggregation, how many non-null values the entry has (1 for a count of entries).</param>
/// <param name="Numbers">Per aggregation, the numbers the entry adds (empty for counts).</param>
internal sealed record MapEntry(string GroupKey, long[] Present, MapNumber[][] Numbers);
