namespace Folio.Server.Databases;

/// <summary>
/// A lease on a database for the length of a <c>using</c> block, from <see cref="DatabaseRegistry.Lease"/>:
/// while it is out, deleting or closing the database waits instead of unmapping storage under the request.
/// A struct, so taking one allocates nothing; dispose it exactly once and do not copy it, since every
/// disposed copy would hand the lease back again.
/// </summary>
public readonly struct DatabaseLease : IDisposable
{
    internal DatabaseLease(Database database)
    {
        Database = database;
    }

    /// <summary>The leased database.</summary>
    public Database Database { get; }

    /// <summary>Hands the lease back (<see cref="Databases.Database.Exit"/>).</summary>
    public void Dispose() => Database?.Exit();
}
