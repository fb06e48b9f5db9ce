using Folio.Indexing.Queries;
using Folio.Indexing.Search;

namespace Folio.Indexing.Engines;

/// <summary>
/// How an engine answers <see cref="IntersectQuery"/>: it walks each part's matches on its searcher, keeps the documents
/// (their <see cref="IntersectQuery.DocumentField"/> values) every part reached, and rewrites the query into the entries
/// of those documents that match a part, a query of the kinds it already translates.
/// </summary>
internal static class Intersection
{
    public static Query Rewrite(IntersectQuery query, IEngineSearcher searcher)
    {
        HashSet<string>? documents = null;
        var values = new Dictionary<string, FieldValue>(StringComparer.Ordinal);
        foreach (var part in query.Parts)
        {
            var reached = new HashSet<string>(StringComparer.Ordinal);
            var matches = searcher.Iterate(part);
            while (matches.MoveNext())
            {
                if (searcher.GetValues(query.DocumentField, matches.Current) is not [var document, ..])
                    continue;
                var text = document.ToString();
                if (documents is null || documents.Contains(text))
                {
                    reached.Add(text);
                    values.TryAdd(text, document);
                }
            }
            documents = reached;
            if (documents.Count == 0)
                break;
        }
        var kept = new List<FieldValue>(documents?.Count ?? 0);
        foreach (var document in documents ?? [])
            kept.Add(values[document]);
        return new AndQuery([new TermsInQuery(query.DocumentField, kept), new OrQuery(query.Parts)], []);
    }
}
