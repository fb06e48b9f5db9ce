namespace Folio.Indexing.Collectors;

/// <summary>A page of results and the number of all matches.</summary>
public sealed record TopDocs(long TotalHits, IReadOnlyList<SearchHit> Hits);
