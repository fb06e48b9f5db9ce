using Folio.Indexing.Collectors;
using Folio.Indexing.Engines;
using Folio.Indexing.Queries;
using Folio.Indexing.Search;

namespace Folio.Indexing.Tests;

/// <summary>One facet counted in a walk of its own, for tests that check counts rather than collection.</summary>
internal static class FacetCounts
{
    /// <summary>How many matches of <paramref name="query"/> have each value of <paramref name="field"/> (<see cref="TermFacetCollector"/>).</summary>
    public static Dictionary<FieldValue, long> CountTerms(this IEngineSearcher searcher, Query query, string field)
    {
        var collector = new TermFacetCollector(field);
        searcher.Collect(query, collector);
        return new Dictionary<FieldValue, long>(collector.Counts);
    }

    /// <summary>How many matches of <paramref name="query"/> have a value of <paramref name="field"/> in each range (<see cref="RangeFacetCollector"/>).</summary>
    public static long[] CountRanges(this IEngineSearcher searcher, Query query, string field, IReadOnlyList<ValueRange> ranges)
    {
        var collector = new RangeFacetCollector(field, ranges);
        searcher.Collect(query, collector);
        return [.. collector.Counts];
    }
}
