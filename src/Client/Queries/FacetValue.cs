namespace Folio.Client.Queries;

/// <summary>A term or range of a facet and how many matches hold it, with the aggregations asked for.</summary>
public sealed class FacetValue
{
    /// <summary>The term, null for an explicit null, or the range as the query wrote it.</summary>
    public string? Range { get; set; }

    /// <summary>How many matches hold it.</summary>
    public long Count { get; set; }

    /// <summary>With aggregations: the aggregated field.</summary>
    public string? Name { get; set; }

    /// <summary>The sum of the aggregated field.</summary>
    public double? Sum { get; set; }

    /// <summary>The smallest value of the aggregated field.</summary>
    public double? Min { get; set; }

    /// <summary>The largest value of the aggregated field.</summary>
    public double? Max { get; set; }

    /// <summary>The average of the aggregated field.</summary>
    public double? Average { get; set; }
}
