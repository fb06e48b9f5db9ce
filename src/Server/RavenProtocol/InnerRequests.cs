namespace Folio.Server.RavenProtocol;

/// <summary>
/// Runs a request built inside the server through the same routes, errors and logging as one from the network;
/// <c>multi_get</c> answers its parts this way. Set once the router exists.
/// </summary>
public sealed class InnerRequests
{
    /// <summary>The server's dispatcher.</summary>
    internal Func<HttpContext, Task>? Dispatch { get; set; }
}
