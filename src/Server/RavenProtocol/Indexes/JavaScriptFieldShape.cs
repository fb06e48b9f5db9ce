namespace Folio.Server.RavenProtocol.Indexes;

/// <summary>How a JavaScript map gives one field.</summary>
/// <param name="Spatial">Whether its values are points (and of which form).</param>
/// <param name="Search">Whether the program asks for full-text indexing of it.</param>
public readonly record struct JavaScriptFieldShape(JavaScriptSpatial Spatial, bool Search);
