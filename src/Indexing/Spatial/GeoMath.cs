namespace Folio.Indexing.Spatial;

/// <summary>Distances on the earth taken as a sphere, as the seeds' system measures them (its mean radius, haversine).</summary>
public static class GeoMath
{
    /// <summary>The earth's mean radius in kilometres.</summary>
    public const double EarthRadiusKm = 6371.0087714;

    /// <summary>Kilometres in a statute mile.</summary>
    public const double KmPerMile = 1.609344;

    /// <summary>The great-circle distance in kilometres between two points given in degrees.</summary>
    public static double DistanceKm(double lat1, double lng1, double lat2, double lng2)
    {
        var phi1 = ToRadians(lat1);
        var phi2 = ToRadians(lat2);
        var dPhi = phi2 - phi1;
        var dLambda = ToRadians(lng2 - lng1);
        var sinPhi = Math.Sin(dPhi / 2);
        var sinLambda = Math.Sin(dLambda / 2);
        var h = (sinPhi * sinPhi) + (Math.Cos(phi1) * Math.Cos(phi2) * sinLambda * sinLambda);
        return 2 * EarthRadiusKm * Math.Asin(Math.Sqrt(Math.Min(1, h)));
    }

    /// <summary><paramref name="km"/> in <paramref name="units"/>.</summary>
    public static double FromKm(double km, SpatialUnits units) => units == SpatialUnits.Miles ? km / KmPerMile : km;

    /// <summary><paramref name="distance"/> in <paramref name="units"/> as kilometres.</summary>
    public static double ToKm(double distance, SpatialUnits units) => units == SpatialUnits.Miles ? distance * KmPerMile : distance;

    /// <summary>Degrees to radians.</summary>
    public static double ToRadians(double degrees) => degrees * (Math.PI / 180);

    /// <summary>Radians to degrees.</summary>
    public static double ToDegrees(double radians) => radians * (180 / Math.PI);

    /// <summary>Whether a latitude and longitude make a point on the earth (finite, within ±90 and ±180).</summary>
    public static bool IsValid(double lat, double lng) => lat is >= -90 and <= 90 && lng is >= -180 and <= 180;
}
