using Folio.Indexing.Collectors;
using Folio.Indexing.Engines;
using Folio.Indexing.Queries;
using Folio.Indexing.Rql;

namespace Folio.Indexing.Querying;

/// <summary>
/// Counts a query's matches and all its facets in one walk over the matches. Sideways facets (multi-select) whose
/// field the query's top-level <c>and</c> conditions name make that walk go over the query without those
/// conditions, a <see cref="DrillSidewaysCollector"/> sorting each match to the collectors it counts for.
/// </summary>
internal static class FacetCounter
{
    public static void Count(RqlQuery query, QueryCompiler compiler, IEngineSearcher searcher, Query where, QueryResult result, bool seedsShapes)
    {
        var plans = new FacetPlan[query.Facets.Count];
        for (var f = 0; f < plans.Length; f++)
            plans[f] = FacetPlan.Create(query.Facets[f], compiler, seedsShapes);
        var count = new CountCollector();
        var conjuncts = new List<RqlExpression>();
        if (query.Where is not null)
            Conjuncts(query.Where, conjuncts);

        // The sideways dimensions: fields of sideways facets that some top-level condition is wholly about.
        var dimensions = new List<string>();
        foreach (var plan in plans)
        {
            if (plan.Options.Sideways && !dimensions.Contains(plan.FieldKey) && conjuncts.Exists(c => IsOnlyAbout(c, plan.FieldKey)))
                dimensions.Add(plan.FieldKey);
        }
        if (dimensions.Count == 0 && where is MatchAllQuery)
        {
            result.TotalResults = CountEveryEntry(searcher, plans);
        }
        else if (dimensions.Count == 0)
        {
            var collectors = new ICollector[plans.Length + 1];
            collectors[0] = count;
            for (var f = 0; f < plans.Length; f++)
                collectors[f + 1] = plans[f].Collector;
            searcher.Collect(where, new CompositeCollector(collectors));
            result.TotalResults = count.Count;
        }
        else
        {
            searcher.Collect(BaseQuery(compiler, conjuncts, dimensions), Sideways(compiler, plans, conjuncts, dimensions, count));
            result.TotalResults = count.Count;
        }

        foreach (var plan in plans)
            result.AddFacet(plan.Answer());
    }

    /// <summary>
    /// Counts every entry into the facets: those whose doc values can tell without a walk count so (see
    /// <see cref="IEveryEntryCounter"/>), the others in one walk over all entries; returns how many entries there are.
    /// </summary>
    private static long CountEveryEntry(IEngineSearcher searcher, FacetPlan[] plans)
    {
        var walked = new List<ICollector>(plans.Length + 1);
        foreach (var plan in plans)
        {
            if (plan.Collector is not IEveryEntryCounter counter || !counter.TryCountEveryEntry(searcher))
                walked.Add(plan.Collector);
        }
        if (walked.Count == 0)
            return searcher.EntryCount;
        var count = new CountCollector();
        walked.Add(count);
        searcher.Collect(MatchAllQuery.Instance, new CompositeCollector(walked));
        return count.Count;
    }

    /// <summary>The query without the conditions of any sideways dimension: what the walk goes over.</summary>
    private static Query BaseQuery(QueryCompiler compiler, List<RqlExpression> conjuncts, List<string> dimensions) =>
        compiler.Compile(And(conjuncts, c => !dimensions.Exists(d => IsOnlyAbout(c, d))));

    /// <summary>
    /// The walk's collector: the count and the other facets take the matches of the whole query; each dimension's
    /// sideways facets take those that meet every condition but maybe their own field's.
    /// </summary>
    private static DrillSidewaysCollector Sideways(QueryCompiler compiler, FacetPlan[] plans, List<RqlExpression> conjuncts, List<string> dimensions, CountCollector count)
    {
        var all = new List<ICollector> { count };
        var byDimension = new List<ICollector>[dimensions.Count];
        for (var d = 0; d < byDimension.Length; d++)
            byDimension[d] = [];
        foreach (var plan in plans)
        {
            var d = plan.Options.Sideways ? dimensions.IndexOf(plan.FieldKey) : -1;
            (d < 0 ? all : byDimension[d]).Add(plan.Collector);
        }
        var sideways = new List<(Query, ICollector)>(dimensions.Count);
        for (var d = 0; d < dimensions.Count; d++)
        {
            var dimension = dimensions[d];
            var condition = compiler.Compile(And(conjuncts, c => IsOnlyAbout(c, dimension)));
            sideways.Add((condition, byDimension[d].Count == 1 ? byDimension[d][0] : new CompositeCollector(byDimension[d])));
        }
        return new DrillSidewaysCollector(new CompositeCollector(all), sideways);
    }

    /// <summary>The conjuncts <paramref name="keep"/> picks, joined again by <c>and</c>, in their order; null (no condition) when it picks none.</summary>
    private static RqlExpression? And(List<RqlExpression> conjuncts, Predicate<RqlExpression> keep)
    {
        RqlExpression? joined = null;
        foreach (var conjunct in conjuncts)
        {
            if (keep(conjunct))
                joined = joined is null ? conjunct : new RqlBinary(true, joined, conjunct);
        }
        return joined;
    }

    /// <summary>The conditions joined by the where clause's top-level <c>and</c>s.</summary>
    private static void Conjuncts(RqlExpression expression, List<RqlExpression> conjuncts)
    {
        if (expression is RqlBinary { IsAnd: true } and)
        {
            Conjuncts(and.Left, conjuncts);
            Conjuncts(and.Right, conjuncts);
            return;
        }
        conjuncts.Add(expression);
    }

    /// <summary>
    /// Whether every field a condition names is <paramref name="field"/> (as the query writes it): <c>Brand = 'A'</c>,
    /// <c>Brand in ('A', 'B')</c>, <c>(Brand = 'A' or Brand = 'B')</c>, <c>not Brand = 'C'</c>, <c>exists(Brand)</c>.
    /// </summary>
    private static bool IsOnlyAbout(RqlExpression expression, string field) => expression switch
    {
        RqlBinary binary => IsOnlyAbout(binary.Left, field) && IsOnlyAbout(binary.Right, field),
        RqlNot not => IsOnlyAbout(not.Inner, field),
        RqlComparison comparison => comparison.Field.ToString() == field,
        RqlBetween between => between.Field.ToString() == field,
        RqlIn @in => @in.Field.ToString() == field,
        RqlFunction function => function.Field.ToString() == field,
        _ => false,
    };
}
