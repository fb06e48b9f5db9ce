using Folio.Indexing.Definitions;
using Folio.Indexing.Rql;

namespace Folio.Indexing.Querying;

/// <summary>
/// A <c>group by</c> query as a map/reduce index and a query on its rows: the group fields and the
/// aggregates the query names anywhere (select, where, order by) make the reduce of an auto map/reduce
/// index (<see cref="Documents.IndexStore.GetOrCreateAutoMapReduce"/>); the query is rewritten to name the rows'
/// fields, so it compiles, filters, sorts, pages and projects like a query on a static map/reduce index.
/// A group field is named in the rows as the query names it (<c>Company</c>, <c>ShipTo.City</c>); an
/// aggregate by its function and argument (<c>Count</c>, <c>Sum(Freight)</c>); the projection gives the
/// query's own names (<c>sum(Freight) as Total</c>, or <c>Freight</c> without an alias).
/// </summary>
internal sealed class GroupByPlan
{
    private readonly Dictionary<string, GroupByField> _groupsByPath = new(StringComparer.Ordinal);
    private readonly Dictionary<string, AggregationDefinition> _aggregations = new(StringComparer.Ordinal);
    private readonly List<GroupByField> _groups = [];
    private readonly Dictionary<string, RqlField> _aliases = new(StringComparer.Ordinal);

    private GroupByPlan(string collection)
    {
        Collection = collection;
    }

    /// <summary>The collection grouped.</summary>
    public string Collection { get; }

    /// <summary>The group fields, in the query's order.</summary>
    public IReadOnlyList<GroupByField> GroupBy => _groups;

    /// <summary>Every aggregate the query names, once each, by its name in the rows.</summary>
    public IReadOnlyList<AggregationDefinition> Aggregations => [.. _aggregations.Values];

    /// <summary>The query on the rows.</summary>
    public RqlQuery Query { get; private set; } = null!;

    /// <summary>Plans <paramref name="query"/>, which has a <c>group by</c>.</summary>
    /// <exception cref="QueryException">The query cannot be answered by grouping its collection.</exception>
    public static GroupByPlan Create(RqlQuery query)
    {
        if (query.From.Collection is not { } collection)
            throw new QueryException("group by reads a collection (from Orders group by Company …); a static map/reduce index already holds groups.");
        if (query.Facets.Count > 0 || query.Suggestions.Count > 0)
            throw new QueryException("A group by query cannot also select facets or suggestions.");
        var plan = new GroupByPlan(collection);
        foreach (var field in query.GroupBy)
        {
            var whole = field.Aggregate == RqlField.ArrayFunction;
            if (field.Path is null || (field.Aggregate is not null && !whole))
                throw new QueryException($"group by takes fields, not {field}.");
            // array(Lines[].Product) is its own group, named as the query writes it.
            var key = whole ? field.ToString() : field.Path.Text;
            if (!plan._groupsByPath.ContainsKey(key))
            {
                var group = new GroupByField(whole ? key : field.Name, field.Path, whole);
                plan._groupsByPath[key] = group;
                plan._groups.Add(group);
            }
        }

        foreach (var projection in query.Select)
        {
            if (projection.Field.Aggregate is not null)
                plan._aliases.TryAdd(projection.Alias, projection.Field);
        }
        var select = new List<RqlProjection>();
        if (query.Select.Count == 0)
        {
            foreach (var group in plan._groups)
                select.Add(new RqlProjection(Row(group.Name, 0), group.Name));
        }
        foreach (var projection in query.Select)
        {
            if (projection.Field.IsKey)
                plan.AddKey(projection, select);
            else
                select.Add(new RqlProjection(plan.Rewrite(projection.Field), projection.Alias));
        }
        var orderBy = new List<RqlOrder>(query.OrderBy.Count);
        foreach (var order in query.OrderBy)
            orderBy.Add(order with { Field = order.Field is null ? null : plan.Rewrite(order.Field) });
        var where = query.Where is null ? null : plan.Rewrite(query.Where);
        plan.Query = query with { From = new RqlSource(null, null), Where = where, OrderBy = orderBy, Select = select, GroupBy = [] };
        return plan;
    }

    /// <summary>The name of an aggregate in the rows: <c>Count</c>, <c>Count(F)</c>, <c>Sum(F)</c>, <c>Min(F)</c>, <c>Max(F)</c>, <c>Average(F)</c>.</summary>
    private static string AggregateName(AggregationOp op, FieldPath? path) => path is null ? "Count" : $"{op}({path.QueryText})";

    private static RqlField Row(string name, int position) => new(FieldPath.FromSegments([new PathSegment(name)]), position);

    /// <summary>
    /// <c>key()</c> in the select: the group field under the alias given, else under its own name; of several group
    /// fields, each under its own name, as the seeds' clients read a key they did not name.
    /// </summary>
    private void AddKey(RqlProjection projection, List<RqlProjection> select)
    {
        var named = projection.Alias != RqlField.KeyText;
        if (_groups.Count == 1)
        {
            select.Add(new RqlProjection(Row(_groups[0].Name, projection.Field.Position), named ? projection.Alias : _groups[0].Name));
            return;
        }
        if (named)
            throw new QueryException($"key() of several group fields cannot be named {projection.Alias}; select the group fields by name instead.");
        foreach (var group in _groups)
            select.Add(new RqlProjection(Row(group.Name, projection.Field.Position), group.Name));
    }

    private RqlField Rewrite(RqlField field)
    {
        if (field.IsKey)
        {
            if (_groups.Count != 1)
                throw new QueryException("key() outside the select stands for one group field; this query groups by several, so name the field instead.");
            return Row(_groups[0].Name, field.Position);
        }
        if (field.Aggregate is { } function)
        {
            var op = function switch
            {
                "count" => AggregationOp.Count,
                "sum" => AggregationOp.Sum,
                "min" => AggregationOp.Min,
                "max" => AggregationOp.Max,
                "avg" => AggregationOp.Average,
                _ => throw new QueryException($"{field} is not an aggregate (count(), sum(F), min(F), max(F), avg(F))."),
            };
            var name = AggregateName(op, field.Path);
            _aggregations.TryAdd(name, new AggregationDefinition(name, op, field.Path));
            return Row(name, field.Position);
        }
        if (field.Path is not null && _groupsByPath.TryGetValue(field.Path.Text, out var group))
            return Row(group.Name, field.Position);
        // The seeds' clients order by what they selected: `order by count` for `count() as count`.
        if (field.Path is { Segments: [{ MarksArray: false } only] } && _aliases.TryGetValue(only.Name, out var aliased))
            return Rewrite(aliased);
        throw new QueryException($"A group by query can only name its group fields and aggregates (count(), sum(F), min(F), max(F), avg(F)); {field} is neither.");
    }

    private RqlExpression Rewrite(RqlExpression expression) => expression switch
    {
        RqlBinary binary => binary with { Left = Rewrite(binary.Left), Right = Rewrite(binary.Right) },
        RqlNot not => not with { Inner = Rewrite(not.Inner) },
        RqlComparison comparison => comparison with { Field = Rewrite(comparison.Field) },
        RqlBetween between => between with { Field = Rewrite(between.Field) },
        RqlIn @in => @in with { Field = Rewrite(@in.Field) },
        RqlFunction function => function with { Field = Rewrite(function.Field) },
        RqlBoost boost => boost with { Inner = Rewrite(boost.Inner) },
        RqlFuzzy fuzzy => fuzzy with { Comparison = (RqlComparison)Rewrite(fuzzy.Comparison) },
        RqlProximity proximity => proximity with { Search = (RqlFunction)Rewrite(proximity.Search) },
        RqlAllIn allIn => allIn with { Field = Rewrite(allIn.Field) },
        RqlExact exact => exact with { Inner = Rewrite(exact.Inner) },
        RqlTrue => expression,
        RqlIntersect intersect => intersect with { Parts = [.. intersect.Parts.Select(Rewrite)] },
        _ => throw new QueryException($"A group by query cannot filter with {expression}."),
    };
}
