namespace Folio.Server.Databases;

/// <summary>
/// A changes feed's or subscription session's registration on a database, from <see cref="Database.Listen"/>:
/// while it is out, the database is not unloaded for being idle. Dispose it exactly once and do not copy it.
/// </summary>
public readonly struct DatabaseListener : IDisposable
{
    private readonly Database? _database;

    internal DatabaseListener(Database database)
    {
        _database = database;
    }

    /// <summary>Ends the registration.</summary>
    public void Dispose() => _database?.StopListening();
}
