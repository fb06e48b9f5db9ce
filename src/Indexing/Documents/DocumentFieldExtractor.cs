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
        foreach (var (name, field) in definition.Fields)
        {
            if (field.Spatial is { } spatial)
            {
                Spatial.SpatialPoints.Add(entry, name, spatial, document.RootElement);
                continue;
            }
            var numeric = field.Type == IndexFieldType.Auto ? name + IndexDefinition.NumericSuffix : null;
            foreach (var value in field.Path.Values(document.RootElement))
                Add(value, entry, name, numeric);
        }
        return entry;
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
