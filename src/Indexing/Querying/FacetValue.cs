namespace Folio.Indexing.Querying;

/// <summary>One value of a term facet, or one range of a range facet, with the number of matches under it.</summary>
/// <param name="Range">The value as text, or the range as the query wrote it.</param>
/// <param name="Count">How many matches have that value, or a value in that range.</param>
public readonly record struct FacetValue(string Range, long Count);
