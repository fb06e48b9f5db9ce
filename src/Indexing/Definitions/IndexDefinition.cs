using System.Text.Json;
using Folio.Indexing.Search;

namespace Folio.Indexing.Definitions;

/// <summary>
/// What an index holds: its name, the collections it reads and its fields. Read from and written as
/// JSON: <c>{"Name","Collections":[…],"Fields":{"F":{"Path","Type":"String|Long|Double","Search","CaseSensitive"}}}</c>.
/// </summary>
public sealed class IndexDefinition
{
    /// <summary>The name prefix of indexes the server makes for queries on collections.</summary>
    public const string AutoPrefix = "Auto/";

    /// <summary>The suffix of the numeric companion field an auto index keeps for each field.</summary>
    public const string NumericSuffix = "__num";

    /// <summary>The longest index name (and field name) a definition may have.</summary>
    public const int MaxNameLength = 200;

    /// <summary>The field every index keeps with the document id, for <c>id()</c> in queries.</summary>
    public const string IdField = "id()";

    /// <summary>Builds a definition after checking it.</summary>
    public IndexDefinition(string name, IReadOnlyList<string> collections, IReadOnlyDictionary<string, IndexFieldDefinition> fields)
    {
        Name = name;
        Collections = collections;
        Fields = fields;
        Validate();
    }

    /// <summary>The index's name (compared case-insensitively).</summary>
    public string Name { get; }

    /// <summary>The collections whose documents the index reads.</summary>
    public IReadOnlyList<string> Collections { get; }

    /// <summary>The fields by name.</summary>
    public IReadOnlyDictionary<string, IndexFieldDefinition> Fields { get; }

    /// <summary>Whether the server made this index for collection queries.</summary>
    public bool IsAuto => Name.StartsWith(AutoPrefix, StringComparison.OrdinalIgnoreCase);

    /// <summary>The search engine's schema for this definition.</summary>
    public IndexSchema ToSchema()
    {
        // Every index can also answer id() conditions next to its own fields.
        var schema = new IndexSchema().Add(IdField, FieldKind.Exact);
        foreach (var (name, field) in Fields)
        {
            if (field.Search)
            {
                schema.Add(name, FieldKind.FullText);
                continue;
            }
            switch (field.Type)
            {
                case IndexFieldType.Long:
                    schema.Add(name, FieldKind.Long);
                    break;
                case IndexFieldType.Double:
                    schema.Add(name, FieldKind.Double);
                    break;
                case IndexFieldType.Auto:
                    schema.Add(name, new FieldOptions(FieldKind.Exact, field.CaseSensitive));
                    schema.Add(name + NumericSuffix, FieldKind.Double);
                    break;
                default:
                    schema.Add(name, new FieldOptions(FieldKind.Exact, field.CaseSensitive));
                    break;
            }
        }
        return schema;
    }

    /// <summary>Reads a definition from JSON; throws <see cref="IndexDefinitionException"/> naming the problem.</summary>
    public static IndexDefinition Parse(JsonElement json)
    {
        if (json.ValueKind != JsonValueKind.Object)
            throw new IndexDefinitionException("An index definition must be a JSON object.");
        string? name = null;
        var collections = new List<string>();
        var fields = new Dictionary<string, IndexFieldDefinition>(StringComparer.Ordinal);
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
                    foreach (var field in property.Value.EnumerateObject())
                    {
                        if (!fields.TryAdd(field.Name, ParseField(field.Name, field.Value)))
                            throw new IndexDefinitionException($"Field '{field.Name}' is defined twice.");
                    }
                    break;
                case "Reduce":
                    throw new IndexDefinitionException("Map/reduce indexes (Reduce) are not supported yet.");
                default:
                    throw new IndexDefinitionException($"Unknown property '{property.Name}' in the index definition (expected Name, Collections, Fields).");
            }
        }
        return new IndexDefinition(name ?? throw new IndexDefinitionException("The index definition has no Name."), collections, fields);
    }

    private static IndexFieldDefinition ParseField(string fieldName, JsonElement json)
    {
        if (json.ValueKind != JsonValueKind.Object)
            throw new IndexDefinitionException($"Field '{fieldName}' must be an object like {{\"Path\":\"Name\"}}.");
        string? path = null;
        var type = IndexFieldType.String;
        bool search = false, caseSensitive = false;
        foreach (var property in json.EnumerateObject())
        {
            switch (property.Name)
            {
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
                        // What the catalog holds for an auto index's fields; Validate refuses it for any other index.
                        "Auto" => IndexFieldType.Auto,
                        _ => throw new IndexDefinitionException($"Field '{fieldName}' has unknown Type '{text ?? property.Value.GetRawText()}' (expected String, Long or Double)."),
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
                default:
                    throw new IndexDefinitionException($"Unknown property '{property.Name}' in field '{fieldName}' (expected Path, Type, Search, CaseSensitive).");
            }
        }
        if (search && type != IndexFieldType.String)
            throw new IndexDefinitionException($"Field '{fieldName}' cannot be both Search and {type}.");
        return new IndexFieldDefinition(ParsePath(fieldName, path), type, search, caseSensitive);
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

    /// <summary>Writes the definition as JSON (the form <see cref="Parse"/> reads).</summary>
    public void WriteTo(Utf8JsonWriter writer)
    {
        writer.WriteStartObject();
        writer.WriteString("Name", Name);
        writer.WriteStartArray("Collections");
        foreach (var collection in Collections)
            writer.WriteStringValue(collection);
        writer.WriteEndArray();
        writer.WriteStartObject("Fields");
        foreach (var (name, field) in Fields)
        {
            writer.WriteStartObject(name);
            writer.WriteString("Path", field.Path.Text);
            if (field.Type != IndexFieldType.String)
                writer.WriteString("Type", field.Type.ToString());
            if (field.Search)
                writer.WriteBoolean("Search", true);
            if (field.CaseSensitive)
                writer.WriteBoolean("CaseSensitive", true);
            writer.WriteEndObject();
        }
        writer.WriteEndObject();
        writer.WriteEndObject();
    }

    /// <summary>The definition as JSON text.</summary>
    public string ToJson()
    {
        using var stream = new MemoryStream();
        using (var writer = new Utf8JsonWriter(stream))
            WriteTo(writer);
        return System.Text.Encoding.UTF8.GetString(stream.ToArray());
    }

    /// <summary>Whether two definitions index the same thing (what decides if a PUT rebuilds).</summary>
    public bool SameAs(IndexDefinition other) => string.Equals(ToJson(), other.ToJson(), StringComparison.Ordinal);

    private void Validate()
    {
        if (string.IsNullOrWhiteSpace(Name))
            throw new IndexDefinitionException("An index needs a non-empty Name.");
        if (Name.Length > MaxNameLength)
            throw new IndexDefinitionException($"An index name may have at most {MaxNameLength} characters.");
        foreach (var c in Name)
        {
            if (char.IsControl(c))
                throw new IndexDefinitionException("An index name must not contain control characters.");
        }
        if (Collections.Count == 0)
            throw new IndexDefinitionException($"Index '{Name}' names no Collections.");
        if (Fields.Count == 0)
            throw new IndexDefinitionException($"Index '{Name}' has no Fields.");
        foreach (var (name, field) in Fields)
        {
            if (string.IsNullOrWhiteSpace(name) || name.Length > MaxNameLength || name.EndsWith(NumericSuffix, StringComparison.Ordinal) || name == IdField)
                throw new IndexDefinitionException($"Field name '{name}' is empty, too long or ends with the reserved '{NumericSuffix}', or is the reserved '{IdField}'.");
            if (field.Type == IndexFieldType.Auto && !IsAuto)
                throw new IndexDefinitionException($"Field '{name}' has Type Auto, which only the server's auto indexes use (expected String, Long or Double).");
        }
    }
}
