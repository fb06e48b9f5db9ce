using System.Text.Json;
using Folio.Indexing.Rql;
using Folio.Storage.Documents;

namespace Folio.Indexing.Querying;

/// <summary>
/// Reads the <c>cmpxchg(key)</c> values of a where clause from the store, once per run, so the query compares
/// fields with the entries as they are when it runs; and collects the entries <c>include cmpxchg('Path')</c> names.
/// </summary>
internal static class CompareExchangeValues
{
    /// <summary>The query with each <c>cmpxchg(key)</c> of its where clause replaced by the entry's <c>Object</c>.</summary>
    public static RqlQuery Resolve(RqlQuery query, DocumentStore store, JsonElement? parameters)
    {
        if (!query.UsesCompareExchange || query.Where is null)
            return query;
        using var reader = store.OpenReader();
        return query with { Where = Rewrite(query.Where, reader, parameters) };
    }

    /// <summary>Adds the entries whose keys the include paths give in <paramref name="document"/> (missing keys are left out).</summary>
    public static void AddIncludes(RqlQuery query, DocumentReader reader, JsonElement document, QueryResult result)
    {
        foreach (var path in query.CompareExchangeIncludes)
        {
            foreach (var value in path.Values(document))
            {
                if (value.ValueKind != JsonValueKind.String || value.GetString() is not { Length: > 0 } key || result.CompareExchangeIncludes.ContainsKey(key))
                    continue;
                if (reader.TryGetCompareExchange(key, out var entry))
                    result.IncludeCompareExchange(key, entry!);
            }
        }
    }

    private static RqlExpression Rewrite(RqlExpression expression, DocumentReader reader, JsonElement? parameters) => expression switch
    {
        RqlBinary binary => binary with { Left = Rewrite(binary.Left, reader, parameters), Right = Rewrite(binary.Right, reader, parameters) },
        RqlNot not => not with { Inner = Rewrite(not.Inner, reader, parameters) },
        RqlExact exact => exact with { Inner = Rewrite(exact.Inner, reader, parameters) },
        RqlBoost boost => boost with { Inner = Rewrite(boost.Inner, reader, parameters) },
        RqlComparison comparison => comparison with { Value = Value(comparison.Value, reader, parameters) },
        RqlBetween between => between with { Low = Value(between.Low, reader, parameters), High = Value(between.High, reader, parameters) },
        RqlIn list => list with { Values = Values(list.Values, reader, parameters) },
        RqlAllIn all => all with { Values = Values(all.Values, reader, parameters) },
        _ => expression,
    };

    private static List<RqlValue> Values(IReadOnlyList<RqlValue> values, DocumentReader reader, JsonElement? parameters)
    {
        var resolved = new List<RqlValue>(values.Count);
        foreach (var value in values)
            resolved.Add(Value(value, reader, parameters));
        return resolved;
    }

    private static RqlValue Value(RqlValue value, DocumentReader reader, JsonElement? parameters)
    {
        if (value is not RqlCompareExchange call)
            return value;
        var key = Key(call.Key, parameters);
        if (!reader.TryGetCompareExchange(key, out var entry))
            return new RqlLiteral(null, call.Position);
        using var json = JsonDocument.Parse(entry!.Json);
        if (!json.RootElement.TryGetProperty("Object", out var stored))
            return new RqlLiteral(null, call.Position);
        object? literal = stored.ValueKind switch
        {
            JsonValueKind.String => stored.GetString(),
            JsonValueKind.Number when stored.TryGetInt64(out var integer) => integer,
            JsonValueKind.Number => stored.GetDouble(),
            JsonValueKind.True => true,
            JsonValueKind.False => false,
            JsonValueKind.Null => null,
            _ => throw new QueryException($"cmpxchg('{key}') holds an object or an array; a field can be compared only with a string, a number, a boolean or null."),
        };
        return new RqlLiteral(literal, call.Position);
    }

    private static string Key(RqlValue key, JsonElement? parameters)
    {
        if (key is RqlLiteral { Value: string text })
            return text;
        var name = ((RqlParameter)key).Name;
        if (parameters is { ValueKind: JsonValueKind.Object } bag && bag.TryGetProperty(name, out var bound) && bound.ValueKind == JsonValueKind.String)
            return bound.GetString()!;
        throw new QueryException($"cmpxchg(${name}) needs QueryParameters.{name} to be a string (the key).");
    }
}
