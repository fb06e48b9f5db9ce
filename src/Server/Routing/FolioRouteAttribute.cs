namespace Folio.Server.Routing;

/// <summary>
/// Declares that a public instance method of a handler class serves a route. The method must have the
/// shape of <see cref="FolioRequestHandler"/>: <c>ValueTask Name(FolioRequest request)</c>.
/// A method may carry several routes.
/// </summary>
[AttributeUsage(AttributeTargets.Method, AllowMultiple = true, Inherited = false)]
public sealed class FolioRouteAttribute : Attribute
{
    /// <summary>Declares a route.</summary>
    /// <param name="method">HTTP method, e.g. <c>GET</c>.</param>
    /// <param name="template">Path template, e.g. <c>/databases/{db}/docs</c> or <c>/studio/{*path}</c>; see <see cref="FolioRouter"/> for the syntax and precedence.</param>
    public FolioRouteAttribute(string method, string template)
    {
        Method = method;
        Template = template;
    }

    /// <summary>HTTP method served.</summary>
    public string Method { get; }

    /// <summary>Path template served.</summary>
    public string Template { get; }

    /// <summary>
    /// What a caller needs when the server requires authentication. Every route must say; one left
    /// <see cref="RouteAccess.Unclassified"/> is served to admins only and fails the route-by-clearance test.
    /// </summary>
    public RouteAccess Access { get; set; }
}
