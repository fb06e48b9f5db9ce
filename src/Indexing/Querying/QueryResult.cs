namespace Folio.Indexing.Querying;

/// <summary>
/// A page of query results (documents or projections as JSON, or the facets of a facet query), the
/// documents they include, and how the query ran. Dispose it once the results are written: they live in pooled buffers.
/// </summary>
public sealed partial class QueryResult : IDisposable
{
    // Made by the first facet: most queries have none, and a list per query would be garbage.
    private List<FacetResult>? _facets;
    private Dictionary<string, Dictionary<string, string[]>>? _highlightings;

    /// <summary>The results, each a complete JSON value.</summary>
    public QueryResultList Results { get; } = new();

    /// <summary>The facets of a facet query, in the order the query named them; empty for any other query.</summary>
    public IReadOnlyList<FacetResult> Facets => _facets ?? (IReadOnlyList<FacetResult>)[];

    /// <summary>Included documents by id.</summary>
    public Dictionary<string, byte[]> Includes { get; } = new(StringComparer.OrdinalIgnoreCase);

    /// <summary>All matches, not just this page.</summary>
    public long TotalResults { get; set; }

    /// <summary>Matches skipped for reasons other than paging (always 0: a distinct query's total counts its distinct rows).</summary>
    public long SkippedResults { get; set; }

    /// <summary>Whether the index had not caught up with every write when the query ran.</summary>
    public bool IsStale { get; set; }

    /// <summary>The index used, or the collection read directly.</summary>
    public string? IndexName { get; set; }

    /// <summary>The etag the index had processed up to.</summary>
    public long IndexEtag { get; set; }

    /// <summary>How long the query took.</summary>
    public double DurationInMs { get; set; }

    /// <summary>The page size used when the query asked for more than the cap (null when it was not capped).</summary>
    public int? CappedPageSize { get; set; }

    /// <summary>
    /// The fragments of <c>include highlight(…)</c>: by highlighted field (as the query names it), then by document id,
    /// the best fragments first, matched terms marked; null when the query asked for no highlighting.
    /// </summary>
    public IReadOnlyDictionary<string, Dictionary<string, string[]>>? Highlightings => _highlightings;

    /// <summary>The fragments by document id of one highlighted field, made empty the first time it is named.</summary>
    public Dictionary<string, string[]> Highlight(string field)
    {
        _highlightings ??= new(StringComparer.Ordinal);
        if (!_highlightings.TryGetValue(field, out var byId))
            _highlightings[field] = byId = new(StringComparer.OrdinalIgnoreCase);
        return byId;
    }

    /// <summary>Adds a facet to the answer, after those added before.</summary>
    public void AddFacet(FacetResult facet) => (_facets ??= []).Add(facet);

    /// <summary>Gives the results' buffers back to the pool.</summary>
    public void Dispose() => Results.Dispose();
}
