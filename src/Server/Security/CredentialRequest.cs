using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using System.Text.Json;
using Folio.Server.Databases;

namespace Folio.Server.Security;

/// <summary>
/// What registering a credential asks for, checked the same way for the admin endpoints and the command line:
/// <c>{"Name","Clearance","Databases"}</c>, and for a certificate <c>"Thumbprint"</c> or <c>"Certificate"</c> (PEM).
/// </summary>
/// <param name="Name">Unique among credentials of its kind.</param>
/// <param name="Clearance">What it may do.</param>
/// <param name="Databases">Its databases; <c>["*"]</c> for all.</param>
/// <param name="Thumbprint">For a certificate, its upper-case hex thumbprint; null for a key.</param>
public sealed record CredentialRequest(string Name, Clearance Clearance, IReadOnlyList<string> Databases, string? Thumbprint)
{
    /// <summary>Longest credential name.</summary>
    public const int MaxNameLength = 128;

    /// <summary>Reads and checks a request body.</summary>
    /// <param name="root">The body.</param>
    /// <param name="kind">What is registered.</param>
    /// <returns>The checked request.</returns>
    /// <exception cref="ArgumentException">The body is not a valid request; the message says what is wrong.</exception>
    public static CredentialRequest Read(JsonElement root, CredentialKind kind)
    {
        if (root.ValueKind != JsonValueKind.Object)
            throw new ArgumentException(kind == CredentialKind.ApiKey
                ? "The body must be an object {\"Name\",\"Clearance\",\"Databases\"}."
                : "The body must be an object {\"Name\",\"Clearance\",\"Databases\",\"Thumbprint\" or \"Certificate\"}.");
        string name = String(root, "Name") ?? throw new ArgumentException("\"Name\" must be a non-empty string.");
        string clearance = String(root, "Clearance") ?? throw new ArgumentException("\"Clearance\" must be \"Admin\", \"ReadWrite\" or \"Read\".");
        List<string>? databases = null;
        if (root.TryGetProperty("Databases", out JsonElement list) && list.ValueKind != JsonValueKind.Null)
        {
            if (list.ValueKind != JsonValueKind.Array)
                throw new ArgumentException("\"Databases\" must be an array of database names, or [\"*\"] for all.");
            databases = [];
            foreach (JsonElement item in list.EnumerateArray())
                databases.Add(item.ValueKind == JsonValueKind.String ? item.GetString()! : throw new ArgumentException("\"Databases\" must hold strings."));
        }

        string? thumbprint = null;
        if (kind == CredentialKind.Certificate)
        {
            string? given = String(root, "Thumbprint");
            string? pem = String(root, "Certificate");
            if ((given is null) == (pem is null))
                throw new ArgumentException("Give the certificate as \"Thumbprint\" (hex SHA-256 or SHA-1) or as \"Certificate\" (PEM), one of them.");
            thumbprint = given is not null ? NormalizeThumbprint(given) : ThumbprintOfPem(pem!);
        }

        return Create(name, clearance, databases, thumbprint);
    }

    /// <summary>Checks the parts of a request.</summary>
    /// <param name="name">The name.</param>
    /// <param name="clearance">"Admin", "ReadWrite" or "Read" (any case).</param>
    /// <param name="databases">The databases, null or empty for none given.</param>
    /// <param name="thumbprint">A checked thumbprint for a certificate, or null.</param>
    /// <returns>The checked request.</returns>
    /// <exception cref="ArgumentException">A part is invalid.</exception>
    public static CredentialRequest Create(string name, string clearance, IReadOnlyList<string>? databases, string? thumbprint)
    {
        if (name.Length is 0 or > MaxNameLength || name.Any(char.IsControl) || name.Trim().Length != name.Length)
            throw new ArgumentException($"\"Name\" must be 1 to {MaxNameLength} characters, without control characters or spaces around it.");
        if (!Enum.TryParse(clearance, ignoreCase: true, out Clearance level) || !Enum.IsDefined(level) || int.TryParse(clearance, out _))
            throw new ArgumentException($"\"Clearance\" '{clearance}' must be \"Admin\", \"ReadWrite\" or \"Read\".");

        databases ??= [];
        if (level == Clearance.Admin)
        {
            if (databases.Count > 0 && !(databases.Count == 1 && databases[0] == Credential.AllDatabases))
                throw new ArgumentException("An Admin credential reaches every database; give no \"Databases\" (or [\"*\"]).");
            return new CredentialRequest(name, level, [Credential.AllDatabases], thumbprint);
        }

        if (databases.Count == 0)
            throw new ArgumentException($"A {level} credential needs \"Databases\": the names it may use, or [\"*\"] for all.");
        if (databases.Count > 1 && databases.Contains(Credential.AllDatabases))
            throw new ArgumentException("\"*\" means every database and stands alone in \"Databases\".");
        foreach (string database in databases)
        {
            if (database != Credential.AllDatabases && DatabaseName.Check(database) != DatabaseNameError.None)
                throw new ArgumentException($"'{database}' in \"Databases\" is not a valid database name.");
        }

        return new CredentialRequest(name, level, databases.Distinct(StringComparer.OrdinalIgnoreCase).ToArray(), thumbprint);
    }

    /// <summary>Checks a hex thumbprint (colons and spaces allowed, as tools print them) and upper-cases it.</summary>
    /// <param name="thumbprint">SHA-256 (64 digits) or SHA-1 (40 digits).</param>
    /// <returns>Upper-case hex.</returns>
    /// <exception cref="ArgumentException">Not such a thumbprint.</exception>
    public static string NormalizeThumbprint(string thumbprint)
    {
        string hex = thumbprint.Replace(":", string.Empty, StringComparison.Ordinal).Replace(" ", string.Empty, StringComparison.Ordinal).ToUpperInvariant();
        if (hex.Length is not (64 or 40) || !hex.All(char.IsAsciiHexDigit))
            throw new ArgumentException("\"Thumbprint\" must be a certificate's SHA-256 (64 hex digits) or SHA-1 (40 hex digits) thumbprint.");
        return hex;
    }

    /// <summary>The SHA-256 thumbprint of a PEM certificate.</summary>
    /// <param name="pem">The certificate, <c>-----BEGIN CERTIFICATE-----…</c>.</param>
    /// <returns>Upper-case hex.</returns>
    /// <exception cref="ArgumentException">Not a PEM certificate.</exception>
    public static string ThumbprintOfPem(string pem)
    {
        try
        {
            using X509Certificate2 certificate = X509Certificate2.CreateFromPem(pem);
            return certificate.GetCertHashString(HashAlgorithmName.SHA256);
        }
        catch (CryptographicException ex)
        {
            throw new ArgumentException($"\"Certificate\" is not a PEM certificate: {ex.Message}", ex);
        }
    }

    private static string? String(JsonElement root, string name) =>
        root.TryGetProperty(name, out JsonElement value) && value.ValueKind == JsonValueKind.String && value.GetString() is { Length: > 0 } text ? text : null;
}
