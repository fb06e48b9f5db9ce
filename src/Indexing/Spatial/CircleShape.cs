namespace Folio.Indexing.Spatial;

/// <summary>The points within a great-circle distance of a centre; the boundary belongs to the circle.</summary>
public sealed class CircleShape : SpatialShape
{
    // Added around the bounds so that rounding in their trigonometry never leaves a point of the circle outside.
    private const double BoundsSlackDegrees = 1e-9;

    /// <summary>A circle of <paramref name="radius"/> in <paramref name="units"/> around a centre in degrees.</summary>
    /// <exception cref="ArgumentException">The radius is negative (0 holds the centre alone, as in the seeds' system) or the centre is not a point on the earth.</exception>
    public CircleShape(double radius, double lat, double lng, SpatialUnits units)
    {
        if (!(radius >= 0) || double.IsInfinity(radius))
            throw new ArgumentException($"The radius of spatial.circle() must be a number of 0 or more, not {radius}.");
        if (!(lat is >= -90 and <= 90))
            throw new ArgumentException($"The latitude of spatial.circle() must be between -90 and 90, not {lat}.");
        if (!(lng is >= -180 and <= 180))
            throw new ArgumentException($"The longitude of spatial.circle() must be between -180 and 180, not {lng}.");
        Latitude = lat;
        Longitude = lng;
        RadiusKm = GeoMath.ToKm(radius, units);
        Bounds = ComputeBounds(lat, lng, RadiusKm / GeoMath.EarthRadiusKm);
    }

    /// <summary>
    /// Reads the seeds' WKT extension <c>CIRCLE(lng lat d=radius)</c> (any case; longitude first, as in WKT), the radius
    /// in kilometres; false for any other text.
    /// </summary>
    /// <exception cref="ArgumentException">It is a circle, but its radius or centre is out of range.</exception>
    public static bool TryParseWkt(string text, [System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out CircleShape? circle)
    {
        ArgumentNullException.ThrowIfNull(text);
        circle = null;
        var match = System.Text.RegularExpressions.Regex.Match(text,
            @"^\s*circle\s*\(\s*(?<lng>[-+0-9.eE]+)\s+(?<lat>[-+0-9.eE]+)\s+d\s*=\s*(?<d>[-+0-9.eE]+)\s*\)\s*$",
            System.Text.RegularExpressions.RegexOptions.IgnoreCase | System.Text.RegularExpressions.RegexOptions.CultureInvariant);
        var invariant = System.Globalization.CultureInfo.InvariantCulture;
        const System.Globalization.NumberStyles number = System.Globalization.NumberStyles.Float;
        if (!match.Success
            || !double.TryParse(match.Groups["lng"].ValueSpan, number, invariant, out var lng)
            || !double.TryParse(match.Groups["lat"].ValueSpan, number, invariant, out var lat)
            || !double.TryParse(match.Groups["d"].ValueSpan, number, invariant, out var radius))
            return false;
        circle = new CircleShape(radius, lat, lng, SpatialUnits.Kilometers);
        return true;
    }

    /// <summary>The centre's latitude.</summary>
    public double Latitude { get; }

    /// <summary>The centre's longitude.</summary>
    public double Longitude { get; }

    /// <summary>The radius in kilometres.</summary>
    public double RadiusKm { get; }

    /// <inheritdoc/>
    public override IReadOnlyList<GeoBox> Bounds { get; }

    /// <inheritdoc/>
    public override bool Contains(double lat, double lng) => GeoMath.DistanceKm(Latitude, Longitude, lat, lng) <= RadiusKm;

    private static GeoBox[] ComputeBounds(double lat, double lng, double angle)
    {
        if (angle >= Math.PI)
            return [new GeoBox(-90, 90, -180, 180)];
        var degrees = GeoMath.ToDegrees(angle) + BoundsSlackDegrees;
        var minLat = lat - degrees;
        var maxLat = lat + degrees;
        // A circle that reaches a pole holds every longitude near it.
        if (minLat <= -90 || maxLat >= 90)
            return [new GeoBox(Math.Max(-90, minLat), Math.Min(90, maxLat), -180, 180)];
        var ratio = Math.Sin(angle) / Math.Cos(GeoMath.ToRadians(lat));
        if (ratio >= 1)
            return [new GeoBox(minLat, maxLat, -180, 180)];
        var dLng = GeoMath.ToDegrees(Math.Asin(ratio)) + BoundsSlackDegrees;
        var minLng = lng - dLng;
        var maxLng = lng + dLng;
        if (minLng < -180)
            return [new GeoBox(minLat, maxLat, -180, maxLng), new GeoBox(minLat, maxLat, minLng + 360, 180)];
        if (maxLng > 180)
            return [new GeoBox(minLat, maxLat, minLng, 180), new GeoBox(minLat, maxLat, -180, maxLng - 360)];
        return [new GeoBox(minLat, maxLat, minLng, maxLng)];
    }
}
