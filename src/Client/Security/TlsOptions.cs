using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;

namespace Folio.Client.Security;

/// <summary>
/// How the store speaks TLS to a server started with a certificate: over HTTPS, the changes WebSocket and the TCP
/// connection of subscription workers. Set it before <see cref="DocumentStore.Initialize"/>.
/// </summary>
public sealed class TlsOptions
{
    private readonly HashSet<string> _trustedThumbprints = new(StringComparer.OrdinalIgnoreCase);

    /// <summary>
    /// Whether subscription workers wrap their TCP connection in TLS. Null (the default) follows the url in use:
    /// TLS when it is <c>https</c>, as a server with a certificate speaks TLS on both listeners.
    /// </summary>
    public bool? UseTlsForSubscriptions { get; set; }

    /// <summary>
    /// The client certificate, with its private key, presented on every TLS connection; the server takes it as the
    /// credential when its thumbprint is registered (<c>/admin/certificates</c>). Null presents none.
    /// </summary>
    public X509Certificate2? ClientCertificate { get; set; }

    /// <summary>
    /// Thumbprints (SHA-256 or SHA-1, hex; spaces and colons ignored) of server certificates accepted although the
    /// machine does not trust them, e.g. a self-signed certificate. Any other certificate must pass the usual
    /// chain and name validation.
    /// </summary>
    public IReadOnlyCollection<string> TrustedServerThumbprints => _trustedThumbprints;

    /// <summary>Accepts the server certificate whose thumbprint this is (see <see cref="TrustedServerThumbprints"/>).</summary>
    /// <param name="thumbprint">SHA-256 or SHA-1 thumbprint in hex.</param>
    /// <returns>These options.</returns>
    /// <exception cref="ArgumentException">The text is not a SHA-256 or SHA-1 thumbprint.</exception>
    public TlsOptions TrustServerThumbprint(string thumbprint)
    {
        ArgumentNullException.ThrowIfNull(thumbprint);
        string hex = thumbprint.Replace(":", string.Empty, StringComparison.Ordinal).Replace(" ", string.Empty, StringComparison.Ordinal);
        if ((hex.Length != 64 && hex.Length != 40) || !IsHex(hex))
            throw new ArgumentException($"'{thumbprint}' is not a SHA-256 (64 hex digits) or SHA-1 (40 hex digits) thumbprint.", nameof(thumbprint));
        _trustedThumbprints.Add(hex);
        return this;
    }

    /// <summary>Accepts this server certificate (its SHA-256 thumbprint), e.g. the public part of a self-signed one.</summary>
    /// <param name="certificate">The server's certificate; its private key is not needed.</param>
    /// <returns>These options.</returns>
    public TlsOptions TrustServerCertificate(X509Certificate2 certificate)
    {
        ArgumentNullException.ThrowIfNull(certificate);
        return TrustServerThumbprint(certificate.GetCertHashString(HashAlgorithmName.SHA256));
    }

    private static bool IsHex(string text)
    {
        foreach (char c in text)
        {
            if (!char.IsAsciiHexDigit(c))
                return false;
        }

        return true;
    }
}
