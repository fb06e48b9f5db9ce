using System.Globalization;
using System.Text;
using System.Text.Json;

namespace Folio.Server.Tests.Rql;

/// <summary>
/// One query of the documentation-parity suite: where in the seeds' documentation it comes from, its RQL (written for the
/// <see cref="Northwind"/> data set), its parameters, and the oracle's answer computed from the generated objects.
/// <see cref="Pending"/> names the branch building the feature when Folio refuses the query today.
/// </summary>
public sealed record ParityCase(string Topic, string Rql, Func<Northwind, ParityAnswer> Oracle)
{
    /// <summary>The query's parameters (serialized as QueryParameters), or null.</summary>
    public object? Parameters { get; init; }

    /// <summary>The branch (or work) expected to make Folio accept the query, when it refuses it today.</summary>
    public string? Pending { get; init; }

    /// <summary>
    /// A set-based patch (<c>update { … }</c>): instead of <see cref="Oracle"/>'s answer, the collection and field it changes
    /// and each document's expected value of that field afterwards (canonical JSON; absent ids keep no field).
    /// </summary>
    public Func<Northwind, ParityPatch>? Patch { get; init; }
}

/// <summary>What a patch is expected to leave: per document of <paramref name="Collection"/>, the canonical value of <paramref name="Field"/>.</summary>
public sealed record ParityPatch(string Collection, string Field, Dictionary<string, string> Expected);

/// <summary>How an answer is compared: the ids of the results, their projected rows, or the facets.</summary>
public enum ParityShape
{
    Ids,
    Rows,
    Facets,
}

/// <summary>
/// An answer reduced to comparable items (lower-cased ids, canonical JSON rows, facet values), in order when the query
/// orders them, with the included documents' ids when the query includes some.
/// </summary>
public sealed record ParityAnswer(ParityShape Shape, List<string> Items, bool Ordered)
{
    /// <summary>The ids the answer's Includes must hold exactly (null: not checked).</summary>
    public List<string>? Includes { get; init; }

    public static ParityAnswer Ids(IEnumerable<string> ids) => new(ParityShape.Ids, [.. ids.Select(Lower)], false);

    public static ParityAnswer OrderedIds(IEnumerable<string> ids) => new(ParityShape.Ids, [.. ids.Select(Lower)], true);

    public static ParityAnswer Rows(IEnumerable<object> rows) => new(ParityShape.Rows, [.. rows.Select(Canonical.Of)], false);

    public static ParityAnswer OrderedRows(IEnumerable<object> rows) => new(ParityShape.Rows, [.. rows.Select(Canonical.Of)], true);

    /// <summary>A facet answer: per facet name, its values as (range, count) and optionally more properties.</summary>
    public static ParityAnswer FacetValues(IEnumerable<(string Facet, string Range, int Count)> values) =>
        new(ParityShape.Facets, [.. values.Select(v => $"{v.Facet}|{v.Range}|{v.Count.ToString(CultureInfo.InvariantCulture)}")], false);

    private static string Lower(string id) => id.ToLowerInvariant();

    /// <summary>Whether <paramref name="actual"/> is this answer; <paramref name="difference"/> says how it is not.</summary>
    public bool Matches(ParityAnswer actual, out string difference)
    {
        var expected = Ordered ? Items : [.. Items.Order(StringComparer.Ordinal)];
        var got = Ordered ? actual.Items : [.. actual.Items.Order(StringComparer.Ordinal)];
        difference = "";
        if (!expected.SequenceEqual(got))
        {
            var missing = expected.Except(got).Take(3).ToList();
            var extra = got.Except(expected).Take(3).ToList();
            difference = $"expected {expected.Count} items, got {got.Count}; missing [{string.Join(", ", missing)}], unexpected [{string.Join(", ", extra)}]"
                + (missing.Count == 0 && extra.Count == 0 ? $"; order differs: expected [{string.Join(", ", expected.Take(6))}…], got [{string.Join(", ", got.Take(6))}…]" : "");
            return false;
        }
        if (Includes is not null && !Includes.Select(Lower).Order(StringComparer.Ordinal).SequenceEqual((actual.Includes ?? []).Order(StringComparer.Ordinal)))
        {
            difference = $"includes: expected [{string.Join(", ", Includes)}], got [{string.Join(", ", actual.Includes ?? [])}]";
            return false;
        }
        return true;
    }
}

/// <summary>Canonical JSON: object properties sorted by name, numbers as doubles in round-trip form, <c>@metadata</c> left out.</summary>
public static class Canonical
{
    public static string Of(object value) => Of(JsonSerializer.SerializeToElement(value));

    public static string Of(JsonElement element)
    {
        var builder = new StringBuilder();
        Write(element, builder);
        return builder.ToString();
    }

    private static void Write(JsonElement element, StringBuilder builder)
    {
        switch (element.ValueKind)
        {
            case JsonValueKind.Object:
                builder.Append('{');
                var first = true;
                foreach (var property in element.EnumerateObject().Where(p => p.Name != "@metadata").OrderBy(p => p.Name, StringComparer.Ordinal))
                {
                    if (!first)
                        builder.Append(',');
                    first = false;
                    builder.Append(JsonSerializer.Serialize(property.Name)).Append(':');
                    Write(property.Value, builder);
                }
                builder.Append('}');
                break;
            case JsonValueKind.Array:
                builder.Append('[');
                var index = 0;
                foreach (var item in element.EnumerateArray())
                {
                    if (index++ > 0)
                        builder.Append(',');
                    Write(item, builder);
                }
                builder.Append(']');
                break;
            case JsonValueKind.Number:
                builder.Append(element.GetDouble().ToString("R", CultureInfo.InvariantCulture));
                break;
            default:
                builder.Append(element.GetRawText());
                break;
        }
    }
}
