using System.Text;
using System.Text.Json;
using Folio.Indexing.Definitions;
using Folio.Indexing.Spatial;

namespace Folio.Server.RavenProtocol.Indexes;

/// <summary>
/// A JavaScript index of the seeds' system that <see cref="MapTranslator"/> cannot turn into paths (statements, computed
/// values, <c>load</c>, helper functions, fan-out, dynamic fields) becomes a Folio index with a
/// <see cref="IndexDefinition.MapScript"/>: its <c>AdditionalSources</c> then its maps, run through Jint for each
/// document. Its fields are the names <see cref="JavaScriptMapShape"/> finds in the program and those the definition's
/// <c>Fields</c> configure, each read as the property of that name on what the maps return.
/// </summary>
public static class JavaScriptIndexDefinition
{
    /// <summary>Whether every map is a JavaScript <c>map(…)</c> call (the seeds' JavaScript index form).</summary>
    public static bool IsJavaScript(JsonElement maps)
    {
        foreach (JsonElement map in maps.EnumerateArray())
        {
            if (map.ValueKind != JsonValueKind.String)
                return false;
            string text = MapTranslator.StripComments(map.GetString()!).TrimStart();
            if (!text.StartsWith("map", StringComparison.Ordinal) || !text[3..].TrimStart().StartsWith('('))
                return false;
        }

        return true;
    }

    /// <summary>The script index of the definition <paramref name="json"/> named <paramref name="name"/>.</summary>
    /// <exception cref="IndexDefinitionException">The program is not JavaScript, fails its top level, or gives no field.</exception>
    public static IndexDefinition Build(string name, JsonElement json, JsonElement maps, string? reduce = null)
    {
        string program = Program(name, json, maps);
        JavaScriptMapShape shape;
        try
        {
            shape = JavaScriptMapShape.Read(program);
        }
        catch (IndexDefinitionException e)
        {
            throw new IndexDefinitionException($"'{name}': {e.Message}");
        }

        if (shape.Collections.Count == 0)
            throw new IndexDefinitionException($"'{name}': the maps name no collection (map('Collection', doc => …)).");
        if (reduce is not null)
            return WithReduce(name, json, shape, program, reduce);
        JsonElement options = json.TryGetProperty("Fields", out JsonElement f) && f.ValueKind == JsonValueKind.Object ? f : default;
        var fields = new Dictionary<string, IndexFieldDefinition>(StringComparer.Ordinal);
        foreach ((string field, JavaScriptFieldShape given) in shape.Fields)
            AddField(fields, options, field, given);
        if (options.ValueKind == JsonValueKind.Object)
        {
            foreach (JsonProperty configured in options.EnumerateObject())
            {
                if (!fields.ContainsKey(configured.Name) && !configured.Name.StartsWith("__", StringComparison.Ordinal) && !shape.Fields.ContainsKey(configured.Name))
                    AddField(fields, options, configured.Name, default);
            }
        }

        if (fields.Count == 0)
            throw new IndexDefinitionException($"'{name}': Folio finds no field the maps return (it declares the names their object literals give).");
        try
        {
            return new IndexDefinition(name, shape.Collections, fields) { MapScript = program };
        }
        catch (IndexDefinitionException e)
        {
            throw new IndexDefinitionException($"'{name}': {e.Message}");
        }
    }

    // The reduce reads the maps' outputs: each field the program gives is the output's property of that name.
    private static IndexDefinition WithReduce(string name, JsonElement json, JavaScriptMapShape shape, string program, string reduce)
    {
        var paths = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach ((string field, JavaScriptFieldShape given) in shape.Fields)
        {
            if (given.Spatial != JavaScriptSpatial.None)
                throw new IndexDefinitionException($"'{name}': Folio's map/reduce indexes have no spatial fields ('{field}').");
            paths[field] = FieldPath.Format([new PathSegment(field)]);
        }

        try
        {
            ReduceDefinition translated = ReduceTranslator.Translate(reduce, paths, new Dictionary<string, string>(StringComparer.Ordinal));
            return new IndexDefinition(name, shape.Collections, translated, RavenIndexDefinition.OutputCollectionOf(json)) { MapScript = program };
        }
        catch (IndexDefinitionException e)
        {
            throw new IndexDefinitionException($"'{name}': {e.Message}");
        }
    }

    // AdditionalSources (helper functions the maps call) first, then each map as a statement of its own.
    private static string Program(string name, JsonElement json, JsonElement maps)
    {
        var program = new StringBuilder();
        if (json.TryGetProperty("AdditionalSources", out JsonElement sources) && sources.ValueKind == JsonValueKind.Object)
        {
            foreach (JsonProperty source in sources.EnumerateObject())
            {
                if (source.Value.ValueKind != JsonValueKind.String)
                    throw new IndexDefinitionException($"'{name}': AdditionalSources '{source.Name}' must be a string of JavaScript.");
                program.Append(source.Value.GetString()).Append('\n');
            }
        }

        foreach (JsonElement map in maps.EnumerateArray())
            program.Append(map.GetString()).Append("\n;\n");
        return program.ToString();
    }

    private static void AddField(Dictionary<string, IndexFieldDefinition> fields, JsonElement options, string field, JavaScriptFieldShape given)
    {
        FieldPath own = FieldPath.Parse(FieldPath.Format([new PathSegment(field)]));
        switch (given.Spatial)
        {
            case JavaScriptSpatial.Point:
                fields[field] = IndexFieldDefinition.ForSpatial(SpatialSource.Point(
                    FieldPath.Parse(FieldPath.Format([new PathSegment(field), new PathSegment("lat")])),
                    FieldPath.Parse(FieldPath.Format([new PathSegment(field), new PathSegment("lng")]))));
                return;
            case JavaScriptSpatial.Wkt:
                fields[field] = IndexFieldDefinition.ForSpatial(SpatialSource.FromWkt(own));
                return;
        }

        if (RavenIndexDefinition.FieldOf(options, field, own, given.Search) is { } definition)
            fields[field] = definition;
    }
}
