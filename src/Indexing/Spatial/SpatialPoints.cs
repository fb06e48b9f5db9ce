using System.Globalization;
using System.Text.Json;
using Folio.Indexing.Search;

namespace Folio.Indexing.Spatial;

/// <summary>
/// Adds a document's points to an index entry as <see cref="SpatialTerm"/> terms. A latitude and a longitude read as
/// numbers (or numeric strings); arrays of them pair up by position. A value that makes no point on the earth (missing,
/// not a number, out of range, not a WKT POINT) adds nothing, as a missing value would.
/// </summary>
public static class SpatialPoints
{
    /// <summary>Adds the points <paramref name="source"/> finds in <paramref name="root"/> to <paramref name="entry"/> under <paramref name="field"/>.</summary>
    public static void Add(IndexEntry entry, string field, SpatialSource source, JsonElement root)
    {
        if (source.Wkt is { } wkt)
        {
            foreach (var value in wkt.Values(root))
            {
                if (value.ValueKind == JsonValueKind.String && TryParsePoint(value.GetString()!, out var lat, out var lng))
                    entry.Add(field, SpatialTerm.Encode(lat, lng));
            }
            return;
        }
        var latitudes = source.Latitude!.Values(root);
        var longitudes = source.Longitude!.Values(root);
        var count = Math.Min(latitudes.Count, longitudes.Count);
        for (var i = 0; i < count; i++)
        {
            if (TryNumber(latitudes[i], out var lat) && TryNumber(longitudes[i], out var lng) && GeoMath.IsValid(lat, lng))
                entry.Add(field, SpatialTerm.Encode(lat, lng));
        }
    }

    /// <summary>Reads <c>POINT (lng lat)</c> (any case, spaces as WKT allows); false for anything else or a point off the earth.</summary>
    public static bool TryParsePoint(string text, out double lat, out double lng)
    {
        lat = lng = 0;
        var span = text.AsSpan().Trim();
        if (!span.StartsWith("POINT", StringComparison.OrdinalIgnoreCase))
            return false;
        span = span[5..].Trim();
        if (span.Length < 2 || span[0] != '(' || span[^1] != ')')
            return false;
        span = span[1..^1].Trim();
        var gap = span.IndexOfAny(' ', '\t');
        if (gap < 0)
            return false;
        return double.TryParse(span[..gap], NumberStyles.Float, CultureInfo.InvariantCulture, out lng)
            && double.TryParse(span[gap..].Trim(), NumberStyles.Float, CultureInfo.InvariantCulture, out lat)
            && GeoMath.IsValid(lat, lng);
    }

    private static bool TryNumber(JsonElement value, out double number)
    {
        number = 0;
        return value.ValueKind switch
        {
            JsonValueKind.Number => value.TryGetDouble(out number),
            JsonValueKind.String => double.TryParse(value.GetString(), NumberStyles.Float, CultureInfo.InvariantCulture, out number),
            _ => false,
        };
    }
}
