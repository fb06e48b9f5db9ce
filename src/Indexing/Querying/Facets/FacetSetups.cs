using System.Text.Json;
using Folio.Indexing.Definitions;
using Folio.Indexing.Rql;
using Folio.Indexing.Search;
using Folio.Storage.Documents;

namespace Folio.Indexing.Querying;

/// <summary>
/// Stored facet setups: <c>select facet(id('facets/ProductSearch'))</c> runs the facets a document lists, in the
/// seeds' system's <c>FacetSetup</c> shape:
/// <code>
/// {"Facets":[{"FieldName":"Brand","DisplayFieldName":"Brands","Options":{"PageSize":10},
///             "Aggregations":{"Sum":[{"Name":"Price","DisplayName":"Revenue"}],"Max":"Price"}}],
///  "RangeFacets":[{"Ranges":["Price &lt; 200","Price between 200 and 600","Price &gt;= 600"],"Aggregations":{…}}]}
/// </code>
/// A facet's <c>FieldName</c> reads as a definition path (<c>Address.City</c>, <c>'Major Genre'</c>), or, when it is
/// none, as one property (<c>Major Genre</c>); a range is written as in RQL. Aggregations map <c>Sum</c>, <c>Min</c>,
/// <c>Max</c> and <c>Average</c> to a field name, a list of them, or a list of <c>{"Name","DisplayName"}</c>. The
/// document is read at each query, from the snapshot the query reads, so an edited setup counts at once.
/// </summary>
internal static class FacetSetups
{
    /// <summary><paramref name="query"/> with each setup facet replaced by the facets its document lists (the query itself when it names none).</summary>
    public static RqlQuery Expand(RqlQuery query, DocumentStore store, JsonElement? parameters)
    {
        var any = false;
        foreach (var facet in query.Facets)
            any |= facet.SetupId is not null;
        if (!any)
            return query;
        var facets = new List<RqlFacet>();
        using var reader = store.OpenReader();
        foreach (var facet in query.Facets)
        {
            if (facet.SetupId is not { } setup)
            {
                facets.Add(facet);
                continue;
            }
            var id = ParameterValues.Resolve(setup, parameters);
            if (id.Type != FieldValueType.String)
                throw new QueryException($"The id in {facet.Text} must be a string.");
            if (!reader.TryGet(id.Text!, out var document))
                throw new QueryException($"There is no facet setup document '{id.Text}' (named by {facet.Text}).");
            using var json = JsonDocument.Parse(document.Json.ToArray());
            Read(json.RootElement, id.Text!, facets);
        }
        return query with { Facets = facets };
    }

    private static void Read(JsonElement setup, string id, List<RqlFacet> facets)
    {
        var before = facets.Count;
        if (setup.TryGetProperty("Facets", out var terms) && terms.ValueKind != JsonValueKind.Null)
        {
            foreach (var facet in Array(terms, "Facets", id))
            {
                var name = facet.TryGetProperty("FieldName", out var field) && field.ValueKind == JsonValueKind.String ? field.GetString() : null;
                if (string.IsNullOrEmpty(name))
                    throw new QueryException($"A facet of the setup '{id}' has no FieldName.");
                var text = $"the facet {name} of the setup '{id}'";
                facets.Add(new RqlFacet(new RqlField(PathOf(name), 0), [], text) with
                {
                    Aggregations = Aggregations(facet, text),
                    Options = Options(facet),
                    Alias = DisplayName(facet),
                });
            }
        }
        if (setup.TryGetProperty("RangeFacets", out var rangeFacets) && rangeFacets.ValueKind != JsonValueKind.Null)
        {
            foreach (var facet in Array(rangeFacets, "RangeFacets", id))
            {
                var ranges = new List<string>();
                if (facet.TryGetProperty("Ranges", out var list) && list.ValueKind == JsonValueKind.Array)
                {
                    foreach (var range in list.EnumerateArray())
                        ranges.Add(range.ValueKind == JsonValueKind.String ? range.GetString()! : throw new QueryException($"The ranges of a range facet of the setup '{id}' must be strings like \"Price < 200\"."));
                }
                RqlFacet parsed;
                try
                {
                    parsed = RqlParser.ParseFacetRanges(ranges);
                }
                catch (RqlParseException e)
                {
                    throw new QueryException($"A range facet of the setup '{id}': {e.Message}.");
                }
                var text = $"the range facet on {parsed.Field} of the setup '{id}'";
                facets.Add(parsed with { Text = text, Aggregations = Aggregations(facet, text), Options = Options(facet), Alias = DisplayName(facet) });
            }
        }
        if (facets.Count == before)
            throw new QueryException($"The facet setup '{id}' lists no facets (it needs \"Facets\" or \"RangeFacets\").");
    }

    private static JsonElement.ArrayEnumerator Array(JsonElement value, string name, string id) =>
        value.ValueKind == JsonValueKind.Array ? value.EnumerateArray() : throw new QueryException($"{name} of the facet setup '{id}' must be an array.");

    /// <summary>A field name as a path where it reads as one, else as a single property (<c>Major Genre</c>).</summary>
    private static FieldPath PathOf(string name)
    {
        try
        {
            return FieldPath.Parse(name);
        }
        catch (FieldPathException)
        {
            return FieldPath.FromSegments([new PathSegment(name)]);
        }
    }

    private static string? DisplayName(JsonElement facet) =>
        facet.TryGetProperty("DisplayFieldName", out var display) && display.ValueKind == JsonValueKind.String ? display.GetString() : null;

    /// <summary>The options object, kept as a literal that <see cref="FacetPlan"/> reads as it reads a parameter's.</summary>
    private static RqlValue? Options(JsonElement facet) =>
        facet.TryGetProperty("Options", out var options) && options.ValueKind != JsonValueKind.Null ? new RqlLiteral(options.Clone(), 0) : null;

    private static List<RqlFacetAggregation> Aggregations(JsonElement facet, string text)
    {
        var aggregations = new List<RqlFacetAggregation>();
        if (!facet.TryGetProperty("Aggregations", out var map) || map.ValueKind == JsonValueKind.Null)
            return aggregations;
        if (map.ValueKind != JsonValueKind.Object)
            throw new QueryException($"The Aggregations of {text} must be an object like {{\"Sum\":\"Price\"}}.");
        foreach (var entry in map.EnumerateObject())
        {
            var op = entry.Name.ToLowerInvariant() switch
            {
                "sum" => RqlFacetAggregationOp.Sum,
                "min" => RqlFacetAggregationOp.Min,
                "max" => RqlFacetAggregationOp.Max,
                "average" or "avg" => RqlFacetAggregationOp.Average,
                _ => throw new QueryException($"The Aggregations of {text} name '{entry.Name}'; the aggregations are Sum, Min, Max and Average."),
            };
            if (entry.Value.ValueKind == JsonValueKind.Array)
            {
                foreach (var item in entry.Value.EnumerateArray())
                    aggregations.Add(Aggregation(op, item, text));
            }
            else
            {
                aggregations.Add(Aggregation(op, entry.Value, text));
            }
        }
        return aggregations;
    }

    /// <summary>One aggregated field: its name, or <c>{"Name","DisplayName"}</c>.</summary>
    private static RqlFacetAggregation Aggregation(RqlFacetAggregationOp op, JsonElement item, string text)
    {
        string? name = null, display = null;
        if (item.ValueKind == JsonValueKind.String)
        {
            name = item.GetString();
        }
        else if (item.ValueKind == JsonValueKind.Object)
        {
            name = item.TryGetProperty("Name", out var n) && n.ValueKind == JsonValueKind.String ? n.GetString() : null;
            display = item.TryGetProperty("DisplayName", out var d) && d.ValueKind == JsonValueKind.String ? d.GetString() : null;
        }
        if (string.IsNullOrEmpty(name))
            throw new QueryException($"An aggregation of {text} names no field; write \"Sum\": \"Price\" or \"Sum\": [{{\"Name\": \"Price\"}}].");
        return new RqlFacetAggregation(op, new RqlField(PathOf(name), 0), display);
    }
}
