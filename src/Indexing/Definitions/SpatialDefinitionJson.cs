using System.Text.Json;
using Folio.Indexing.Spatial;

namespace Folio.Indexing.Definitions;

/// <summary>
/// The JSON of a spatial field's source inside its field definition: <c>"Spatial": {"Latitude": "path", "Longitude": "path"}</c>
/// for points from two numbers, or <c>"Spatial": {"Wkt": "path"}</c> for WKT <c>POINT (lng lat)</c> texts.
/// </summary>
internal static class SpatialDefinitionJson
{
    public static SpatialSource Parse(string fieldName, JsonElement json)
    {
        if (json.ValueKind != JsonValueKind.Object)
            throw new IndexDefinitionException($"Spatial of field '{fieldName}' must be an object: {{\"Latitude\": \"path\", \"Longitude\": \"path\"}} or {{\"Wkt\": \"path\"}}.");
        FieldPath? latitude = null, longitude = null, wkt = null;
        foreach (var property in json.EnumerateObject())
        {
            switch (property.Name)
            {
                case "Latitude":
                    latitude = ParsePath(fieldName, property);
                    break;
                case "Longitude":
                    longitude = ParsePath(fieldName, property);
                    break;
                case "Wkt":
                    wkt = ParsePath(fieldName, property);
                    break;
                default:
                    throw new IndexDefinitionException($"Unknown property '{property.Name}' in Spatial of field '{fieldName}' (expected Latitude and Longitude, or Wkt).");
            }
        }
        if (wkt is not null)
        {
            return latitude is null && longitude is null
                ? SpatialSource.FromWkt(wkt)
                : throw new IndexDefinitionException($"Spatial of field '{fieldName}' takes either Latitude and Longitude or Wkt, not both.");
        }
        if (latitude is null || longitude is null)
            throw new IndexDefinitionException($"Spatial of field '{fieldName}' needs both Latitude and Longitude paths (or one Wkt path).");
        return SpatialSource.Point(latitude, longitude);
    }

    public static void Write(Utf8JsonWriter writer, SpatialSource source)
    {
        writer.WriteStartObject("Spatial");
        if (source.Wkt is { } wkt)
        {
            writer.WriteString("Wkt", wkt.Text);
        }
        else
        {
            writer.WriteString("Latitude", source.Latitude!.Text);
            writer.WriteString("Longitude", source.Longitude!.Text);
        }
        writer.WriteEndObject();
    }

    private static FieldPath ParsePath(string fieldName, JsonProperty property)
    {
        if (property.Value.ValueKind != JsonValueKind.String)
            throw new IndexDefinitionException($"The {property.Name} path of spatial field '{fieldName}' must be a string.");
        try
        {
            return FieldPath.Parse(property.Value.GetString()!);
        }
        catch (FieldPathException e)
        {
            throw new IndexDefinitionException($"The {property.Name} path of spatial field '{fieldName}' is not valid: {e.Message}");
        }
    }
}
