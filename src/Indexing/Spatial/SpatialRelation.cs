namespace Folio.Indexing.Spatial;

/// <summary>How a document's point must relate to a query's shape.</summary>
public enum SpatialRelation
{
    /// <summary>The point lies in the shape (its boundary included).</summary>
    Within,

    /// <summary>The point touches the shape: for a point, the same as <see cref="Within"/>.</summary>
    Intersects,

    /// <summary>No point of the document lies in the shape.</summary>
    Disjoint,
}
