using Folio.Indexing.Spatial;

namespace Folio.Server.RavenProtocol.Indexes;

/// <summary>What a map of the seeds' system's index definitions becomes: its collection and its fields' paths by name.</summary>
/// <param name="Collection">The collection the map reads (<c>docs.Users</c>, <c>map('Users', …)</c>).</param>
/// <param name="Fields">Index field name → Folio path (<c>Address.City</c>, <c>Lines[].Product</c>), in written order.</param>
/// <param name="Constants">Index field name → the number literal the map gives it (<c>count: 1</c>): meaningful only to a
/// reduce, which counts them; a map-only index with one is refused.</param>
public sealed record MapTranslation(string Collection, IReadOnlyList<KeyValuePair<string, string>> Fields, IReadOnlyList<KeyValuePair<string, string>> Constants)
{
    /// <summary>
    /// Index field name → where its points come from, for fields the map gives <c>createSpatialField(d.lat, d.lng)</c>
    /// (or C#'s <c>CreateSpatialField</c>, or one path of WKT points): Folio's spatial fields (docs/rql.md#spatial).
    /// </summary>
    public IReadOnlyList<KeyValuePair<string, SpatialSource>> Spatial { get; init; } = [];
}
