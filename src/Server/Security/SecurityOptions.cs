namespace Folio.Server.Security;

/// <summary>
/// Authentication and TLS, bound from the <c>Security</c> section (e.g. <c>--Security:Authentication=Required</c>).
/// Without authentication the server only listens on loopback, unless <see cref="AllowUnsecuredNetworkAccess"/> says otherwise.
/// </summary>
public sealed class SecurityOptions
{
    /// <summary>Whether callers must present credentials (<c>None</c> by default: every route is open, loopback only).</summary>
    public AuthenticationMode Authentication { get; set; } = AuthenticationMode.None;

    /// <summary>
    /// Lets a server without authentication listen beyond loopback (default false). Only for a server that a trusted
    /// proxy or network already guards: anyone who reaches it can read and delete every database.
    /// </summary>
    public bool AllowUnsecuredNetworkAccess { get; set; }

    /// <summary>The server certificate that turns on HTTPS (and TLS on the TCP listener).</summary>
    public CertificateOptions Certificate { get; set; } = new();

    /// <summary>
    /// Failed authentications one client address may make per minute (default 10); past it, every request from that
    /// address carrying credentials is answered 429 until the minute is over, without checking them.
    /// </summary>
    public int MaxFailedAttemptsPerMinute { get; set; } = 10;

    /// <summary>Whether requests need credentials.</summary>
    public bool RequiresAuthentication => Authentication == AuthenticationMode.Required;

    /// <summary>Whether a certificate is configured, so the listeners speak TLS.</summary>
    public bool UsesTls => !string.IsNullOrWhiteSpace(Certificate.Path);

    /// <summary>Lists the settings that are out of range.</summary>
    /// <returns>One message per invalid setting.</returns>
    public IEnumerable<string> Validate()
    {
        if (!Enum.IsDefined(Authentication))
            yield return "Security:Authentication must be None or Required.";
        if (MaxFailedAttemptsPerMinute < 1)
            yield return "Security:MaxFailedAttemptsPerMinute must be at least 1.";
        if (!UsesTls && (!string.IsNullOrWhiteSpace(Certificate.KeyPath) || !string.IsNullOrEmpty(Certificate.Password)))
            yield return "Security:Certificate:KeyPath and Password need Security:Certificate:Path.";
        if (UsesTls && !File.Exists(Certificate.Path))
            yield return $"Security:Certificate:Path '{Certificate.Path}' does not exist.";
        if (UsesTls && !string.IsNullOrWhiteSpace(Certificate.KeyPath) && !File.Exists(Certificate.KeyPath))
            yield return $"Security:Certificate:KeyPath '{Certificate.KeyPath}' does not exist.";
    }
}
