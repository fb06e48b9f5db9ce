namespace Folio.Server.RavenProtocol.Indexes;

/// <summary>What <c>createSpatialField</c> a field's value comes from.</summary>
public enum JavaScriptSpatial
{
    /// <summary>Not a spatial field.</summary>
    None,

    /// <summary><c>createSpatialField(lat, lng)</c>: the value is <c>{ lat, lng }</c>.</summary>
    Point,

    /// <summary><c>createSpatialField(wkt)</c>: the value is WKT text.</summary>
    Wkt,
}
