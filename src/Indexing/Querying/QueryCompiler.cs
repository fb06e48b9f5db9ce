using System.Text.Json;
using Folio.Indexing.Collectors;
using Folio.Indexing.Definitions;
using Folio.Indexing.Documents;
using Folio.Indexing.Queries;
using Folio.Indexing.Rql;
using Folio.Indexing.Search;

namespace Folio.Indexing.Querying;

/// <summary>
/// Turns a parsed where clause and order by into the search engine's queries and sort keys for one
/// index. On an auto index every field is kept twice: as exact text and, when numeric, as a number,
/// so a comparison with a number compares numerically and one with a string compares as text.
/// </summary>
internal sealed class QueryCompiler(IndexDefinition definition, IndexSchema schema, JsonElement? parameters)
{
    public Query Compile(RqlExpression? where) => where is null ? MatchAllQuery.Instance : CompileExpression(where);

    public List<SortField> Sort(IReadOnlyList<RqlOrder> orderBy)
    {
        var sort = new List<SortField>(orderBy.Count);
        foreach (var order in orderBy)
        {
            if (order.Field is null)
            {
                sort.Add(order.Descending ? SortField.Score : new SortField(null, Descending: false));
                continue;
            }
            var numeric = order.Type is RqlOrderType.Long or RqlOrderType.Double;
            sort.Add(new SortField(IndexField(order.Field, numeric), order.Descending));
        }
        return sort;
    }

    /// <summary>The fields (exact and full-text) a collection query needs an auto index to have.</summary>
    public static (SortedSet<string> Exact, SortedSet<string> Search) FieldsOf(RqlQuery query)
    {
        var exact = new SortedSet<string>(StringComparer.Ordinal);
        var search = new SortedSet<string>(StringComparer.Ordinal);
        if (query.Where is not null)
            Collect(query.Where, exact, search);
        foreach (var order in query.OrderBy)
        {
            if (order.Field is { IsId: false } field)
                exact.Add(field.Path);
        }
        foreach (var facet in query.Facets)
            exact.Add(facet.Field.Path);
        return (exact, search);
    }

    private static void Collect(RqlExpression expression, SortedSet<string> exact, SortedSet<string> search)
    {
        switch (expression)
        {
            case RqlBinary binary:
                Collect(binary.Left, exact, search);
                Collect(binary.Right, exact, search);
                break;
            case RqlNot not:
                Collect(not.Inner, exact, search);
                break;
            case RqlFunction { Name: "search" } function:
                search.Add(function.Field.Path);
                break;
            case RqlFunction function when !function.Field.IsId:
                exact.Add(function.Field.Path);
                break;
            case RqlComparison { Field.IsId: false } comparison:
                exact.Add(comparison.Field.Path);
                break;
            case RqlBetween { Field.IsId: false } between:
                exact.Add(between.Field.Path);
                break;
            case RqlIn { Field.IsId: false } @in:
                exact.Add(@in.Field.Path);
                break;
        }
    }

    private Query CompileExpression(RqlExpression expression)
    {
        switch (expression)
        {
            case RqlBinary { IsAnd: true }:
                var must = new List<Query>();
                var mustNot = new List<Query>();
                Flatten(expression, must, mustNot);
                return new AndQuery(must, mustNot);
            case RqlBinary or:
                return new OrQuery([CompileExpression(or.Left), CompileExpression(or.Right)]);
            case RqlNot not:
                return new NotQuery(CompileExpression(not.Inner));
            case RqlComparison comparison:
                return Comparison(comparison);
            case RqlBetween between:
                var low = Resolve(between.Low);
                var high = Resolve(between.High);
                return new RangeQuery(IndexField(between.Field, IsNumber(low) && IsNumber(high)), low, true, high, true);
            case RqlIn @in:
                var values = new List<Query>(@in.Values.Count);
                foreach (var value in @in.Values)
                {
                    var resolved = Resolve(value);
                    values.Add(new TermQuery(IndexField(@in.Field, IsNumber(resolved)), resolved));
                }
                return new OrQuery(values);
            case RqlFunction function:
                return Function(function);
            default:
                throw new QueryException($"Unsupported condition {expression}.");
        }
    }

    private void Flatten(RqlExpression expression, List<Query> must, List<Query> mustNot)
    {
        if (expression is RqlBinary { IsAnd: true } and)
        {
            Flatten(and.Left, must, mustNot);
            Flatten(and.Right, must, mustNot);
        }
        else if (expression is RqlNot not)
        {
            mustNot.Add(CompileExpression(not.Inner));
        }
        else
        {
            must.Add(CompileExpression(expression));
        }
    }

    private Query Comparison(RqlComparison comparison)
    {
        var value = Resolve(comparison.Value);
        if (value.Type == FieldValueType.Null && comparison.Operator is not ("=" or "!="))
            throw new QueryException($"'{comparison.Field.Path} {comparison.Operator} null' compares with null; use = null or != null.");
        var field = IndexField(comparison.Field, IsNumber(value));
        return comparison.Operator switch
        {
            "=" => new TermQuery(field, value),
            "!=" => new NotQuery(new TermQuery(field, value)),
            "<" => new RangeQuery(field, null, false, value, false),
            "<=" => new RangeQuery(field, null, false, value, true),
            ">" => new RangeQuery(field, value, false, null, false),
            ">=" => new RangeQuery(field, value, true, null, false),
            _ => throw new QueryException($"Unknown operator '{comparison.Operator}'."),
        };
    }

    private Query Function(RqlFunction function)
    {
        var argument = function.Argument is null ? default : Resolve(function.Argument);
        if (function.Argument is not null && argument.Type != FieldValueType.String)
            throw new QueryException($"The second argument of {function.Name}() must be a string.");
        return function.Name switch
        {
            "exists" => new ExistsQuery(IndexField(function.Field, numeric: false)),
            "startswith" => new PrefixQuery(IndexField(function.Field, numeric: false), argument.Text!),
            "endswith" => new WildcardQuery(IndexField(function.Field, numeric: false), "*" + argument.Text!.Replace("*", "", StringComparison.Ordinal)),
            "search" => new FullTextQuery(SearchField(function.Field), argument.Text!),
            _ => throw new QueryException($"Unknown function {function.Name}()."),
        };
    }

    private string SearchField(RqlField field)
    {
        if (definition.IsAuto)
            return IndexStore.SearchFieldName(field.Path);
        if (definition.Fields.TryGetValue(field.Path, out var defined) && defined.Search)
            return field.Path;
        // A map/reduce index's group fields are exact, each with a full-text twin.
        if (schema.Fields.ContainsKey(IndexDefinition.SearchTwinName(field.Path)))
            return IndexDefinition.SearchTwinName(field.Path);
        throw new QueryException($"search() needs a full-text field; '{field.Path}' of index '{definition.Name}' is not one (set \"Search\": true).");
    }

    /// <summary>The index field a condition on <paramref name="field"/> reads: the numeric twin on auto indexes when the value is a number.</summary>
    private string IndexField(RqlField field, bool numeric)
    {
        if (field.IsId)
            return IndexDefinition.IdField;
        if (definition.IsAuto)
            return numeric ? field.Path + IndexDefinition.NumericSuffix : field.Path;
        if (!schema.Fields.ContainsKey(field.Path))
            throw new QueryException($"Index '{definition.Name}' has no field '{field.Path}'.");
        return numeric && HasNumericTwin(field.Path) ? field.Path + IndexDefinition.NumericSuffix : field.Path;
    }

    /// <summary>Whether <paramref name="field"/> keeps its numbers in a twin too (auto indexes' fields, map/reduce group fields), which numeric conditions, sorts and ranges read.</summary>
    public bool HasNumericTwin(string field) => definition.IsAuto || schema.Fields.ContainsKey(field + IndexDefinition.NumericSuffix);

    private static bool IsNumber(FieldValue value) => value.Type is FieldValueType.Long or FieldValueType.Double;

    public FieldValue Resolve(RqlValue value) => ParameterValues.Resolve(value, parameters);
}
