using System.Text.Json;
using Folio.Indexing.Rql;
using Folio.Indexing.Search;

namespace Folio.Indexing.Querying;

/// <summary>The value of a query literal or <c>$parameter</c> (bound from the query's parameters object).</summary>
internal static class ParameterValues
{
    public static FieldValue Resolve(RqlValue value, JsonElement? parameters)
    {
        if (value is RqlLiteral literal)
            return FromObject(literal.Value);
        if (value is RqlCompareExchange)
            throw new QueryException("cmpxchg() can be compared with a field in where (Name = cmpxchg('key')), not used here.");
        var name = ((RqlParameter)value).Name;
        return FromJson(name, Bound(name, parameters));
    }

    /// <summary>
    /// The values an item of an <c>in</c> / <c>all in</c> list stands for: a literal or a scalar parameter is one value;
    /// a parameter bound to an array (as the seeds' system's clients send <c>in $p0</c>) is each of its items.
    /// </summary>
    public static List<FieldValue> ResolveAll(IReadOnlyList<RqlValue> values, JsonElement? parameters)
    {
        var resolved = new List<FieldValue>(values.Count);
        foreach (var value in values)
        {
            if (value is RqlParameter parameter && Bound(parameter.Name, parameters) is { ValueKind: JsonValueKind.Array } array)
            {
                foreach (var item in array.EnumerateArray())
                    resolved.Add(FromJson(parameter.Name, item));
            }
            else
            {
                resolved.Add(Resolve(value, parameters));
            }
        }
        return resolved;
    }

    private static JsonElement Bound(string name, JsonElement? parameters) =>
        parameters is { ValueKind: JsonValueKind.Object } bag && bag.TryGetProperty(name, out var json)
            ? json
            : throw new QueryException($"The query uses ${name}, but QueryParameters has no '{name}'.");

    private static FieldValue FromJson(string name, JsonElement json)
    {
        return json.ValueKind switch
        {
            JsonValueKind.String => FieldValue.From(json.GetString()!),
            JsonValueKind.Number when json.TryGetInt64(out var integer) => FieldValue.From(integer),
            JsonValueKind.Number => FieldValue.From(json.GetDouble()),
            JsonValueKind.True => FieldValue.From("true"),
            JsonValueKind.False => FieldValue.From("false"),
            JsonValueKind.Null => FieldValue.Null,
            _ => throw new QueryException($"Parameter ${name} must be a string, a number, a boolean or null (or, in an in list, an array of them)."),
        };
    }

    private static FieldValue FromObject(object? value) => value switch
    {
        null => FieldValue.Null,
        string text => FieldValue.From(text),
        long integer => FieldValue.From(integer),
        double real => FieldValue.From(real),
        bool flag => FieldValue.From(flag ? "true" : "false"),
        _ => throw new QueryException($"Unsupported literal {value}."),
    };
}
