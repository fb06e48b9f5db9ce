namespace Folio.Server.RavenProtocol;

/// <summary>
/// The server version Folio answers the seeds' system's clients with (<c>Raven-Server-Version</c>). Those clients
/// switch protocol features on by it: from 5.2 on, a cluster-wide batch carries each document's
/// <c>OriginalChangeVector</c>, which Folio's atomic guards check. 5.4.0 is the protocol Folio speaks; below
/// 5.4.110, so the clients' bulk inserts send no heartbeats Folio does not read.
/// </summary>
public static class RavenServerVersion
{
    /// <summary>The response header the clients read the version from.</summary>
    public const string Header = "Raven-Server-Version";

    /// <summary>The version answered.</summary>
    public const string Value = "5.4.0";

    /// <summary>Adds the header to the response of a request from one of those clients.</summary>
    /// <param name="context">The request's context, before the response starts.</param>
    public static void Announce(HttpContext context)
    {
        if (RavenClientErrors.IsRavenClient(context.Request))
            context.Response.Headers[Header] = Value;
    }
}
