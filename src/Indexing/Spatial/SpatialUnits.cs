namespace Folio.Indexing.Spatial;

/// <summary>The unit of a circle's radius and of distances in answers.</summary>
public enum SpatialUnits
{
    /// <summary>Kilometres (the default).</summary>
    Kilometers,

    /// <summary>Statute miles.</summary>
    Miles,
}
