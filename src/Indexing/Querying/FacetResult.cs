namespace Folio.Indexing.Querying;

/// <summary>
/// One facet of a query's answer: the field (or the facet's name) and how many matches fall under each
/// of its values or ranges. The HTTP tier decides how it is written; the query only counts.
/// </summary>
/// <param name="Name">The facet's name: the field as the query named it.</param>
/// <param name="Values">The values or ranges with their counts, in the order they are answered.</param>
public sealed record FacetResult(string Name, IReadOnlyList<FacetValue> Values);
