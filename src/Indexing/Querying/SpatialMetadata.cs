using System.Text.Json;

namespace Folio.Indexing.Querying;

/// <summary>
/// Writes the seeds' <c>@metadata.@spatial</c> into a result of a distance-ordered query:
/// <c>{"Distance": km, "Latitude": …, "Longitude": …}</c> of the document's point nearest the query's.
/// </summary>
internal static class SpatialMetadata
{
    /// <summary><paramref name="json"/> (an object) with <c>@spatial</c> in its <c>@metadata</c>; unchanged when the hit has no point.</summary>
    public static byte[] With(ReadOnlySpan<byte> json, SpatialHit hit)
    {
        if (double.IsNaN(hit.Distance))
            return json.ToArray();
        using var document = JsonDocument.Parse(json.ToArray());
        using var stream = new MemoryStream(json.Length + 96);
        using (var writer = new Utf8JsonWriter(stream))
        {
            writer.WriteStartObject();
            var wroteMetadata = false;
            foreach (var property in document.RootElement.EnumerateObject())
            {
                if (property.NameEquals("@metadata") && property.Value.ValueKind == JsonValueKind.Object)
                {
                    writer.WriteStartObject("@metadata");
                    foreach (var inner in property.Value.EnumerateObject())
                    {
                        if (!inner.NameEquals("@spatial"))
                            inner.WriteTo(writer);
                    }
                    WriteSpatial(writer, hit);
                    writer.WriteEndObject();
                    wroteMetadata = true;
                    continue;
                }
                property.WriteTo(writer);
            }
            if (!wroteMetadata)
            {
                writer.WriteStartObject("@metadata");
                WriteSpatial(writer, hit);
                writer.WriteEndObject();
            }
            writer.WriteEndObject();
        }
        return stream.ToArray();
    }

    private static void WriteSpatial(Utf8JsonWriter writer, SpatialHit hit)
    {
        writer.WriteStartObject("@spatial");
        writer.WriteNumber("Distance", hit.Distance);
        writer.WriteNumber("Latitude", hit.Latitude);
        writer.WriteNumber("Longitude", hit.Longitude);
        writer.WriteEndObject();
    }
}
