using Folio.Indexing.Collectors;
using Folio.Indexing.Rql;
using Folio.Indexing.Search;

namespace Folio.Indexing.Querying;

/// <summary>
/// Turns a facet's counts into its answer: a term facet's values ordered and paged as its options say, with what is
/// left after the page summed up; a range facet's ranges in the order written; each with its aggregations.
/// </summary>
internal static class FacetAnswer
{
    public static FacetResult Terms(FacetPlan plan, TermFacetCollector collector)
    {
        var options = plan.Options;
        var terms = collector.CountedTerms.AsSpan();
        var order = FacetTermOrder.Order(collector, options.SortMode);
        var start = Math.Min(options.Start, terms.Length);
        var end = start + Math.Min(options.PageSize, terms.Length - start);
        var values = new List<FacetValue>((end - start) * Math.Max(1, plan.Groups.Count));
        for (var i = start; i < end; i++)
        {
            ref readonly var term = ref terms[order[i]];
            AddValues(values, plan, collector.Aggregator, Display(plan, collector, term), term.Count, term.Slot);
        }
        long remainingHits = 0;
        var remainingTerms = options.IncludeRemainingTerms ? new List<string?>(terms.Length - end) : null;
        for (var i = end; i < terms.Length; i++)
        {
            ref readonly var term = ref terms[order[i]];
            remainingHits += term.Count;
            remainingTerms?.Add(Display(plan, collector, term));
        }
        var answer = new FacetResult(plan.Facet.Name, values)
        {
            RemainingTerms = remainingTerms ?? [],
            RemainingTermsCount = terms.Length - end,
            RemainingHits = remainingHits,
            MissingCount = collector.Missing,
        };
        collector.Release();
        return answer;
    }

    public static FacetResult Ranges(FacetPlan plan, RangeFacetCollector collector)
    {
        var counts = collector.Counts;
        var values = new List<FacetValue>(counts.Count * Math.Max(1, plan.Groups.Count));
        for (var r = 0; r < counts.Count; r++)
            AddValues(values, plan, collector.Aggregator, plan.RangeNames[r], counts[r], r);
        return new FacetResult(plan.Facet.Name, values);
    }

    /// <summary>
    /// A value as the answer shows it: null for an explicit null, text in the spelling the data uses most (a
    /// case-folding field holds it lower-cased) unless the plan wants it as indexed, a number as its shortest
    /// round-tripping text.
    /// </summary>
    private static string? Display(FacetPlan plan, TermFacetCollector collector, in FacetTerm term) => term.Kind switch
    {
        DocValueKind.Null => null,
        DocValueKind.Text => (plan.SeedsShapes ? null : collector.Spelling(term)) ?? term.Value.Text,
        _ => term.Value.ToString(),
    };

    /// <summary>The value of one term or range: one without aggregations, else one per aggregated name.</summary>
    private static void AddValues(List<FacetValue> values, FacetPlan plan, FacetAggregator? aggregator, string? range, long count, int slot)
    {
        if (aggregator is null)
        {
            values.Add(new FacetValue(range, count));
            return;
        }
        foreach (var group in plan.Groups)
        {
            var stats = aggregator.Stats(slot, group.Field);
            var any = stats.Count > 0;
            values.Add(new FacetValue(range, count)
            {
                Aggregates = new FacetAggregates(
                    group.Name,
                    group.Ops,
                    (group.Ops & RqlFacetAggregationOp.Sum) != 0 ? stats.Sum : null,
                    (group.Ops & RqlFacetAggregationOp.Min) != 0 && any ? stats.Min : null,
                    (group.Ops & RqlFacetAggregationOp.Max) != 0 && any ? stats.Max : null,
                    (group.Ops & RqlFacetAggregationOp.Average) != 0 && any ? stats.Sum / stats.Count : null),
            });
        }
    }
}
