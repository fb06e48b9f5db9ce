using Folio.Indexing.Spatial;

namespace Folio.Indexing.Rql;

/// <summary>
/// <c>spatial.within|intersects|disjoint|contains(field, shape)</c>: documents whose point relates so to the shape.
/// <see cref="IsContains"/> marks <c>spatial.contains</c>, which the compiler refuses for point fields.
/// </summary>
public sealed record RqlSpatial(SpatialRelation Relation, RqlSpatialField Field, RqlShape Shape, int Position) : RqlExpression
{
    /// <summary>Whether the query wrote <c>spatial.contains</c>.</summary>
    public bool IsContains { get; init; }
}

/// <summary>
/// The points a spatial condition or distance reads: a static index's spatial field by name, or (on a collection)
/// <c>spatial.point(latPath, lngPath)</c> or <c>spatial.wkt(path)</c>, from which the auto index makes a spatial field.
/// </summary>
public sealed record RqlSpatialField(RqlField? Named, SpatialSource? Source, int Position)
{
    /// <summary>The field as the query wrote it.</summary>
    public override string ToString() => Named?.ToString() ?? Source switch
    {
        { Wkt: { } wkt } => $"spatial.wkt({wkt.QueryText})",
        { } point => $"spatial.point({point.Latitude!.QueryText}, {point.Longitude!.QueryText})",
        _ => "?",
    };
}

/// <summary>A shape of a spatial condition.</summary>
public abstract record RqlShape(int Position);

/// <summary><c>spatial.circle(radius, lat, lng [, 'kilometers'|'miles'])</c>.</summary>
public sealed record RqlCircle(RqlValue Radius, RqlValue Latitude, RqlValue Longitude, RqlValue? Units, int Position) : RqlShape(Position);

/// <summary><c>spatial.wkt('POLYGON((lng lat, …))')</c> as a shape.</summary>
public sealed record RqlWktShape(RqlValue Text, int Position) : RqlShape(Position);

/// <summary>
/// The key of <c>order by spatial.distance(field, spatial.point(lat, lng) [, roundFactor])</c>: the distance in kilometres from
/// the given point to the document's nearest point, rounded down to a multiple of the round factor when there is one.
/// </summary>
public sealed record RqlDistance(RqlSpatialField Field, RqlValue Latitude, RqlValue Longitude, RqlValue? RoundFactor, int Position);
