namespace Folio.Indexing.Spatial;

/// <summary>
/// An area a spatial query relates points to: a circle on the sphere or a polygon in longitude/latitude degrees. It
/// answers whether a point lies in it exactly, and which rectangles hold all of it, from which <see cref="SpatialCover"/>
/// makes the term ranges an index walks.
/// </summary>
public abstract class SpatialShape
{
    /// <summary>Rectangles (none crossing the antimeridian) that together hold every point of the shape.</summary>
    public abstract IReadOnlyList<GeoBox> Bounds { get; }

    /// <summary>Whether the point lies in the shape, its boundary included.</summary>
    public abstract bool Contains(double lat, double lng);
}
