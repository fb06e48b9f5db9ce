namespace Folio.Server.Security;

/// <summary>The server's TLS certificate (<c>Security:Certificate</c>): a PKCS#12 file, or a PEM certificate with its key.</summary>
public sealed class CertificateOptions
{
    /// <summary>A <c>.pfx</c>/<c>.p12</c> file, or a PEM certificate (<c>.pem</c>/<c>.crt</c>); empty means no TLS.</summary>
    public string Path { get; set; } = string.Empty;

    /// <summary>The PEM private key, when <see cref="Path"/> is a PEM certificate without its key in the same file.</summary>
    public string KeyPath { get; set; } = string.Empty;

    /// <summary>The PKCS#12 file's password, or the PEM key's when it is encrypted.</summary>
    public string Password { get; set; } = string.Empty;
}
