using System.Text.Json;
using Folio.Indexing.Definitions;
using Folio.Indexing.Search;

namespace Folio.Indexing.Documents;

/// <summary>Turns a stored JSON document into the entry an index definition asks for.</summary>
public static class DocumentFieldExtractor
{
    /// <summary>The entry for <paramref name="json"/> under <paramref name="definition"/>, keyed by the (lower-cased) document id.</summary>
    public static IndexEntry Extract(IndexDefinition definition, string key, ReadOnlySpan<byte> json)
    {
        var entry = new IndexEntry(key).Add(IndexDefinition.IdField, key);
        var reader = new Utf8JsonReader(json, new JsonReaderOptions { MaxDepth = 256 });
        using var document = JsonDocument.ParseValue(ref reader);
        AddFields(definition, entry, document.RootElement);
        return entry;
    }

    /// <summary>Adds the values of <paramref name="definition"/>'s fields in <paramref name="root"/> (a document, or an object a map script returned) to <paramref name="entry"/>.</summary>
    public static void AddFields(IndexDefinition definition, IndexEntry entry, JsonElement root)
    {
        foreach (var (name, field) in definition.Fields)
        {
            if (field.Spatial is { } spatial)
            {
                Spatial.SpatialPoints.Add(entry, name, spatial, root);
                continue;
            }
            var numeric = field.Type == IndexFieldType.Auto ? name + IndexDefinition.NumericSuffix : null;
            foreach (var value in field.Path.Values(root))
                Add(value, entry, name, numeric);
        }
    }

    /// <summary>
    /// The entries for <paramref name="json"/>: the one <see cref="Extract"/> makes, or for a fan-out index
    /// (<see cref="IndexDefinition.ForEach"/>) one per element of its array, none when the array is empty or missing.
    /// </summary>
    public static List<IndexEntry> ExtractAll(IndexDefinition definition, string key, ReadOnlySpan<byte> json)
    {
        if (definition.ForEach is not { } forEach)
            return [Extract(definition, key, json)];
        var reader = new Utf8JsonReader(json, new JsonReaderOptions { MaxDepth = 256 });
        using var document = JsonDocument.ParseValue(ref reader);
        var elements = new List<JsonElement>();
        forEach.Select(document.RootElement, elements);
        var entries = new List<IndexEntry>(elements.Count);
        for (var i = 0; i < elements.Count; i++)
        {
            var entry = new IndexEntry(IndexDefinition.FanOutKey(key, i)).Add(IndexDefinition.IdField, key);
            foreach (var (name, field) in definition.Fields)
            {
                var numeric = field.Type == IndexFieldType.Auto ? name + IndexDefinition.NumericSuffix : null;
                var (path, root) = ElementPath(forEach, field.Path) is { } relative ? (relative, elements[i]) : (field.Path, document.RootElement);
                foreach (var value in path.Values(root))
                    Add(value, entry, name, numeric);
            }
            entries.Add(entry);
        }
        return entries;
    }

    /// <summary>The rest of <paramref name="path"/> after <paramref name="forEach"/> when it starts with it (null when it does not, or is it).</summary>
    private static FieldPath? ElementPath(FieldPath forEach, FieldPath path)
    {
        var prefix = forEach.Segments;
        if (path.Segments.Count <= prefix.Count)
            return null;
        for (var i = 0; i < prefix.Count; i++)
        {
            if (path.Segments[i] != prefix[i])
                return null;
        }
        return FieldPath.Parse(FieldPath.Format([.. path.Segments.Skip(prefix.Count)]));
    }

    private static void Add(JsonElement value, IndexEntry entry, string field, string? numericField)
    {
        switch (value.ValueKind)
        {
            case JsonValueKind.String:
                entry.Add(field, value.GetString()!);
                break;
            case JsonValueKind.Number:
                if (value.TryGetInt64(out var integer))
                    entry.Add(field, integer);
                else
                    entry.Add(field, value.GetDouble());
                if (numericField is not null)
                    entry.Add(numericField, value.GetDouble());
                break;
            case JsonValueKind.True:
                entry.Add(field, "true");
                break;
            case JsonValueKind.False:
                entry.Add(field, "false");
                break;
            case JsonValueKind.Null:
                entry.AddNull(field);
                break;
            case JsonValueKind.Object or JsonValueKind.Array:
                entry.AddPresent(field);
                break;
        }
    }
}
