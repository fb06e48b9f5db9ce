namespace Folio.Indexing.Querying;

/// <summary>
/// One facet of a query's answer: the field (or the facet's name) and how many matches fall under each
/// of its values or ranges. The HTTP tier decides how it is written; the query only counts.
/// </summary>
/// <param name="Name">The facet's name: its alias, or the field as the query named it.</param>
/// <param name="Values">The values or ranges with their counts, in the order they are answered (a page of them, for a term facet with options).</param>
public sealed record FacetResult(string Name, IReadOnlyList<FacetValue> Values)
{
    /// <summary>The values after the page (<c>Start</c> + <c>PageSize</c>), in order, when the options asked for them (<c>IncludeRemainingTerms</c>); null stands for an explicit null.</summary>
    public IReadOnlyList<string?> RemainingTerms { get; init; } = [];

    /// <summary>How many values come after the page.</summary>
    public long RemainingTermsCount { get; init; }

    /// <summary>How many matches the values after the page count together (a match with two of them counts twice).</summary>
    public long RemainingHits { get; init; }

    /// <summary>
    /// For a term facet, how many matches have no value in the field (it is missing, an empty array, or only objects);
    /// null for a range facet. An explicit null is a value (<see cref="FacetValue.Range"/> null), not missing.
    /// </summary>
    public long? MissingCount { get; init; }
}
