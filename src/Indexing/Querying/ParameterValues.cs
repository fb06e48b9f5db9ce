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
        var name = ((RqlParameter)value).Name;
        if (parameters is not { ValueKind: JsonValueKind.Object } bag || !bag.TryGetProperty(name, out var json))
            throw new QueryException($"The query uses ${name}, but QueryParameters has no '{name}'.");
        return json.ValueKind switch
        {
            JsonValueKind.String => FieldValue.From(json.GetString()!),
            JsonValueKind.Number when json.TryGetInt64(out var integer) => FieldValue.From(integer),
            JsonValueKind.Number => FieldValue.From(json.GetDouble()),
            JsonValueKind.True => FieldValue.From("true"),
            JsonValueKind.False => FieldValue.From("false"),
            JsonValueKind.Null => FieldValue.Null,
            _ => throw new QueryException($"Parameter ${name} must be a string, a number, a boolean or null."),
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
