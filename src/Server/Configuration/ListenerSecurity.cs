using System.Net;
using Folio.Server.Security;

namespace Folio.Server.Configuration;

/// <summary>
/// The rules tying the listen address to security: a server without authentication serves loopback only (as the
/// seeds' system does), and https:// goes with a certificate.
/// </summary>
internal static class ListenerSecurity
{
    /// <summary>Lists what is wrong with serving this address with these security settings.</summary>
    /// <param name="url">The parsed <c>ServerUrl</c>.</param>
    /// <param name="address">The address it listens on.</param>
    /// <param name="security">The security settings.</param>
    /// <returns>One message per problem.</returns>
    public static IEnumerable<string> Check(Uri url, IPAddress address, SecurityOptions security)
    {
        if (url.Scheme == Uri.UriSchemeHttps && !security.UsesTls)
            yield return $"ServerUrl '{url}' is https:// but no certificate is configured: set Security:Certificate:Path to a .pfx file (with Security:Certificate:Password) or to a PEM certificate (with Security:Certificate:KeyPath).";
        if (url.Scheme == Uri.UriSchemeHttp && security.UsesTls)
            yield return $"Security:Certificate:Path is set, so ServerUrl must be https:// (it is '{url}').";
        if (!IPAddress.IsLoopback(address) && !security.RequiresAuthentication && !security.AllowUnsecuredNetworkAccess)
        {
            yield return $"ServerUrl '{url}' listens beyond loopback without authentication, so anyone who reaches it could read and delete every database. "
                + "Either listen on 127.0.0.1, or secure the server: set Security:Authentication=Required and create the first admin key with "
                + "`Folio.Server api-keys create --Name=admin --Clearance=Admin` (same DataDir), preferably with HTTPS (Security:Certificate:Path, ServerUrl https://…); "
                + "see docs/operations.md, \"Security\". (Behind a proxy that already authenticates, Security:AllowUnsecuredNetworkAccess=true accepts the risk.)";
        }
    }
}
