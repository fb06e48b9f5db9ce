namespace Folio.Server.Security;

/// <summary>Whether the server asks callers who they are (<c>Security:Authentication</c>).</summary>
public enum AuthenticationMode
{
    /// <summary>Every route is open to anyone who reaches the server; allowed on loopback only.</summary>
    None,

    /// <summary>Every route but the public ones needs an API key or a registered client certificate with enough clearance.</summary>
    Required,
}
