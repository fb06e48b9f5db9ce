namespace Folio.Server.Routing;

/// <summary>Outcome of a route lookup.</summary>
public enum RouteMatchKind
{
    /// <summary>No route has this path.</summary>
    NotFound,

    /// <summary>A route has this path and method.</summary>
    Found,

    /// <summary>Routes have this path, but none for this method.</summary>
    MethodNotAllowed,
}
