using System.Text.Json;

namespace Folio.Indexing.Definitions;

/// <summary>
/// The JSON form of a <see cref="ReduceDefinition"/>:
/// <c>{"GroupBy":["Company", {"Name":"Product","Path":"Lines[].Product"}],"Aggregations":{"Count":{"Op":"Count"},"Total":{"Op":"Sum","Path":"Lines[].Price"}}}</c>.
/// A group field given as a path alone is named after the path's last property.
/// </summary>
public static class ReduceDefinitionJson
{
    /// <summary>Reads a reduce definition; throws <see cref="IndexDefinitionException"/> naming the problem.</summary>
    public static ReduceDefinition Parse(JsonElement json)
    {
        if (json.ValueKind != JsonValueKind.Object)
            throw new IndexDefinitionException("Reduce must be an object like {\"GroupBy\":[\"Company\"],\"Aggregations\":{\"Count\":{\"Op\":\"Count\"}}}.");
        var groupBy = new List<GroupByField>();
        var aggregations = new List<AggregationDefinition>();
        foreach (var property in json.EnumerateObject())
        {
            switch (property.Name)
            {
                case "GroupBy":
                    if (property.Value.ValueKind != JsonValueKind.Array)
                        throw new IndexDefinitionException("Reduce.GroupBy must be an array of paths or {\"Name\",\"Path\"} objects.");
                    foreach (var item in property.Value.EnumerateArray())
                        groupBy.Add(ParseGroup(item));
                    break;
                case "Aggregations":
                    if (property.Value.ValueKind != JsonValueKind.Object)
                        throw new IndexDefinitionException("Reduce.Aggregations must be an object of named aggregations like {\"Total\":{\"Op\":\"Sum\",\"Path\":\"Freight\"}}.");
                    foreach (var aggregation in property.Value.EnumerateObject())
                        aggregations.Add(ParseAggregation(aggregation.Name, aggregation.Value));
                    break;
                default:
                    throw new IndexDefinitionException($"Unknown property '{property.Name}' in Reduce (expected GroupBy, Aggregations).");
            }
        }
        return new ReduceDefinition(groupBy, aggregations);
    }

    /// <summary>Writes <paramref name="reduce"/> in the form <see cref="Parse"/> reads.</summary>
    public static void Write(Utf8JsonWriter writer, ReduceDefinition reduce)
    {
        ArgumentNullException.ThrowIfNull(writer);
        ArgumentNullException.ThrowIfNull(reduce);
        writer.WriteStartObject();
        writer.WriteStartArray("GroupBy");
        foreach (var group in reduce.GroupBy)
        {
            writer.WriteStartObject();
            writer.WriteString("Name", group.Name);
            writer.WriteString("Path", group.Path.Text);
            if (group.WholeArray)
                writer.WriteBoolean("Array", true);
            writer.WriteEndObject();
        }
        writer.WriteEndArray();
        writer.WriteStartObject("Aggregations");
        foreach (var aggregation in reduce.Aggregations)
        {
            writer.WriteStartObject(aggregation.Name);
            writer.WriteString("Op", aggregation.Op.ToString());
            if (aggregation.Path is { } path)
                writer.WriteString("Path", path.Text);
            writer.WriteEndObject();
        }
        writer.WriteEndObject();
        writer.WriteEndObject();
    }

    private static GroupByField ParseGroup(JsonElement item)
    {
        if (item.ValueKind == JsonValueKind.String)
        {
            var path = ParsePath(item.GetString()!, "A GroupBy path");
            return new GroupByField(path.Segments[^1].Name, path);
        }
        if (item.ValueKind != JsonValueKind.Object)
            throw new IndexDefinitionException("Each Reduce.GroupBy item must be a path or a {\"Name\",\"Path\"} object.");
        string? name = null;
        string? pathText = null;
        var wholeArray = false;
        foreach (var property in item.EnumerateObject())
        {
            switch (property.Name)
            {
                case "Name":
                    name = property.Value.ValueKind == JsonValueKind.String ? property.Value.GetString() : throw new IndexDefinitionException("A GroupBy Name must be a string.");
                    break;
                case "Path":
                    pathText = property.Value.ValueKind == JsonValueKind.String ? property.Value.GetString() : throw new IndexDefinitionException("A GroupBy Path must be a string.");
                    break;
                case "Array":
                    wholeArray = property.Value.ValueKind is JsonValueKind.True or JsonValueKind.False ? property.Value.GetBoolean() : throw new IndexDefinitionException("A GroupBy Array must be true or false.");
                    break;
                default:
                    throw new IndexDefinitionException($"Unknown property '{property.Name}' in a GroupBy item (expected Name, Path, Array).");
            }
        }
        if (pathText is null)
            throw new IndexDefinitionException("A GroupBy item has no Path.");
        var parsed = ParsePath(pathText, "A GroupBy path");
        return new GroupByField(name ?? parsed.Segments[^1].Name, parsed, wholeArray);
    }

    private static AggregationDefinition ParseAggregation(string name, JsonElement json)
    {
        if (json.ValueKind != JsonValueKind.Object)
            throw new IndexDefinitionException($"The aggregation '{name}' must be an object like {{\"Op\":\"Sum\",\"Path\":\"Freight\"}}.");
        AggregationOp? op = null;
        FieldPath? path = null;
        foreach (var property in json.EnumerateObject())
        {
            switch (property.Name)
            {
                case "Op":
                    var text = property.Value.ValueKind == JsonValueKind.String ? property.Value.GetString() : null;
                    op = text?.ToLowerInvariant() switch
                    {
                        "count" => AggregationOp.Count,
                        "sum" => AggregationOp.Sum,
                        "min" => AggregationOp.Min,
                        "max" => AggregationOp.Max,
                        "average" or "avg" => AggregationOp.Average,
                        _ => throw new IndexDefinitionException($"The aggregation '{name}' has unknown Op '{text ?? property.Value.GetRawText()}' (expected Count, Sum, Min, Max or Average)."),
                    };
                    break;
                case "Path":
                    if (property.Value.ValueKind != JsonValueKind.String)
                        throw new IndexDefinitionException($"The Path of aggregation '{name}' must be a string.");
                    path = ParsePath(property.Value.GetString()!, $"The Path of aggregation '{name}'");
                    break;
                default:
                    throw new IndexDefinitionException($"Unknown property '{property.Name}' in aggregation '{name}' (expected Op, Path).");
            }
        }
        return new AggregationDefinition(name, op ?? throw new IndexDefinitionException($"The aggregation '{name}' has no Op."), path);
    }

    private static FieldPath ParsePath(string text, string what)
    {
        try
        {
            return FieldPath.Parse(text);
        }
        catch (FieldPathException e)
        {
            throw new IndexDefinitionException($"{what} is not valid: {e.Message}");
        }
    }
}
