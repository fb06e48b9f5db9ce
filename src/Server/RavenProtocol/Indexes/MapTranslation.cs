namespace Folio.Server.RavenProtocol.Indexes;

/// <summary>What a map of the seeds' system's index definitions becomes: its collection and its fields' paths by name.</summary>
/// <param name="Collection">The collection the map reads (<c>docs.Users</c>, <c>map('Users', …)</c>).</param>
/// <param name="Fields">Index field name → Folio path (<c>Address.City</c>, <c>Lines[].Product</c>), in written order.</param>
/// <param name="Constants">Index field name → the number literal the map gives it (<c>count: 1</c>): meaningful only to a
/// reduce, which counts them; a map-only index with one is refused.</param>
public sealed record MapTranslation(string Collection, IReadOnlyList<KeyValuePair<string, string>> Fields, IReadOnlyList<KeyValuePair<string, string>> Constants);
