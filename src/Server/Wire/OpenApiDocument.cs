using Folio.Server.Routing;

namespace Folio.Server.Wire;

/// <summary>
/// The OpenAPI document a server serves at <c>GET /openapi/v1.json</c>, generated once its route table is built
/// (<see cref="OpenApiGenerator"/>) and before it listens, so it covers every route the server answers, added
/// handlers included.
/// </summary>
public sealed class OpenApiDocument
{
    private ReadOnlyMemory<byte> _utf8;

    /// <summary>The document's UTF-8 bytes, exactly as served.</summary>
    /// <exception cref="InvalidOperationException">The route table is not built yet.</exception>
    public ReadOnlyMemory<byte> Utf8 => _utf8.IsEmpty ? throw new InvalidOperationException("The OpenAPI document is generated once the route table is built.") : _utf8;

    /// <summary>Generates the document for the server's routes, with the descriptions embedded from <c>Wire/openapi.json</c>.</summary>
    /// <param name="routes">The router's declarations.</param>
    internal void Generate(IReadOnlyList<RouteDeclaration> routes) =>
        _utf8 = OpenApiGenerator.Generate(routes, OpenApiHandler.Descriptions.Span);
}
