using Folio.Indexing.Definitions;

namespace Folio.Indexing.Spatial;

/// <summary>
/// Where a spatial field's points come from: a latitude and a longitude path (numbers; arrays pair up by position), or
/// one path of WKT <c>POINT (lng lat)</c> texts.
/// </summary>
public sealed class SpatialSource
{
    private SpatialSource(FieldPath? latitude, FieldPath? longitude, FieldPath? wkt)
    {
        Latitude = latitude;
        Longitude = longitude;
        Wkt = wkt;
    }

    /// <summary>The latitude path of a point source; null for a WKT source.</summary>
    public FieldPath? Latitude { get; }

    /// <summary>The longitude path of a point source; null for a WKT source.</summary>
    public FieldPath? Longitude { get; }

    /// <summary>The path of WKT points; null for a latitude/longitude source.</summary>
    public FieldPath? Wkt { get; }

    /// <summary>Points from a latitude and a longitude path.</summary>
    public static SpatialSource Point(FieldPath latitude, FieldPath longitude) => new(latitude, longitude, null);

    /// <summary>Points from WKT texts at a path.</summary>
    public static SpatialSource FromWkt(FieldPath wkt) => new(null, null, wkt);

    /// <summary>The path the source reads first (the latitude, or the WKT).</summary>
    public FieldPath MainPath => Wkt ?? Latitude!;

    /// <summary>Whether two sources read the same paths.</summary>
    public bool SameAs(SpatialSource other) =>
        other is not null && Text(Latitude) == Text(other.Latitude) && Text(Longitude) == Text(other.Longitude) && Text(Wkt) == Text(other.Wkt);

    private static string? Text(FieldPath? path) => path?.Text;
}
