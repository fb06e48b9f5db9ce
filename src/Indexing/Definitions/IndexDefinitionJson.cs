using System.Text.Json;

namespace Folio.Indexing.Definitions;

/// <summary>
/// The one JSON form of an index definition,
/// <c>{"Name","Collections":[…],"SearchEngine"?:"Folio|Lucene","ForEach"?,"MapScript"?,"Fields":{"F":{"Path","Type":"String|Long|Double|Auto","Search","CaseSensitive"}|{"Spatial":{…}}}}</c>
/// or, for a map/reduce index, <c>{"Name","Collections","SearchEngine"?,"Reduce":{…},"OutputCollection"?}</c> (<see cref="ReduceDefinitionJson"/>):
/// what <c>PUT …/indexes</c> accepts and <c>GET …/indexes</c> answers, and what the index catalog stores,
/// so a definition reads back after a restart exactly as it was given. The definition is a document of its
/// own, not an answer shape; the HTTP tier writes the envelopes around it.
/// </summary>
public static class IndexDefinitionJson
{
    /// <summary>Reads a definition from JSON; throws <see cref="IndexDefinitionException"/> naming the problem.</summary>
    public static IndexDefinition Parse(JsonElement json)
    {
        if (json.ValueKind != JsonValueKind.Object)
            throw new IndexDefinitionException("An index definition must be a JSON object.");
        string? name = null;
        var collections = new List<string>();
        var fields = new Dictionary<string, IndexFieldDefinition>(StringComparer.Ordinal);
        var hasFields = false;
        ReduceDefinition? reduce = null;
        string? engine = null;
        string? outputCollection = null;
        FieldPath? forEach = null;
        string? mapScript = null;
        foreach (var property in json.EnumerateObject())
        {
            switch (property.Name)
            {
                case "Name":
                    name = property.Value.ValueKind == JsonValueKind.String ? property.Value.GetString() : throw new IndexDefinitionException("Name must be a string.");
                    break;
                case "Collections":
                    if (property.Value.ValueKind != JsonValueKind.Array)
                        throw new IndexDefinitionException("Collections must be an array of collection names.");
                    foreach (var item in property.Value.EnumerateArray())
                    {
                        if (item.ValueKind != JsonValueKind.String || string.IsNullOrWhiteSpace(item.GetString()))
                            throw new IndexDefinitionException("Collections must hold non-empty strings.");
                        collections.Add(item.GetString()!);
                    }
                    break;
                case "Fields":
                    if (property.Value.ValueKind != JsonValueKind.Object)
                        throw new IndexDefinitionException("Fields must be an object of field definitions.");
                    hasFields = true;
                    foreach (var field in property.Value.EnumerateObject())
                    {
                        if (!fields.TryAdd(field.Name, ParseField(field.Name, field.Value)))
                            throw new IndexDefinitionException($"Field '{field.Name}' is defined twice.");
                    }
                    break;
                case "Reduce":
                    reduce = ReduceDefinitionJson.Parse(property.Value);
                    break;
                case "ForEach":
                    forEach = property.Value.ValueKind switch
                    {
                        JsonValueKind.String => ParsePath("ForEach", property.Value.GetString()),
                        JsonValueKind.Null => null,
                        _ => throw new IndexDefinitionException("ForEach must be the path of an array, as \"Lines[]\"."),
                    };
                    break;
                case "MapScript":
                    mapScript = property.Value.ValueKind switch
                    {
                        JsonValueKind.String => property.Value.GetString(),
                        JsonValueKind.Null => null,
                        _ => throw new IndexDefinitionException("MapScript must be JavaScript text, as \"map('Users', u => ({ name: u.first + ' ' + u.last }))\"."),
                    };
                    break;
                case "SearchEngine":
                    engine = property.Value.ValueKind == JsonValueKind.String ? property.Value.GetString() : throw new IndexDefinitionException("SearchEngine must be a string: " + Engines.SearchEngines.UnknownMessage(property.Value.GetRawText()));
                    break;
                case "OutputCollection":
                    outputCollection = property.Value.ValueKind switch
                    {
                        JsonValueKind.String => property.Value.GetString(),
                        JsonValueKind.Null => null,
                        _ => throw new IndexDefinitionException("OutputCollection must be a collection name."),
                    };
                    break;
                case "LockMode" or "Priority":
                    // How the index is administered, not what it indexes (definitions read back carry them); the index store keeps them apart.
                    break;
                default:
                    throw new IndexDefinitionException($"Unknown property '{property.Name}' in the index definition (expected Name, Collections, SearchEngine, Fields, ForEach, MapScript, Reduce, OutputCollection, LockMode or Priority).");
            }
        }
        if (name is null)
            throw new IndexDefinitionException("The index definition has no Name.");
        IndexDefinition definition;
        if (reduce is null)
        {
            if (outputCollection is not null)
                throw new IndexDefinitionException("OutputCollection needs a map/reduce index (Reduce): a map index has no results to write.");
            definition = new IndexDefinition(name, collections, fields) { ForEach = forEach, MapScript = mapScript };
        }
        else
        {
            if (hasFields)
                throw new IndexDefinitionException("A map/reduce index takes its fields from Reduce (its GroupBy fields and Aggregations); remove Fields.");
            if (forEach is not null)
                throw new IndexDefinitionException("ForEach needs a map index (Fields): a map/reduce index groups whole documents.");
            definition = new IndexDefinition(name, collections, reduce, outputCollection) { MapScript = mapScript };
        }

        return engine is null ? definition : definition.WithSearchEngine(engine);
    }

    private static IndexFieldDefinition ParseField(string fieldName, JsonElement json)
    {
        if (json.ValueKind != JsonValueKind.Object)
            throw new IndexDefinitionException($"Field '{fieldName}' must be an object like {{\"Path\":\"Name\"}}.");
        string? path = null;
        var type = IndexFieldType.String;
        bool search = false, caseSensitive = false;
        string? analyzer = null;
        Spatial.SpatialSource? spatial = null;
        foreach (var property in json.EnumerateObject())
        {
            switch (property.Name)
            {
                case "Spatial":
                    spatial = SpatialDefinitionJson.Parse(fieldName, property.Value);
                    break;
                case "Path":
                    path = property.Value.ValueKind == JsonValueKind.String ? property.Value.GetString() : throw new IndexDefinitionException($"The Path of field '{fieldName}' must be a string.");
                    break;
                case "Type":
                    var text = property.Value.ValueKind == JsonValueKind.String ? property.Value.GetString() : null;
                    type = text switch
                    {
                        "String" or "string" => IndexFieldType.String,
                        "Long" or "long" => IndexFieldType.Long,
                        "Double" or "double" => IndexFieldType.Double,
                        "Auto" or "auto" => IndexFieldType.Auto,
                        _ => throw new IndexDefinitionException($"Field '{fieldName}' has unknown Type '{text ?? property.Value.GetRawText()}' (expected String, Long, Double or Auto)."),
                    };
                    break;
                case "Search":
                    search = property.Value.ValueKind switch
                    {
                        JsonValueKind.True => true,
                        JsonValueKind.False => false,
                        _ => throw new IndexDefinitionException($"Search of field '{fieldName}' must be true or false."),
                    };
                    break;
                case "CaseSensitive":
                    caseSensitive = property.Value.ValueKind switch
                    {
                        JsonValueKind.True => true,
                        JsonValueKind.False => false,
                        _ => throw new IndexDefinitionException($"CaseSensitive of field '{fieldName}' must be true or false."),
                    };
                    break;
                case "Analyzer":
                    var named = property.Value.ValueKind == JsonValueKind.String ? property.Value.GetString() : property.Value.GetRawText();
                    analyzer = Analysis.NamedAnalyzers.TryCanonical(named, out var canonical)
                        ? canonical
                        : throw new IndexDefinitionException($"Field '{fieldName}': {Analysis.NamedAnalyzers.UnknownMessage(named)}");
                    break;
                default:
                    throw new IndexDefinitionException($"Unknown property '{property.Name}' in field '{fieldName}' (expected Path, Type, Search, CaseSensitive, Analyzer, Spatial).");
            }
        }
        if (spatial is not null)
        {
            if (json.GetPropertyCount() != 1)
                throw new IndexDefinitionException($"Field '{fieldName}' is Spatial, which takes its paths inside \"Spatial\"; remove Path, Type, Search, CaseSensitive and Analyzer.");
            return IndexFieldDefinition.ForSpatial(spatial);
        }
        if (search && type != IndexFieldType.String)
            throw new IndexDefinitionException($"Field '{fieldName}' cannot be both Search and {type}.");
        if (analyzer is not null && type is IndexFieldType.Long or IndexFieldType.Double)
            throw new IndexDefinitionException($"Field '{fieldName}' is a number ({type}); only text fields take an Analyzer.");
        return new IndexFieldDefinition(ParsePath(fieldName, path), type, search, caseSensitive, analyzer);
    }

    private static FieldPath ParsePath(string fieldName, string? path)
    {
        try
        {
            return FieldPath.Parse(path ?? fieldName);
        }
        catch (FieldPathException e) when (path is null)
        {
            throw new IndexDefinitionException($"Field '{fieldName}' has no Path, so its name is read as one: {e.Message}");
        }
        catch (FieldPathException e)
        {
            throw new IndexDefinitionException($"The Path of field '{fieldName}' is not valid: {e.Message}");
        }
    }

    /// <summary>Writes <paramref name="definition"/> in the form <see cref="Parse"/> reads.</summary>
    public static void Write(Utf8JsonWriter writer, IndexDefinition definition)
    {
        ArgumentNullException.ThrowIfNull(writer);
        writer.WriteStartObject();
        WriteProperties(writer, definition);
        writer.WriteEndObject();
    }

    /// <summary>Writes the properties of <paramref name="definition"/> into an object the caller opened (and may add to before closing).</summary>
    public static void WriteProperties(Utf8JsonWriter writer, IndexDefinition definition)
    {
        ArgumentNullException.ThrowIfNull(writer);
        ArgumentNullException.ThrowIfNull(definition);
        writer.WriteString("Name", definition.Name);
        writer.WriteStartArray("Collections");
        foreach (var collection in definition.Collections)
            writer.WriteStringValue(collection);
        writer.WriteEndArray();
        if (definition.SearchEngine is { } engine)
            writer.WriteString("SearchEngine", engine);
        if (definition.MapScript is { } mapScript)
            writer.WriteString("MapScript", mapScript);
        if (definition.Reduce is { } reduce)
        {
            writer.WritePropertyName("Reduce");
            ReduceDefinitionJson.Write(writer, reduce);
            if (definition.OutputCollection is { } output)
                writer.WriteString("OutputCollection", output);
            return;
        }
        if (definition.ForEach is { } forEach)
            writer.WriteString("ForEach", forEach.Text);
        writer.WriteStartObject("Fields");
        foreach (var (name, field) in definition.Fields)
        {
            writer.WriteStartObject(name);
            if (field.Spatial is { } spatial)
            {
                SpatialDefinitionJson.Write(writer, spatial);
                writer.WriteEndObject();
                continue;
            }
            writer.WriteString("Path", field.Path.Text);
            if (field.Type != IndexFieldType.String)
                writer.WriteString("Type", field.Type.ToString());
            if (field.Search)
                writer.WriteBoolean("Search", true);
            if (field.CaseSensitive)
                writer.WriteBoolean("CaseSensitive", true);
            if (field.Analyzer is { } analyzer)
                writer.WriteString("Analyzer", analyzer);
            writer.WriteEndObject();
        }
        writer.WriteEndObject();
    }

    /// <summary><paramref name="definition"/> as JSON text.</summary>
    public static string ToJson(IndexDefinition definition)
    {
        using var stream = new MemoryStream();
        using (var writer = new Utf8JsonWriter(stream))
            Write(writer, definition);
        return System.Text.Encoding.UTF8.GetString(stream.ToArray());
    }
}
