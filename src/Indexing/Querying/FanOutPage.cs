using Folio.Indexing.Collectors;
using Folio.Indexing.Definitions;
using Folio.Indexing.Engines;
using Folio.Indexing.Queries;

namespace Folio.Indexing.Querying;

/// <summary>
/// A page of a fan-out index's answer (<see cref="IndexDefinition.ForEach"/>), which has several entries per document:
/// each document once, at its first matching entry in the query's order, keyed by its document key; paging and the
/// total count documents. The matches are all collected to find the documents, which costs what the entries cost.
/// </summary>
internal static class FanOutPage
{
    /// <summary>
    /// The page <paramref name="skip"/>..<paramref name="skip"/>+<paramref name="take"/> of the documents; <paramref name="result"/>
    /// learns how many entries repeated one. With <paramref name="keepRepeats"/>, of the entries instead: a document as often as it matches.
    /// </summary>
    public static TopDocs Search(IEngineSearcher searcher, Query where, int skip, int take, IReadOnlyList<SortField> sort, QueryResult result, bool keepRepeats = false)
    {
        var all = searcher.Search(where, 0, int.MaxValue, sort);
        var seen = new HashSet<string>(StringComparer.Ordinal);
        var page = new List<SearchHit>();
        var documents = 0;
        foreach (var hit in all.Hits)
        {
            var key = IndexDefinition.DocumentKeyOf(hit.Key);
            if (!seen.Add(key) && !keepRepeats)
                continue;
            if (documents++ >= skip && page.Count < take)
                page.Add(hit with { Key = key });
        }
        result.SkippedResults = all.Hits.Count - documents;
        return new TopDocs(documents, page);
    }
}
