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
internal sealed partial class QueryCompiler(IndexDefinition definition, JsonElement? parameters)
{
    public Query Compile(RqlExpression? where) => where is null ? MatchAllQuery.Instance : CompileExpression(where);

    public List<SortField> Sort(IReadOnlyList<RqlOrder> orderBy)
    {
        var sort = new List<SortField>(orderBy.Count);
        foreach (var order in orderBy)
        {
            if (order.Distance is not null)
                throw new QueryException("An order by spatial.distance() is answered by running the query (not by streaming it or counting facets).");
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

    /// <summary>The paths a collection query needs an auto index to keep, exact and full-text (a path may repeat).</summary>
    public static (List<FieldPath> Exact, List<FieldPath> Search) FieldsOf(RqlQuery query)
    {
        var exact = new List<FieldPath>();
        var search = new List<FieldPath>();
        if (query.Where is not null)
            Collect(query.Where, exact, search);
        foreach (var highlight in query.Highlights)
        {
            if (highlight.Field.Path is { } path)
                search.Add(path);
        }
        foreach (var order in query.OrderBy)
        {
            if (order.Field?.Path is { } path)
                exact.Add(path);
        }
        foreach (var facet in query.Facets)
        {
            if (facet.Field.Path is { } path)
                exact.Add(path);
            // An auto index keeps every exact field's numbers in a twin, which facet aggregations read.
            foreach (var aggregation in facet.Aggregations)
            {
                if (aggregation.Field.Path is { } aggregated)
                    exact.Add(aggregated);
            }
        }
        foreach (var suggestion in query.Suggestions)
        {
            if (suggestion.Field.Path is { } path)
                exact.Add(path);
        }
        return (exact, search);
    }

    private static void Collect(RqlExpression expression, List<FieldPath> exact, List<FieldPath> search)
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
            case RqlExact caseSensitive:
                Collect(caseSensitive.Inner, exact, search);
                break;
            case RqlAllIn { Field.Path: { } allInPath }:
                exact.Add(allInPath);
                break;
            case RqlBoost boost:
                Collect(boost.Inner, exact, search);
                break;
            case RqlFuzzy fuzzy:
                Collect(fuzzy.Comparison, exact, search);
                break;
            case RqlProximity proximity:
                Collect(proximity.Search, exact, search);
                break;
            case RqlIntersect intersect:
                foreach (var part in intersect.Parts)
                    Collect(part, exact, search);
                break;
            case RqlMoreLikeThis moreLikeThis:
                // Refused before an auto index is made for it: a collection's auto index has no terms to compare.
                throw NotOnAutoIndex(moreLikeThis);
            case RqlFunction { Name: "search", Field.Path: { } path }:
                search.Add(path);
                break;
            case RqlFunction { Name: "lucene", Field.Path: { } path } lucene:
                CollectLucene(lucene, path, exact, search);
                break;
            case RqlFunction { Field.Path: { } path }:
                exact.Add(path);
                break;
            case RqlComparison { Field.Path: { } path }:
                exact.Add(path);
                break;
            case RqlBetween { Field.Path: { } path }:
                exact.Add(path);
                break;
            case RqlIn { Field.Path: { } path }:
                exact.Add(path);
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
                return Disjunction(or);
            case RqlNot not:
                return new NotQuery(CompileExpression(not.Inner));
            case RqlComparison comparison:
                return Comparison(comparison);
            case RqlBetween between:
                var low = Resolve(between.Low);
                var high = Resolve(between.High);
                return new RangeQuery(IndexField(between.Field, IsNumber(low) && IsNumber(high)), low, true, high, true);
            case RqlIn @in:
                return In(@in);
            case RqlFunction function:
                return Function(function);
            case RqlBoost boost:
                return Boost(boost);
            case RqlFuzzy fuzzy:
                return Fuzzy(fuzzy);
            case RqlProximity proximity:
                return Proximity(proximity);
            case RqlExact caseSensitive:
                return Exact(caseSensitive);
            case RqlAllIn allIn:
                return AllIn(allIn);
            case RqlTrue:
                return MatchAllQuery.Instance;
            case RqlMoreLikeThis moreLikeThis:
                return MoreLikeThis(moreLikeThis);
            case RqlIntersect intersect:
                return Intersect(intersect);
            case RqlSpatial spatial:
                return Spatial(spatial);
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

    /// <summary>
    /// <c>field in (…)</c>: one term-set query per index field its values go to (numbers and text may land in
    /// different ones), so a list of 100,000 values is one set the engine looks up term by term, not 100,000
    /// clauses merged entry by entry.
    /// </summary>
    private Query In(RqlIn @in)
    {
        var byField = new Dictionary<string, List<FieldValue>>(StringComparer.Ordinal);
        var order = new List<string>(1);
        foreach (var resolved in ParameterValues.ResolveAll(@in.Values, parameters))
        {
            var field = IndexField(@in.Field, IsNumber(resolved));
            if (!byField.TryGetValue(field, out var values))
            {
                byField.Add(field, values = []);
                order.Add(field);
            }
            values.Add(resolved);
        }
        if (order.Count == 1)
            return new TermsInQuery(order[0], byField[order[0]]);
        var sets = new List<Query>(order.Count);
        foreach (var field in order)
            sets.Add(new TermsInQuery(field, byField[field]));
        return new OrQuery(sets);
    }

    private Query Comparison(RqlComparison comparison)
    {
        var value = Resolve(comparison.Value);
        if (value.Type == FieldValueType.Null && comparison.Operator is not ("=" or "!="))
            throw new QueryException($"'{comparison.Field} {comparison.Operator} null' compares with null; use = null or != null.");
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
            "search" => Search(SearchField(function.Field), argument.Text!, function.Argument!, function.RequireAll),
            "regex" => Regex(function, argument.Text!),
            "lucene" => Lucene(function, argument.Text!),
            _ => throw new QueryException($"Unknown function {function.Name}()."),
        };
    }

    /// <summary>A search text: plain words as ever, or with fuzzy words and phrases (<see cref="SearchText"/>) any part of which may match.</summary>
    private static Query Search(string field, string text, RqlValue written, bool requireAll)
    {
        if (SearchText.Parse(text, written.Position + 1, written is RqlLiteral) is not { } parts)
            return new FullTextQuery(field, text, requireAll);
        var clauses = new List<Query>(parts.Count);
        foreach (var part in parts)
        {
            clauses.Add(part.Kind switch
            {
                SearchTextPartKind.Fuzzy => new FuzzyQuery(field, part.Text, part.Number),
                SearchTextPartKind.Phrase => new PhraseQuery(field, part.Text, part.Number),
                SearchTextPartKind.Wildcard => new WildcardQuery(field, part.Text),
                _ => new FullTextQuery(field, part.Text, requireAll),
            });
        }
        return clauses.Count == 1 ? clauses[0] : requireAll ? new AndQuery(clauses) : new OrQuery(clauses);
    }

    private BoostQuery Boost(RqlBoost boost)
    {
        var factor = Resolve(boost.Factor);
        if (!IsNumber(factor) || !(factor.Double is > 0 and <= float.MaxValue))
            throw new RqlParseException($"boost() takes a factor greater than 0, not {factor}", boost.Factor.Position);
        return new BoostQuery(CompileExpression(boost.Inner), (float)factor.Double);
    }

    /// <summary>
    /// The seeds' <c>fuzzy(F = 'value', factor)</c>: a factor below 1 is a minimum similarity, mapped to edits as Lucene
    /// maps one (<see cref="FuzzyQuery.EditsOfFactor"/>); a whole number from 0 to 2 is the edits themselves.
    /// </summary>
    private FuzzyQuery Fuzzy(RqlFuzzy fuzzy)
    {
        var value = Resolve(fuzzy.Comparison.Value);
        if (value.Type != FieldValueType.String)
            throw new RqlParseException($"fuzzy() compares with a string, not {value}", fuzzy.Comparison.Value.Position);
        var factor = Resolve(fuzzy.Factor);
        var number = IsNumber(factor) ? factor.Double : double.NaN;
        int edits;
        if (number is > 0 and < 1)
            edits = FuzzyQuery.EditsOfFactor(number, value.Text!.EnumerateRunes().Count());
        else if (number is 0 or 1 or 2)
            edits = (int)number;
        else
            throw new RqlParseException($"fuzzy() takes a similarity between 0 and 1 or a number of edits from 0 to 2, not {factor}", fuzzy.Factor.Position);
        return new FuzzyQuery(IndexField(fuzzy.Comparison.Field, numeric: false), value.Text!, edits);
    }

    /// <summary>The seeds' <c>proximity(search(F, 'words'), slop)</c>: the words as a phrase within the slop.</summary>
    private PhraseQuery Proximity(RqlProximity proximity)
    {
        var slop = Resolve(proximity.Slop);
        if (slop.Type != FieldValueType.Long || slop.Long is < 0 or > int.MaxValue)
            throw new RqlParseException($"proximity() takes a slop that is a whole number of 0 or more, not {slop}", proximity.Slop.Position);
        var text = Resolve(proximity.Search.Argument!);
        if (text.Type != FieldValueType.String)
            throw new QueryException("The second argument of search() must be a string.");
        if (SearchText.Parse(text.Text!, proximity.Search.Argument!.Position + 1, proximity.Search.Argument is RqlLiteral) is not null)
            throw new RqlParseException("proximity() takes a search() of plain words, without '~', '*' or quotes", proximity.Search.Argument.Position);
        return new PhraseQuery(SearchField(proximity.Search.Field), text.Text!, (int)slop.Long);
    }

    /// <summary>The full-text index field <c>search()</c> on <paramref name="field"/> reads; throws when the index has none.</summary>
    public string SearchField(RqlField field)
    {
        if (field.Path is null)
            throw new QueryException("search() needs a full-text field, not id().");
        return TrySearchField(field, out var name)
            ? name
            : throw new QueryException($"search() needs a full-text field; '{field.Name}' of index '{definition.Name}' is not one (set \"Search\": true).");
    }

    /// <summary>The full-text index field of <paramref name="field"/>, when the index has one.</summary>
    private bool TrySearchField(RqlField field, out string name)
    {
        name = "";
        if (field.Path is null)
            return false;
        if (definition.IsAuto && definition.Reduce is null)
            name = AutoIndexNaming.SearchFieldName(field.Path);
        else if (definition.Fields.TryGetValue(field.Name, out var defined) && defined.Search)
            name = field.Name;
        // A map/reduce index's group fields are exact, each with a full-text twin.
        else if (definition.Fields.ContainsKey(IndexDefinition.SearchTwinName(field.Name)))
            name = IndexDefinition.SearchTwinName(field.Name);
        return name.Length > 0;
    }

    /// <summary>
    /// The index field a condition, a sort key or a facet on <paramref name="field"/> reads. An auto index
    /// keeps each path under <see cref="AutoIndexNaming.FieldName"/>, and a numeric twin read when the value
    /// is a number; a static index's fields are named by their definition, so the field's
    /// <see cref="RqlField.Name"/> picks one (<c>'Major Genre'</c> is the field named <c>Major Genre</c>).
    /// </summary>
    public string IndexField(RqlField field, bool numeric)
    {
        if (field.Path is null)
            return IndexDefinition.IdField;
        if (_exactAt is { } exactAt && !numeric)
            return CaseSensitiveField(field, exactAt);
        if (definition.IsAuto && definition.Reduce is null)
        {
            var name = AutoIndexNaming.FieldName(field.Path);
            return numeric ? name + IndexDefinition.NumericSuffix : name;
        }
        if (!definition.Fields.TryGetValue(field.Name, out var defined))
            throw new QueryException($"Index '{definition.Name}' has no field '{field.Name}'.");
        // Fields of type Auto (a map/reduce index's group fields) keep their numbers in a twin too.
        return numeric && defined.Type == IndexFieldType.Auto ? field.Name + IndexDefinition.NumericSuffix : field.Name;
    }

    private static bool IsNumber(FieldValue value) => value.Type is FieldValueType.Long or FieldValueType.Double;

    public FieldValue Resolve(RqlValue value) => ParameterValues.Resolve(value, parameters);

    /// <summary>The query's parameters, for values that are more than a field value (a facet's options object).</summary>
    public JsonElement? Parameters => parameters;

    /// <summary>
    /// The index field whose numbers an aggregation of <paramref name="field"/> reads: an auto index's (and a map/reduce
    /// group field's) numeric twin, or a static field declared Long or Double. A field of text has no numbers to add.
    /// </summary>
    public string NumericIndexField(RqlField field, string what)
    {
        if (field.Path is null)
            throw new QueryException($"{what} aggregates a field's numbers, not id().");
        if (definition.IsAuto)
            return IndexField(field, numeric: true);
        var name = IndexField(field, numeric: false);
        return definition.Fields[name].Type switch
        {
            IndexFieldType.Long or IndexFieldType.Double => name,
            IndexFieldType.Auto => name + IndexDefinition.NumericSuffix,
            _ => throw new QueryException($"{what} needs numbers, but the field '{field.Name}' of index '{definition.Name}' holds text; declare it \"Type\": \"Double\" (or Long)."),
        };
    }
}
