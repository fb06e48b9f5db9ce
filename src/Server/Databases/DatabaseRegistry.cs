using Folio.Indexing.Documents;
using Folio.Indexing.Engines;
using System.Collections.Concurrent;
using Folio.Server.Configuration;
using Folio.Server.Http;
using Folio.Storage;
using Folio.Storage.Documents;
using Folio.Storage.Documents.Compression;

namespace Folio.Server.Databases;

/// <summary>
/// The server's databases, each under <c>DataDir/Databases/{name}</c>. Names resolve case-insensitively
/// through a concurrent dictionary probed with the path's span, so finding a database allocates nothing
/// and takes no lock; creating and deleting are serialized among themselves. Databases found on disk are
/// opened at start; disposing closes them all once the requests using them are done.
/// </summary>
public sealed class DatabaseRegistry : IAsyncDisposable
{
    /// <summary>The folder under the data directory that holds one directory per database.</summary>
    public const string DatabasesFolder = "Databases";

    /// <summary>The folder, inside a database's directory, holding its indexes.</summary>
    public const string IndexesFolder = "Indexes";

    private readonly ConcurrentDictionary<string, Database> _databases = new(StringComparer.OrdinalIgnoreCase);
    private readonly ConcurrentDictionary<string, Database>.AlternateLookup<ReadOnlySpan<char>> _bySpan;
    private readonly SemaphoreSlim _changes = new(1, 1);
    private readonly ILogger _logger;
    private readonly ILoggerFactory _loggers;
    private readonly long _journalFileSize;
    private readonly IndexStoreOptions _indexOptions;
    private readonly DocumentCompressionOptions _compression;
    private bool _disposed;

    /// <summary>Creates the registry and opens every database found under <see cref="RootDirectory"/>.</summary>
    /// <param name="options">Supplies the data directory.</param>
    /// <param name="logger">Where opening, creating and deleting are logged.</param>
    /// <param name="loggers">Creates the loggers of each database's indexes (none are written when null).</param>
    public DatabaseRegistry(ServerOptions options, ILogger<DatabaseRegistry> logger, ILoggerFactory? loggers = null)
    {
        ArgumentNullException.ThrowIfNull(options);
        _logger = logger;
        _loggers = loggers ?? Microsoft.Extensions.Logging.Abstractions.NullLoggerFactory.Instance;
        _journalFileSize = options.JournalFileSizeBytes;
        _compression = new DocumentCompressionOptions
        {
            Enabled = options.DocumentsCompression,
            UncompressedCollections = new HashSet<string>(options.UncompressedCollections.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries), StringComparer.OrdinalIgnoreCase),
        };
        _indexOptions = new IndexStoreOptions
        {
            AutoIndexIdleTimeout = options.AutoIndexIdleTimeout,
            MaintenanceInterval = options.IndexMaintenanceInterval,
            SearchEngine = SearchEngines.Get(options.Indexing.SearchEngine).Name,
        };
        _bySpan = _databases.GetAlternateLookup<ReadOnlySpan<char>>();
        RootDirectory = Path.Combine(options.DataDir, DatabasesFolder);
        Directory.CreateDirectory(RootDirectory);
        OpenExisting();
    }

    /// <summary>The directory holding one directory per database.</summary>
    public string RootDirectory { get; }

    /// <summary>Finds a database by name, in any casing, without allocating.</summary>
    /// <param name="name">The name, e.g. the <c>{db}</c> segment of a path.</param>
    /// <param name="database">The database when found.</param>
    /// <returns>True when it exists.</returns>
    public bool TryGet(ReadOnlySpan<char> name, [System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out Database? database) =>
        _bySpan.TryGetValue(name, out database);

    /// <summary>
    /// Finds a database and takes a lease on it; the caller must call <see cref="Database.Exit"/> when done
    /// (<see cref="Lease"/> does that at the end of a <c>using</c> block). Allocates nothing when the database exists.
    /// </summary>
    /// <param name="name">The name, e.g. <see cref="Routing.FolioRequest.DatabaseSpan"/>.</param>
    /// <returns>The database, leased.</returns>
    /// <exception cref="FolioHttpException">400 for a name no database can have; 404 when there is no such database (or it is being deleted).</exception>
    public Database Enter(ReadOnlySpan<char> name)
    {
        if (_bySpan.TryGetValue(name, out Database? database) && database.TryEnter())
            return database;
        throw NotFound(name);
    }

    /// <summary>
    /// Finds a database and takes a lease on it that a <c>using</c> block hands back, the form handlers use:
    /// <c>using (DatabaseLease lease = databases.Lease(request.DatabaseSpan)) { … }</c>.
    /// Allocates nothing when the database exists.
    /// </summary>
    /// <param name="name">The name, in any casing, e.g. <see cref="Routing.FolioRequest.DatabaseSpan"/>.</param>
    /// <returns>The lease.</returns>
    /// <exception cref="FolioHttpException">400 for a name no database can have; 404 when there is no such database (or it is being deleted).</exception>
    public DatabaseLease Lease(ReadOnlySpan<char> name) => new(Enter(name));

    /// <summary>The databases now, ordered by name.</summary>
    /// <returns>A snapshot.</returns>
    public IReadOnlyList<Database> List()
    {
        var list = new List<Database>(_databases.Count);
        foreach (KeyValuePair<string, Database> entry in _databases)
            list.Add(entry.Value);
        list.Sort(static (a, b) => StringComparer.OrdinalIgnoreCase.Compare(a.Name, b.Name));
        return list;
    }

    /// <summary>Creates a database with an empty store.</summary>
    /// <param name="name">The name; validated by <see cref="DatabaseName"/>.</param>
    /// <param name="cancellationToken">Abandons waiting for another create or delete.</param>
    /// <returns>The new database.</returns>
    /// <exception cref="FolioHttpException">400 for an invalid name; 409 when a database of that name (in any casing) exists.</exception>
    public async Task<Database> CreateAsync(string name, CancellationToken cancellationToken)
    {
        DatabaseName.Validate(name);
        await _changes.WaitAsync(cancellationToken).ConfigureAwait(false);
        try
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            if (_databases.TryGetValue(name, out Database? existing))
            {
                throw new FolioHttpException(
                    StatusCodes.Status409Conflict,
                    "Database exists",
                    $"A database named '{existing.Name}' already exists (names compare case-insensitively).",
                    ProblemTypes.DatabaseExists);
            }

            Database database = Open(name, Path.Combine(RootDirectory, name));
            _databases[name] = database;
            DatabaseLog.Created(_logger, name, database.Directory);
            return database;
        }
        finally
        {
            _changes.Release();
        }
    }

    /// <summary>
    /// Deletes a database: new requests stop finding it at once, requests using it finish (queued writes
    /// complete), then its store closes and its directory is removed.
    /// </summary>
    /// <param name="name">The name, in any casing.</param>
    /// <param name="cancellationToken">Abandons waiting for another create or delete.</param>
    /// <returns>False when there was no such database.</returns>
    public async Task<bool> DeleteAsync(string name, CancellationToken cancellationToken)
    {
        await _changes.WaitAsync(cancellationToken).ConfigureAwait(false);
        try
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            if (!_databases.TryRemove(name, out Database? database))
                return false;

            await database.CloseAsync().ConfigureAwait(false);
            Directory.Delete(database.Directory, recursive: true);
            DatabaseLog.Deleted(_logger, database.Name, database.Directory);
            return true;
        }
        finally
        {
            _changes.Release();
        }
    }

    /// <summary>Closes every database once the requests using it are done.</summary>
    /// <returns>Completes when all stores are closed.</returns>
    public async ValueTask DisposeAsync()
    {
        await _changes.WaitAsync().ConfigureAwait(false);
        try
        {
            if (_disposed)
                return;
            _disposed = true;
            var closing = new List<Task>(_databases.Count);
            foreach (KeyValuePair<string, Database> entry in _databases)
                closing.Add(entry.Value.CloseAsync());
            _databases.Clear();
            await Task.WhenAll(closing).ConfigureAwait(false);
        }
        finally
        {
            _changes.Release();
        }
    }

    private static FolioHttpException NotFound(ReadOnlySpan<char> name)
    {
        // Only on a miss: tell a malformed name (a typo'd path, a traversal attempt) apart from a missing database.
        DatabaseNameError error = DatabaseName.Check(name);
        if (error != DatabaseNameError.None)
        {
            return new FolioHttpException(
                StatusCodes.Status400BadRequest,
                "Invalid database name",
                DatabaseName.Describe(error),
                ProblemTypes.InvalidDatabaseName);
        }

        return new FolioHttpException(
            StatusCodes.Status404NotFound,
            "Database not found",
            $"There is no database named '{name}'.",
            ProblemTypes.DatabaseNotFound);
    }

    private Database Open(string name, string directory)
    {
        DocumentStore store = DocumentStore.Open(StorageOptions.ForPath(directory) with { JournalFileSize = _journalFileSize, MetricsName = name }, _compression);
        try
        {
            return new Database(name, directory, store, new IndexStore(store, Path.Combine(directory, IndexesFolder), _loggers, _indexOptions));
        }
        catch
        {
            store.Dispose();
            throw;
        }
    }

    private void OpenExisting()
    {
        foreach (string directory in Directory.EnumerateDirectories(RootDirectory))
        {
            string name = Path.GetFileName(directory);
            if (!DatabaseName.IsValid(name))
            {
                DatabaseLog.SkippedDirectory(_logger, directory, "its name is not a valid database name");
                continue;
            }

            if (_databases.ContainsKey(name))
            {
                DatabaseLog.SkippedDirectory(_logger, directory, "another directory has the same name in a different casing");
                continue;
            }

            try
            {
                _databases[name] = Open(name, directory);
            }
            catch
            {
                // The server will not start; release what was opened so the directories are not left locked.
                foreach (KeyValuePair<string, Database> opened in _databases)
                    opened.Value.Store.Dispose();
                _databases.Clear();
                throw;
            }

            DatabaseLog.Opened(_logger, name, directory);
        }
    }
}
