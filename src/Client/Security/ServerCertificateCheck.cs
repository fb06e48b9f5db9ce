using System.Net.Security;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;

namespace Folio.Client.Security;

/// <summary>
/// The one decision, for HTTPS, the WebSocket and the subscriptions' TLS alike, whether a server certificate is
/// accepted: one the machine validates, or one whose thumbprint <see cref="TlsOptions"/> trusts.
/// </summary>
internal sealed class ServerCertificateCheck(IReadOnlyCollection<string> trustedThumbprints)
{
    private readonly HashSet<string> _trusted = new(trustedThumbprints, StringComparer.OrdinalIgnoreCase);

    /// <summary>Fits <see cref="RemoteCertificateValidationCallback"/>.</summary>
    public bool Validate(object? sender, X509Certificate? certificate, X509Chain? chain, SslPolicyErrors errors)
    {
        if (errors == SslPolicyErrors.None)
            return true;
        if (certificate is null || _trusted.Count == 0 || (errors & SslPolicyErrors.RemoteCertificateNotAvailable) != 0)
            return false;
        // A pinned certificate is trusted for what it is, whoever issued it and whatever name it carries.
        return _trusted.Contains(certificate.GetCertHashString(HashAlgorithmName.SHA256)) || _trusted.Contains(certificate.GetCertHashString());
    }
}
