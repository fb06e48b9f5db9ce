using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using Folio.Server.Configuration;
using Microsoft.AspNetCore.Server.Kestrel.Https;

namespace Folio.Server.Security;

/// <summary>Loads the server's certificate from <see cref="CertificateOptions"/> and sets Kestrel's TLS options from it.</summary>
internal static class ServerCertificate
{
    /// <summary>Loads the certificate: PKCS#12 by extension (<c>.pfx</c>, <c>.p12</c>), else PEM.</summary>
    /// <param name="options">Where it is.</param>
    /// <returns>The certificate with its private key.</returns>
    /// <exception cref="ServerConfigurationException">It cannot be read or has no private key.</exception>
    public static X509Certificate2 Load(CertificateOptions options)
    {
        X509Certificate2 certificate;
        try
        {
            string extension = Path.GetExtension(options.Path).ToLowerInvariant();
            if (extension is ".pfx" or ".p12")
            {
                certificate = X509CertificateLoader.LoadPkcs12FromFile(options.Path, string.IsNullOrEmpty(options.Password) ? null : options.Password);
            }
            else
            {
                string keyPath = string.IsNullOrWhiteSpace(options.KeyPath) ? options.Path : options.KeyPath;
                using X509Certificate2 pem = string.IsNullOrEmpty(options.Password)
                    ? X509Certificate2.CreateFromPemFile(options.Path, keyPath)
                    : X509Certificate2.CreateFromEncryptedPemFile(options.Path, options.Password, keyPath);
                // A PEM key is ephemeral; TLS on some platforms needs it as a stored key, which a PKCS#12 round trip gives.
                certificate = X509CertificateLoader.LoadPkcs12(pem.Export(X509ContentType.Pkcs12), null);
            }
        }
        catch (Exception ex) when (ex is CryptographicException or IOException or UnauthorizedAccessException or ArgumentException)
        {
            throw new ServerConfigurationException($"Invalid configuration: Security:Certificate '{options.Path}' cannot be loaded: {ex.Message}");
        }

        if (!certificate.HasPrivateKey)
        {
            certificate.Dispose();
            throw new ServerConfigurationException($"Invalid configuration: Security:Certificate '{options.Path}' has no private key; give the key in the file or in Security:Certificate:KeyPath.");
        }

        return certificate;
    }

    /// <summary>
    /// TLS with this certificate; a client certificate is asked for but not required, and accepted whoever issued it:
    /// it only counts once its thumbprint is registered (<see cref="CredentialStore"/>).
    /// </summary>
    /// <param name="https">Kestrel's TLS options of one listener.</param>
    /// <param name="certificate">The server's certificate.</param>
    public static void Configure(HttpsConnectionAdapterOptions https, X509Certificate2 certificate)
    {
        https.ServerCertificate = certificate;
        https.ClientCertificateMode = ClientCertificateMode.AllowCertificate;
        https.ClientCertificateValidation = static (_, _, _) => true;
        https.CheckCertificateRevocation = false;
    }
}
