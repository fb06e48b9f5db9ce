using Folio.Indexing.Spatial;

namespace Folio.Indexing.Queries;

/// <summary>
/// Entries with a point of a spatial field (<see cref="SpatialTerm"/> terms) in <see cref="Shape"/>: an engine walks the
/// field's terms in each of <see cref="Ranges"/> and takes those whose point the shape contains.
/// </summary>
public sealed class SpatialQuery : Query
{
    /// <summary>A query for the points of <paramref name="field"/> in <paramref name="shape"/>.</summary>
    public SpatialQuery(string field, SpatialShape shape)
    {
        ArgumentNullException.ThrowIfNull(shape);
        Field = field;
        Shape = shape;
        Ranges = SpatialCover.Ranges(shape.Bounds);
    }

    /// <summary>The spatial field.</summary>
    public string Field { get; }

    /// <summary>The shape points must lie in.</summary>
    public SpatialShape Shape { get; }

    /// <summary>The Morton cell ranges that hold the shape (<see cref="SpatialCover"/>), increasing.</summary>
    public IReadOnlyList<(ulong Low, ulong High)> Ranges { get; }
}
