using System.Globalization;
using NetTopologySuite.Algorithm.Locate;
using NetTopologySuite.Geometries;
using NetTopologySuite.IO;

namespace Folio.Indexing.Spatial;

/// <summary>
/// A polygon (or several) from WKT, x as longitude and y as latitude in degrees, its edges straight lines in that plane;
/// the boundary belongs to it. Also the seeds' <c>ENVELOPE(minLng, maxLng, maxLat, minLat)</c> rectangle.
/// </summary>
public sealed class PolygonShape : SpatialShape
{
    private readonly IndexedPointInAreaLocator _locator;
    // Reused by each test: a query's shape is tested by one thread at a time.
    private readonly Coordinate _probe = new();

    private PolygonShape(Geometry geometry)
    {
        _locator = new IndexedPointInAreaLocator(geometry);
        var envelope = geometry.EnvelopeInternal;
        Bounds = [new GeoBox(envelope.MinY, envelope.MaxY, envelope.MinX, envelope.MaxX)];
    }

    /// <inheritdoc/>
    public override IReadOnlyList<GeoBox> Bounds { get; }

    /// <inheritdoc/>
    public override bool Contains(double lat, double lng)
    {
        _probe.X = lng;
        _probe.Y = lat;
        return _locator.Locate(_probe) != Location.Exterior;
    }

    /// <summary>Reads a POLYGON, MULTIPOLYGON or ENVELOPE in WKT.</summary>
    /// <exception cref="ArgumentException">The text is no such shape, is not a valid one, or has coordinates off the earth; the message says which.</exception>
    public static PolygonShape Parse(string wkt)
    {
        ArgumentNullException.ThrowIfNull(wkt);
        var text = wkt.Trim();
        Geometry geometry;
        if (text.StartsWith("ENVELOPE", StringComparison.OrdinalIgnoreCase))
        {
            geometry = Envelope(text);
        }
        else
        {
            try
            {
                geometry = new WKTReader().Read(text);
            }
            catch (Exception e) when (e is ParseException or ArgumentException or FormatException or InvalidOperationException)
            {
                throw new ArgumentException($"spatial.wkt() could not read '{Shorten(text)}': {e.Message}");
            }
        }
        if (geometry is not (Polygon or MultiPolygon) || geometry.IsEmpty)
            throw new ArgumentException($"spatial.wkt() takes a POLYGON, MULTIPOLYGON or ENVELOPE, not {geometry.GeometryType.ToUpperInvariant()}{(geometry.IsEmpty ? " EMPTY" : "")}.");
        foreach (var coordinate in geometry.Coordinates)
        {
            if (!GeoMath.IsValid(coordinate.Y, coordinate.X))
                throw new ArgumentException($"spatial.wkt() has the point ({coordinate.X.ToString(CultureInfo.InvariantCulture)} {coordinate.Y.ToString(CultureInfo.InvariantCulture)}) off the earth: WKT writes longitude (-180 to 180) then latitude (-90 to 90).");
        }
        if (!geometry.IsValid)
        {
            var error = new NetTopologySuite.Operation.Valid.IsValidOp(geometry).ValidationError;
            throw new ArgumentException($"spatial.wkt() is not a valid polygon: {error?.Message ?? "invalid"} at ({error?.Coordinate?.X.ToString(CultureInfo.InvariantCulture)} {error?.Coordinate?.Y.ToString(CultureInfo.InvariantCulture)}).");
        }
        return new PolygonShape(geometry);
    }

    private static Polygon Envelope(string text)
    {
        var open = text.IndexOf('(', StringComparison.Ordinal);
        var close = text.LastIndexOf(')');
        var parts = open < 0 || close < open ? [] : text[(open + 1)..close].Split(',');
        var numbers = new double[4];
        if (parts.Length != 4)
            throw new ArgumentException($"ENVELOPE takes four numbers, ENVELOPE(minLng, maxLng, maxLat, minLat), not '{Shorten(text)}'.");
        for (var i = 0; i < 4; i++)
        {
            if (!double.TryParse(parts[i], NumberStyles.Float, CultureInfo.InvariantCulture, out numbers[i]) || !double.IsFinite(numbers[i]))
                throw new ArgumentException($"ENVELOPE takes four numbers, ENVELOPE(minLng, maxLng, maxLat, minLat); '{parts[i].Trim()}' is not one.");
        }
        var (minX, maxX, maxY, minY) = (numbers[0], numbers[1], numbers[2], numbers[3]);
        if (minX > maxX || minY > maxY)
            throw new ArgumentException("ENVELOPE(minLng, maxLng, maxLat, minLat) needs minLng <= maxLng and minLat <= maxLat.");
        var factory = GeometryFactory.Default;
        return factory.CreatePolygon([new(minX, minY), new(maxX, minY), new(maxX, maxY), new(minX, maxY), new(minX, minY)]);
    }

    private static string Shorten(string text) => text.Length <= 80 ? text : text[..80] + "…";
}
