namespace Folio.Server.Databases;

/// <summary>
/// A database in the server's catalog: known by its directory whether or not it is open. It is loaded on its first
/// request and unloaded when idle (<see cref="DatabasesOptions"/>); <see cref="Loaded"/> is the open instance, if any.
/// </summary>
public sealed class DatabaseEntry
{
    /// <summary>The file beside the store that holds a lock mode other than <see cref="DatabaseLockMode.Unlock"/>.</summary>
    private const string LockModeFile = "lock-mode";

    private readonly Lock _lockModeGate = new();
    private Database? _loaded;
    private DatabaseLockMode? _lockMode;

    internal DatabaseEntry(string name, string directory)
    {
        Name = name;
        Directory = directory;
    }

    /// <summary>The name with the casing it was created with.</summary>
    public string Name { get; }

    /// <summary>The directory holding the database's files.</summary>
    public string Directory { get; }

    /// <summary>The open instance, or null while unloaded (an instance being closed is not returned).</summary>
    public Database? Loaded => Volatile.Read(ref _loaded) is { IsClosing: false } database ? database : null;

    /// <summary>True while the database is open.</summary>
    public bool IsLoaded => Loaded is not null;

    /// <summary>Whether the database may be deleted; kept in its directory, so it survives restarts and needs no open store.</summary>
    public DatabaseLockMode LockMode
    {
        get
        {
            lock (_lockModeGate)
            {
                if (_lockMode is { } known)
                    return known;
                string path = Path.Combine(Directory, LockModeFile);
                _lockMode = File.Exists(path) && Enum.TryParse(File.ReadAllText(path).Trim(), out DatabaseLockMode stored) ? stored : DatabaseLockMode.Unlock;
                return _lockMode.Value;
            }
        }
    }

    /// <summary>Sets and keeps <see cref="LockMode"/> (written to a temporary file renamed over the old one, so a crash leaves one or the other).</summary>
    internal void SetLockMode(DatabaseLockMode mode)
    {
        lock (_lockModeGate)
        {
            string path = Path.Combine(Directory, LockModeFile);
            if (mode == DatabaseLockMode.Unlock)
            {
                File.Delete(path);
            }
            else
            {
                string temporary = path + ".tmp";
                using (FileStream stream = File.Create(temporary))
                {
                    stream.Write(System.Text.Encoding.ASCII.GetBytes(mode.ToString()));
                    stream.Flush(flushToDisk: true);
                }

                File.Move(temporary, path, overwrite: true);
            }

            _lockMode = mode;
        }
    }

    /// <summary>Serializes opening and unloading this database.</summary>
    internal Lock Gate { get; } = new();

    /// <summary>The instance as stored, closing or not; read and written under <see cref="Gate"/> except for the fast path.</summary>
    internal Database? Instance
    {
        get => Volatile.Read(ref _loaded);
        set => Volatile.Write(ref _loaded, value);
    }

    /// <summary>Completes when the last unloaded instance has closed its files; set under <see cref="Gate"/>.</summary>
    internal Task Unloaded { get; set; } = Task.CompletedTask;

    /// <summary>An open in progress that other requests for the database wait for (<see cref="DatabaseRegistry.EnsureLoadedAsync"/>); set under <see cref="Gate"/>.</summary>
    internal Task? Loading { get; set; }

    /// <summary>Set under <see cref="Gate"/> when the database is deleted or the server stops: it is not opened again.</summary>
    internal bool Removed { get; set; }
}
