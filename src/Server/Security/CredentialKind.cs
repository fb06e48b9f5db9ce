namespace Folio.Server.Security;

/// <summary>How a caller proves who it is.</summary>
public enum CredentialKind
{
    /// <summary>An API key in <c>Authorization: ApiKey …</c> (or the TCP header's <c>ApiKey</c>).</summary>
    ApiKey,

    /// <summary>A TLS client certificate, known by its thumbprint.</summary>
    Certificate,
}
