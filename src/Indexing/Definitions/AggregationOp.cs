namespace Folio.Indexing.Definitions;

/// <summary>How an aggregation of a map/reduce index combines the values of a group's map entries.</summary>
public enum AggregationOp
{
    /// <summary>The number of map entries (or, with a path, of the entries' non-null values).</summary>
    Count,

    /// <summary>The sum of the numbers at the path (0 when there are none).</summary>
    Sum,

    /// <summary>The smallest number at the path (null when there are none).</summary>
    Min,

    /// <summary>The largest number at the path (null when there are none).</summary>
    Max,

    /// <summary>The mean of the numbers at the path (null when there are none).</summary>
    Average,
}
