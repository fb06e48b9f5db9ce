namespace Folio.Client.Queries;

/// <summary>One facet of a facet query: a count per term or per range.</summary>
public sealed class FacetResult
{
    /// <summary>The faceted field, or the facet's name.</summary>
    public string Name { get; set; } = "";

    /// <summary>The terms or ranges and their counts.</summary>
    public List<FacetValue> Values { get; set; } = [];

    /// <summary>The terms after the page, when the options asked for them.</summary>
    public List<string?> RemainingTerms { get; set; } = [];

    /// <summary>How many terms come after the page.</summary>
    public long RemainingTermsCount { get; set; }

    /// <summary>How many matches the terms after the page count together.</summary>
    public long RemainingHits { get; set; }

    /// <summary>Term facets: how many matches have no value in the field.</summary>
    public long? MissingCount { get; set; }
}
