namespace Folio.Server.Security;

/// <summary>What a credential may do; each level includes the ones below it.</summary>
public enum Clearance
{
    /// <summary>Read the credential's databases: documents, queries, indexes, changes, subscriptions, export.</summary>
    Read = 1,

    /// <summary>Read and change the credential's databases (documents, indexes, subscriptions, import).</summary>
    ReadWrite = 2,

    /// <summary>Everything, on every database and the server: databases, credentials, statistics, metrics.</summary>
    Admin = 3,
}
