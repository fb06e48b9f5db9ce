namespace Folio.Indexing.Spatial;

/// <summary>A latitude/longitude rectangle in degrees that does not cross the antimeridian (<see cref="MinLng"/> ≤ <see cref="MaxLng"/>).</summary>
public readonly record struct GeoBox(double MinLat, double MaxLat, double MinLng, double MaxLng);
