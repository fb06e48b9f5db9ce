using Folio.Server.Routing;

namespace Folio.Server.Security;

/// <summary>
/// A registered API key or client certificate and its clearance. Immutable: creating or revoking one replaces the
/// store's snapshot. Holds no secret: a key is kept as the SHA-256 of its text, a certificate as its thumbprint.
/// </summary>
public sealed class Credential
{
    /// <summary>The database list that means every database.</summary>
    public const string AllDatabases = "*";

    /// <summary>Creates a credential.</summary>
    /// <param name="name">Unique name among credentials of its kind.</param>
    /// <param name="kind">Key or certificate.</param>
    /// <param name="clearance">What it may do.</param>
    /// <param name="databases">Databases it may use (ignoring case); <c>*</c> alone for all. Admin credentials use all.</param>
    /// <param name="identifier">The key's public id, or the certificate's upper-case hex thumbprint (SHA-256 or SHA-1).</param>
    /// <param name="keyHash">SHA-256 of the whole key, for keys; empty for certificates.</param>
    /// <param name="createdAt">When it was registered.</param>
    public Credential(string name, CredentialKind kind, Clearance clearance, IReadOnlyList<string> databases, string identifier, byte[] keyHash, DateTimeOffset createdAt)
    {
        Name = name;
        Kind = kind;
        Clearance = clearance;
        Databases = databases;
        Identifier = identifier;
        KeyHash = keyHash;
        CreatedAt = createdAt;
        AllowsEveryDatabase = clearance == Clearance.Admin || (databases.Count == 1 && databases[0] == AllDatabases);
    }

    /// <summary>Unique name among credentials of its kind.</summary>
    public string Name { get; }

    /// <summary>Key or certificate.</summary>
    public CredentialKind Kind { get; }

    /// <summary>What it may do.</summary>
    public Clearance Clearance { get; }

    /// <summary>The databases it may use; <c>["*"]</c> for all.</summary>
    public IReadOnlyList<string> Databases { get; }

    /// <summary>The key's public id (the part of the key before the secret), or the certificate's thumbprint.</summary>
    public string Identifier { get; }

    /// <summary>SHA-256 of the key's text; empty for a certificate.</summary>
    internal byte[] KeyHash { get; }

    /// <summary>When it was registered.</summary>
    public DateTimeOffset CreatedAt { get; }

    /// <summary>Whether it reaches every database.</summary>
    public bool AllowsEveryDatabase { get; }

    /// <summary>Whether this credential may be served a route of the given access on the given database; allocates nothing.</summary>
    /// <param name="access">What the route requires.</param>
    /// <param name="database">The route's <c>{db}</c> segment, empty when it has none.</param>
    /// <returns>True when allowed.</returns>
    public bool Allows(RouteAccess access, ReadOnlySpan<char> database) => access switch
    {
        RouteAccess.Public or RouteAccess.Authenticated => true,
        RouteAccess.DatabaseRead => CanUse(database),
        RouteAccess.DatabaseWrite => Clearance >= Clearance.ReadWrite && CanUse(database),
        _ => Clearance == Clearance.Admin,
    };

    /// <summary>Whether the credential may read the named database.</summary>
    /// <param name="database">The database's name, in any casing.</param>
    /// <returns>True when it is one of its databases.</returns>
    public bool CanUse(ReadOnlySpan<char> database)
    {
        if (AllowsEveryDatabase)
            return true;
        if (database.IsEmpty)
            return false;
        for (int i = 0; i < Databases.Count; i++)
        {
            if (database.Equals(Databases[i], StringComparison.OrdinalIgnoreCase))
                return true;
        }

        return false;
    }
}
