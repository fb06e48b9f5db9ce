namespace Folio.Indexing.Definitions;

/// <summary>
/// One field of an index definition: where its values come from and how they are indexed; <paramref name="Analyzer"/>
/// names the analyzer of a text field (<see cref="Analysis.NamedAnalyzers"/>, canonically spelled), null for the default.
/// </summary>
public sealed record IndexFieldDefinition(FieldPath Path, IndexFieldType Type = IndexFieldType.String, bool Search = false, bool CaseSensitive = false, string? Analyzer = null)
{
    /// <summary>
    /// Where a spatial field's points come from (<c>"Spatial": {"Latitude", "Longitude"}</c> or <c>{"Wkt"}</c>); null for
    /// any other field. A spatial field keeps each point as a <see cref="Spatial.SpatialTerm"/> for <c>spatial.*</c> queries,
    /// and its <see cref="Path"/> is the source's <see cref="Spatial.SpatialSource.MainPath"/>.
    /// </summary>
    public Spatial.SpatialSource? Spatial { get; init; }

    /// <summary>A spatial field reading <paramref name="source"/>.</summary>
    public static IndexFieldDefinition ForSpatial(Spatial.SpatialSource source) => new(source.MainPath) { Spatial = source };
}
