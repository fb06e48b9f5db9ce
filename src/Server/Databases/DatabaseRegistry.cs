using Folio.Indexing.Documents;
using Folio.Indexing.Engines;
using System.Collections.Concurrent;
using Folio.Server.Configuration;
using Folio.Server.Http;
using Folio.Storage;
using Folio.Storage.Documents;
using Folio.Storage.Documents.Compression;
using Folio.Storage.Scheduling;

namespace Folio.Server.Databases;

/// <summary>
/// The server's databases, each under <c>DataDir/Databases/{name}</c>. Names resolve case-insensitively
/// through a concurrent dictionary probed with the path's span, so finding a loaded database allocates nothing
/// and takes no lock; creating and deleting are serialized among themselves. At start only the catalog (the
/// directories) is read: a database opens on its first request and unloads when idle or when more than
/// <see cref="DatabasesOptions.MaxLoaded"/> are loaded. Disposing closes them all once the requests using them are done.
/// </summary>
public sealed partial class DatabaseRegistry : IAsyncDisposable
{
    /// <summary>The folder under the data directory that holds one directory per database.</summary>
    public const string DatabasesFolder = "Databases";

    /// <summary>The folder, inside a database's directory, holding its indexes.</summary>
    public const string IndexesFolder = "Indexes";

    private readonly ConcurrentDictionary<string, DatabaseEntry> _databases = new(StringComparer.OrdinalIgnoreCase);
    private readonly ConcurrentDictionary<string, DatabaseEntry>.AlternateLookup<ReadOnlySpan<char>> _bySpan;
    private readonly SemaphoreSlim _changes = new(1, 1);
    private readonly ILogger _logger;
    private readonly ILoggerFactory _loggers;
    private readonly long _journalFileSize;
    private readonly IndexStoreOptions _indexOptions;
    private readonly DocumentCompressionOptions _compression;
    private readonly DatabasesOptions _options;
    private bool _disposed;

    /// <summary>Creates the registry and reads the catalog: every database directory under <see cref="RootDirectory"/>, none opened yet.</summary>
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
        DatabaseLog.CompressionChosen(_logger, _compression.Enabled, DocumentCompression.Implementation);
        _options = options.Databases;
        // The schedulers are the process's: the last server configured sizes them (one per process outside tests).
        WorkScheduler.Background.ThreadCount = _options.IndexingThreads > 0 ? _options.IndexingThreads : WorkScheduler.DefaultThreads();
        WorkScheduler.Commits.ThreadCount = _options.CommitThreads > 0 ? _options.CommitThreads : WorkScheduler.DefaultThreads();
        _indexOptions = new IndexStoreOptions
        {
            AutoIndexIdleTimeout = options.AutoIndexIdleTimeout,
            MaintenanceInterval = options.IndexMaintenanceInterval,
            SearchEngine = SearchEngines.Get(options.Indexing.SearchEngine).Name,
        };
        _bySpan = _databases.GetAlternateLookup<ReadOnlySpan<char>>();
        RootDirectory = Path.Combine(options.DataDir, DatabasesFolder);
        Directory.CreateDirectory(RootDirectory);
        ReadCatalog();
        _unloader = UnloadIdleAsync(_stopUnloading.Token);
    }

    /// <summary>The directory holding one directory per database.</summary>
    public string RootDirectory { get; }

    /// <summary>Finds a database in the catalog by name, in any casing, without allocating or opening it.</summary>
    /// <param name="name">The name, e.g. the <c>{db}</c> segment of a path.</param>
    /// <param name="database">The catalog entry when found.</param>
    /// <returns>True when it exists.</returns>
    public bool TryGet(ReadOnlySpan<char> name, [System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out DatabaseEntry? database) =>
        _bySpan.TryGetValue(name, out database);

    /// <summary>
    /// Finds a database and takes a lease on it; the caller must call <see cref="Database.Exit"/> when done
    /// (<see cref="Lease"/> does that at the end of a <c>using</c> block). Allocates nothing when the database exists.
    /// </summary>
    /// <param name="name">The name, e.g. <see cref="Routing.FolioRequest.DatabaseSpan"/>.</param>
    /// <returns>The database, leased; opened first when it was not loaded.</returns>
    /// <exception cref="FolioHttpException">400 for a name no database can have; 404 when there is no such database (or it is being deleted).</exception>
    public Database Enter(ReadOnlySpan<char> name)
    {
        if (_bySpan.TryGetValue(name, out DatabaseEntry? entry))
        {
            if (entry.Instance is { } database && database.TryEnter())
                return database;

            if (TryLoadAndEnter(entry, out database))
                return database;
        }

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

    /// <summary>The databases in the catalog now, loaded or not, ordered by name.</summary>
    /// <returns>A snapshot.</returns>
    public IReadOnlyList<DatabaseEntry> List()
    {
        var list = new List<DatabaseEntry>(_databases.Count);
        foreach (KeyValuePair<string, DatabaseEntry> entry in _databases)
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
            if (_databases.TryGetValue(name, out DatabaseEntry? existing))
            {
                throw new FolioHttpException(
                    StatusCodes.Status409Conflict,
                    "Database exists",
                    $"A database named '{existing.Name}' already exists (names compare case-insensitively).",
                    ProblemTypes.DatabaseExists);
            }

            var entry = new DatabaseEntry(name, Path.Combine(RootDirectory, name));
            Database database = Open(entry);
            entry.Instance = database;
            Interlocked.Increment(ref _loadedCount);
            _databases[name] = entry;
            DatabaseLog.Created(_logger, name, database.Directory);
            EvictOverCap();
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
            if (!_databases.TryRemove(name, out DatabaseEntry? entry))
                return false;

            await RemoveAsync(entry).ConfigureAwait(false);
            Directory.Delete(entry.Directory, recursive: true);
            DatabaseLog.Deleted(_logger, entry.Name, entry.Directory);
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
            await _stopUnloading.CancelAsync().ConfigureAwait(false);
            await _unloader.ConfigureAwait(false);
            var closing = new List<Task>(_databases.Count);
            foreach (KeyValuePair<string, DatabaseEntry> entry in _databases)
                closing.Add(RemoveAsync(entry.Value));
            _databases.Clear();
            await Task.WhenAll(closing).ConfigureAwait(false);
            _stopUnloading.Dispose();
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

    private Database Open(DatabaseEntry entry)
    {
        string directory = entry.Directory;
        DocumentStore store = DocumentStore.Open(
            StorageOptions.ForPath(directory) with { JournalFileSize = _journalFileSize, MetricsName = entry.Name },
            CompressionFor(entry),
            progress => LogFormatMove(entry.Name, progress));
        IndexStore? indexes = null;
        try
        {
            indexes = new IndexStore(store, Path.Combine(directory, IndexesFolder), _loggers, _indexOptions);
            var database = new Database(entry.Name, directory, store, indexes);
            database.ReleasePagesReadOpening();
            return database;
        }
        catch
        {
            // Closed here, or their files stay locked and every later open of the database in this process fails.
            indexes?.Dispose();
            store.Dispose();
            throw;
        }
    }

    private void LogFormatMove(string database, FormatMoveProgress progress)
    {
        if (progress.Finished)
            DatabaseLog.MovedFormat(_logger, database, progress.FromFormat, progress.ToFormat, progress.Resumed, progress.RecordsMoved, progress.Elapsed.TotalMilliseconds);
        else
            DatabaseLog.MovingFormat(_logger, database, progress.FromFormat, progress.ToFormat, progress.Resumed, progress.RecordsMoved, progress.Records, progress.Elapsed.TotalMilliseconds);
    }

    private void ReadCatalog()
    {
        foreach (string directory in Directory.EnumerateDirectories(RootDirectory))
        {
            string name = Path.GetFileName(directory);
            if (!DatabaseName.IsValid(name))
            {
                DatabaseLog.SkippedDirectory(_logger, directory, "its name is not a valid database name");
                continue;
            }

            if (!_databases.TryAdd(name, new DatabaseEntry(name, directory)))
                DatabaseLog.SkippedDirectory(_logger, directory, "another directory has the same name in a different casing");
        }

        DatabaseLog.CatalogRead(_logger, _databases.Count, RootDirectory);
    }
}
