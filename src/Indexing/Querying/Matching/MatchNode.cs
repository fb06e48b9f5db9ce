using System.Text.Json;
using Folio.Indexing.Rql;
using Folio.Indexing.Search;

namespace Folio.Indexing.Querying.Matching;

/// <summary>A compiled condition of <see cref="DocumentMatcher"/>, with its literals and parameters resolved once.</summary>
internal abstract class MatchNode
{
    public abstract bool Matches(string id, JsonElement document);

    public static MatchNode Compile(RqlExpression expression, JsonElement? parameters) => expression switch
    {
        RqlBinary { IsAnd: true } and => new All(Compile(and.Left, parameters), Compile(and.Right, parameters)),
        RqlBinary or => new Any(Compile(or.Left, parameters), Compile(or.Right, parameters)),
        RqlNot not => new Not(Compile(not.Inner, parameters)),
        RqlComparison comparison => Comparison(comparison, parameters),
        RqlBetween between => new ValueTest(between.Field, ValueCondition.Between(ParameterValues.Resolve(between.Low, parameters), ParameterValues.Resolve(between.High, parameters))),
        RqlIn @in => new ValueTest(@in.Field, ValueCondition.OneOf([.. ParameterValues.ResolveAll(@in.Values, parameters)])),
        RqlFunction function => Function(function, parameters),
        // A boost changes scores, and a subscription's matches have none: it matches what its condition matches.
        RqlBoost boost => Compile(boost.Inner, parameters),
        RqlTrue => new Always(),
        RqlAllIn allIn => AllOf(allIn, parameters),
        RqlExact => throw new QueryException("exact() needs an index that keeps text case-sensitively; a subscription's query or a filter, checked without an index, compares text ignoring case."),
        // A document is one entry: matching each part of an intersection is matching them all.
        RqlIntersect intersect => intersect.Parts.Skip(1).Aggregate(Compile(intersect.Parts[0], parameters), (all, part) => new All(all, Compile(part, parameters))),
        RqlMoreLikeThis => throw new QueryException("morelikethis() needs a static index with full-text fields; a subscription's query or a filter, checked without an index, can use =, ranges, in, between, exists(), startsWith() and endsWith()."),
        RqlFuzzy or RqlProximity => throw new QueryException("fuzzy() and proximity() need a full-text index; a subscription's query or a filter, checked without an index, can use =, ranges, in, between, exists(), startsWith() and endsWith()."),
        _ => throw new QueryException($"Unsupported condition {expression}."),
    };

    private static MatchNode Comparison(RqlComparison comparison, JsonElement? parameters)
    {
        FieldValue value = ParameterValues.Resolve(comparison.Value, parameters);
        if (value.Type == FieldValueType.Null && comparison.Operator is not ("=" or "!="))
            throw new QueryException($"'{comparison.Field} {comparison.Operator} null' compares with null; use = null or != null.");
        return comparison.Operator switch
        {
            "=" => new ValueTest(comparison.Field, ValueCondition.EqualTo(value)),
            "!=" => new Not(new ValueTest(comparison.Field, ValueCondition.EqualTo(value))),
            "<" => new ValueTest(comparison.Field, ValueCondition.Range(null, false, value, false)),
            "<=" => new ValueTest(comparison.Field, ValueCondition.Range(null, false, value, true)),
            ">" => new ValueTest(comparison.Field, ValueCondition.Range(value, false, null, false)),
            ">=" => new ValueTest(comparison.Field, ValueCondition.Range(value, true, null, false)),
            _ => throw new QueryException($"Unknown operator '{comparison.Operator}'."),
        };
    }

    private static MatchNode Function(RqlFunction function, JsonElement? parameters)
    {
        FieldValue argument = function.Argument is null ? default : ParameterValues.Resolve(function.Argument, parameters);
        if (function.Argument is not null && argument.Type != FieldValueType.String)
            throw new QueryException($"The second argument of {function.Name}() must be a string.");
        return function.Name switch
        {
            "exists" => new ValueTest(function.Field, ValueCondition.Present),
            "startswith" => new ValueTest(function.Field, ValueCondition.StartsWith(argument.Text!)),
            "endswith" => new ValueTest(function.Field, ValueCondition.EndsWith(argument.Text!)),
            "regex" => throw new QueryException("regex() needs an index; a subscription's query or a filter, checked without an index, can use =, ranges, in, all in, between, exists(), startsWith() and endsWith()."),
            "search" or "lucene" => throw new QueryException($"{function.Name}() needs a full-text index; a subscription's query or a filter, checked without an index, can use =, ranges, in, between, exists(), startsWith() and endsWith()."),
            _ => throw new QueryException($"Unknown function {function.Name}()."),
        };
    }

    /// <summary><c>F all in (a, b)</c>: a value equal to each of them (an empty list asks nothing).</summary>
    private static MatchNode AllOf(RqlAllIn allIn, JsonElement? parameters)
    {
        MatchNode node = new Always();
        foreach (FieldValue value in ParameterValues.ResolveAll(allIn.Values, parameters))
            node = new All(node, new ValueTest(allIn.Field, ValueCondition.EqualTo(value)));
        return node;
    }

    private sealed class Always : MatchNode
    {
        public override bool Matches(string id, JsonElement document) => true;
    }

    /// <summary>Matches no document: the condition of a query that no longer compiles, kept so that it can be redefined.</summary>
    internal sealed class Never : MatchNode
    {
        public override bool Matches(string id, JsonElement document) => false;
    }

    private sealed class All(MatchNode left, MatchNode right) : MatchNode
    {
        public override bool Matches(string id, JsonElement document) => left.Matches(id, document) && right.Matches(id, document);
    }

    private sealed class Any(MatchNode left, MatchNode right) : MatchNode
    {
        public override bool Matches(string id, JsonElement document) => left.Matches(id, document) || right.Matches(id, document);
    }

    private sealed class Not(MatchNode inner) : MatchNode
    {
        public override bool Matches(string id, JsonElement document) => !inner.Matches(id, document);
    }

    /// <summary>A condition on the values at a path (or the id): true when any value meets it.</summary>
    private sealed class ValueTest(RqlField field, ValueCondition condition) : MatchNode
    {
        public override bool Matches(string id, JsonElement document)
        {
            if (field.Path is null)
                return condition.MeetsId(id);
            foreach (JsonElement value in field.Path.Values(document))
            {
                if (condition.Meets(value))
                    return true;
            }

            return false;
        }
    }
}
