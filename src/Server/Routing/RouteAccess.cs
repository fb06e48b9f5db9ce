namespace Folio.Server.Routing;

/// <summary>
/// What a caller needs to be served a route when the server requires authentication (<c>Security:Authentication</c>).
/// Every route declares one through <see cref="FolioRouteAttribute.Access"/>; without authentication every route is open,
/// which the server only allows on loopback.
/// </summary>
public enum RouteAccess
{
    /// <summary>
    /// The declaration says nothing. Served only to <c>Admin</c> callers, so a forgotten classification fails closed;
    /// the route-by-clearance test refuses it and names the declaration to fix.
    /// </summary>
    Unclassified = 0,

    /// <summary>Served to anyone, without credentials: probes, this API's description, the studio's static files.</summary>
    Public,

    /// <summary>Any caller with valid credentials, whatever its clearance (the handler narrows what it shows, e.g. the database list).</summary>
    Authenticated,

    /// <summary>Reads the <c>{db}</c> of the path: <c>Read</c>, <c>ReadWrite</c> or <c>Admin</c> on that database.</summary>
    DatabaseRead,

    /// <summary>Changes the <c>{db}</c> of the path: <c>ReadWrite</c> or <c>Admin</c> on that database.</summary>
    DatabaseWrite,

    /// <summary>Server-wide operations (creating databases, credentials, server statistics): <c>Admin</c> only.</summary>
    Admin,
}
