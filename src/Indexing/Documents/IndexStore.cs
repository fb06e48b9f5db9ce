using System.Text;
using System.Text.Json;
using Folio.Indexing.Definitions;
using Folio.Indexing.Engines;
using Folio.Storage;
using Folio.Storage.Documents;
using Folio.Storage.Scheduling;
using Microsoft.Extensions.Logging;

namespace Folio.Indexing.Documents;

/// <summary>
/// A database's indexes: their definitions (kept in <c>indexes.json</c> beside their directories),
/// their indexers, side-by-side rebuilds when a definition changes, and the auto indexes queries
/// create, widen and, once idle, retire.
/// </summary>
public sealed partial class IndexStore : IDisposable
{
    private const string CatalogFile = "indexes.json";
    private const string DroppedPrefix = ".dropped-";

    private readonly DocumentStore _store;
    private readonly string _root;
    private readonly ILoggerFactory _loggers;
    private readonly ILogger _logger;
    private readonly IndexStoreOptions _options;
    private readonly Lock _lock = new();

    // Until Load has opened every index, an output purge that ends does not save the catalog (it would list only the
    // indexes opened so far, and the next open would delete the others' directories); Load saves it once at its end.
    private bool _loaded;
    private bool _saveWhenLoaded;
    private readonly Dictionary<string, DocumentIndex> _active = new(StringComparer.OrdinalIgnoreCase);
    private readonly Dictionary<string, DocumentIndex> _replacements = new(StringComparer.OrdinalIgnoreCase);
    private readonly Dictionary<string, List<string>> _retireWhenCaughtUp = new(StringComparer.OrdinalIgnoreCase);
    private readonly CancellationTokenSource _stop = new();
    private readonly Timer _maintenance;
    private readonly Lock _maintaining = new();
    private readonly OutputPurges _purges;
    // The database's share of the background threads: its indexes take turns within it, so a database with many
    // indexes gets no more of the threads than one with a single index when all are busy.
    private readonly WorkGroup _turns = new(WorkScheduler.Background);
    private long _generation;
    private bool _indexingPaused;

    /// <summary>Opens the indexes under <paramref name="root"/> and starts their indexers.</summary>
    public IndexStore(DocumentStore store, string root, ILoggerFactory loggers, IndexStoreOptions? options = null)
    {
        _store = store;
        _root = root;
        _loggers = loggers;
        _logger = loggers.CreateLogger<IndexStore>();
        _options = options ?? new IndexStoreOptions();
        _purges = new OutputPurges(store, _lock, SaveCatalogWhileOpen, _logger);
        Directory.CreateDirectory(root);
        try
        {
            Load();
            MarkLoaded();
        }
        catch
        {
            // The indexes opened before the one that failed hold their directories' locks: a later open of the
            // database in this process (the failure may pass, as a lock a stopping server still held does) must find
            // them free. Stopped first: an output purge Load started saves the catalog when it ends, unless stopped, and
            // would save it without the indexes closed here, whose directories the next open would then delete.
            _stop.Cancel();
            CloseOpened();
            throw;
        }
        // A one-shot timer re-armed after each round, on the thread pool: a thread of its own per database would make
        // the thread count grow with the databases for work that takes microseconds a few times a second.
        _maintenance = new Timer(static state => ((IndexStore)state!).Maintain(), this, _options.MaintenanceInterval, Timeout.InfiniteTimeSpan);
    }

    /// <summary>The index named <paramref name="name"/> (case-insensitive), or null.</summary>
    public DocumentIndex? Get(string name)
    {
        lock (_lock)
            return _active.GetValueOrDefault(name);
    }

    /// <summary>The active indexes.</summary>
    public IReadOnlyList<DocumentIndex> All
    {
        get
        {
            lock (_lock)
                return [.. _active.Values];
        }
    }

    /// <summary>Replacements being built side by side, by the name of the index they will replace.</summary>
    public IReadOnlyDictionary<string, DocumentIndex> Replacements
    {
        get
        {
            lock (_lock)
                return new Dictionary<string, DocumentIndex>(_replacements, StringComparer.OrdinalIgnoreCase);
        }
    }

    /// <summary>
    /// Creates or updates indexes. A new name starts indexing at once; an unchanged definition is left
    /// alone; a changed one is rebuilt beside the current index, which keeps serving until the new one
    /// has caught up. A change that gives or takes an output collection rebuilds in place instead: two
    /// versions of the index must not write the same documents. Throws <see cref="IndexDefinitionException"/>
    /// before changing anything if any definition is unusable.
    /// </summary>
    public void Put(IReadOnlyList<IndexDefinition> definitions)
    {
        // A definition naming no engine is kept by the server's default one, and compared as such: putting it again
        // unchanged does not rebuild it, and changing the default later does not move an index built before.
        definitions = [.. definitions.Select(definition => definition.SearchEngine is null ? definition.WithSearchEngine(_options.SearchEngine) : definition)];
        var names = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        foreach (var definition in definitions)
        {
            if (!names.Add(definition.Name))
                throw new IndexDefinitionException($"Index '{definition.Name}' is defined twice in one request.");
            if (definition.IsAuto)
                throw new IndexDefinitionException($"Names starting with '{IndexDefinition.AutoPrefix}' belong to the indexes the server makes; pick another name than '{definition.Name}'.");
        }
        lock (_lock)
        {
            var current = new Dictionary<string, IndexDefinition>(StringComparer.OrdinalIgnoreCase);
            foreach (var (name, index) in _active)
                current[name] = index.Definition;
            CheckLocks(definitions);
            using (var reader = _store.OpenReader())
                OutputCollectionCheck.Check(definitions, current, reader, collection => _purges.Before(collection) is not null);
            foreach (var definition in definitions)
            {
                if (!_active.TryGetValue(definition.Name, out var existing))
                {
                    _active[definition.Name] = Create(definition, IndexSettings.Default);
                    continue;
                }
                if (existing.Definition.SameAs(definition) || existing.Settings.LockMode == IndexLockMode.LockedIgnore)
                    continue;
                if (_replacements.Remove(definition.Name, out var older))
                    Drop(older);
                if (existing.Definition.OutputCollection is not null || definition.OutputCollection is not null)
                {
                    _active.Remove(definition.Name);
                    Drop(existing, definition.OutputCollection);
                    _active[definition.Name] = Create(definition, existing.Settings, existing.IsPaused);
                    _logger.LogInformation("Index {Index} is rebuilt in place with its new definition, as it writes an output collection", definition.Name);
                    continue;
                }
                _replacements[definition.Name] = Create(definition, existing.Settings, existing.IsPaused);
                _logger.LogInformation("Index {Index} is being rebuilt side by side with its new definition", definition.Name);
            }
            SaveCatalog();
        }
    }

    /// <summary>Deletes an index (and any replacement of it) and the documents it wrote to an output collection; false when there is none.</summary>
    public bool Delete(string name)
    {
        lock (_lock)
        {
            var found = false;
            if (_replacements.Remove(name, out var replacement))
            {
                Drop(replacement);
                found = true;
            }
            if (_active.Remove(name, out var index))
            {
                Drop(index);
                found = true;
            }
            SaveCatalog();
            return found;
        }
    }

    /// <summary>Throws the index's data away (and its output documents) and indexes everything again from the start; false when there is no such index.</summary>
    public bool Reset(string name)
    {
        lock (_lock)
        {
            if (!_active.Remove(name, out var index))
                return false;
            Drop(index, index.Definition.OutputCollection);
            _active[index.Definition.Name] = Create(index.Definition, index.Settings, index.IsPaused);
            SaveCatalog();
            return true;
        }
    }

    /// <summary>Swaps in replacements that caught up, retires narrower auto indexes behind wider ones, and idle auto indexes.</summary>
    private void Maintain()
    {
        lock (_maintaining)
        {
            if (_stop.IsCancellationRequested)
                return;
            try
            {
                MaintainOnce();
            }
            catch (Exception e) when (e is IOException or StorageException or InvalidOperationException)
            {
                _logger.LogError(e, "Index maintenance failed; it will try again");
            }

            _maintenance.Change(_options.MaintenanceInterval, Timeout.InfiniteTimeSpan);
        }
    }

    internal void MaintainOnce()
    {
        lock (_lock)
        {
            var idleSince = DateTime.UtcNow - _options.AutoIndexIdleTimeout;
            // Most stores have nothing to switch, retire or expire most of the time; every loaded database checks four
            // times a second, so with a thousand loaded a check that finds nothing opens no read transaction and copies
            // no list.
            if (_replacements.Count == 0 && _retireWhenCaughtUp.Count == 0 && !AnyAutoIndexIdleSince(idleSince))
                return;
            using var reader = _store.OpenReader();
            var changed = false;
            foreach (var (name, replacement) in new List<KeyValuePair<string, DocumentIndex>>(_replacements))
            {
                if (replacement.IsStale(reader))
                    continue;
                _replacements.Remove(name);
                if (_active.Remove(name, out var old))
                    Drop(old);
                _active[name] = replacement;
                changed = true;
                _logger.LogInformation("Index {Index} switched to its new definition", name);
            }
            foreach (var (wider, narrower) in new List<KeyValuePair<string, List<string>>>(_retireWhenCaughtUp))
            {
                if (!_active.TryGetValue(wider, out var index) || index.IsStale(reader))
                    continue;
                foreach (var retired in narrower)
                {
                    if (_active.Remove(retired, out var old))
                    {
                        Drop(old);
                        _logger.LogInformation("Auto index {Index} retired: {Wider} covers its fields", retired, wider);
                    }
                }
                _retireWhenCaughtUp.Remove(wider);
                changed = true;
            }
            foreach (var index in new List<DocumentIndex>(_active.Values))
            {
                if (!index.Definition.IsAuto || index.LastQueried > idleSince)
                    continue;
                _active.Remove(index.Name);
                Drop(index);
                changed = true;
                _logger.LogInformation("Auto index {Index} retired after {Idle} without queries", index.Name, _options.AutoIndexIdleTimeout);
            }
            if (changed)
                SaveCatalog();
        }
    }

    private bool AnyAutoIndexIdleSince(DateTime idleSince)
    {
        foreach (var index in _active.Values)
        {
            if (index.Definition.IsAuto && index.LastQueried <= idleSince)
                return true;
        }
        return false;
    }

    private DocumentIndex Create(IndexDefinition definition, IndexSettings settings, bool paused = false)
    {
        var directory = Path.Combine(_root, $"{SafeName(definition.Name)}-{Interlocked.Increment(ref _generation)}");
        Directory.CreateDirectory(directory);
        File.WriteAllText(Path.Combine(directory, "definition.json"), IndexDefinitionJson.ToJson(definition));
        return Open(definition, directory, settings, paused);
    }

    /// <summary>Opens an index with its settings in force from the start: a disabled or paused one indexes nothing until let.</summary>
    private DocumentIndex Open(IndexDefinition definition, string directory, IndexSettings settings, bool paused)
    {
        var index = new DocumentIndex(definition, _store, directory, _loggers.CreateLogger<DocumentIndex>(), _options.InMemory ? StorageOptions.InMemory() : null,
            _purges.Before(definition.OutputCollection), startPaused: settings.Disabled || paused || _indexingPaused, group: _turns);
        index.ApplyRunState(settings, paused, _indexingPaused);
        return index;
    }

    /// <summary>
    /// Opens an index found on disk; one written in a format this build does not read is rebuilt from the
    /// documents (an index is derived data), so an upgrade changing the index format never keeps the
    /// database from opening.
    /// </summary>
    private DocumentIndex OpenOrRebuild(IndexDefinition definition, string directory, IndexSettings settings)
    {
        try
        {
            return Open(definition, directory, settings, paused: false);
        }
        catch (UnsupportedFormatException e)
        {
            _logger.LogWarning("Index {Index} is rebuilt from the documents: {Reason}", definition.Name, e.Message);
            Directory.Delete(directory, recursive: true);
            Directory.CreateDirectory(directory);
            File.WriteAllText(Path.Combine(directory, "definition.json"), IndexDefinitionJson.ToJson(definition));
            return Open(definition, directory, settings, paused: false);
        }
    }

    /// <summary>
    /// Closes an index that left the catalog and deletes its files once no searcher reads them. The
    /// directory is first renamed to a name no index will take, so a later index that reuses the name
    /// (after a database is deleted and re-created) is never deleted in its place; a leftover is removed
    /// at the next start, as any directory the catalog does not name. The documents the index wrote to an
    /// output collection are removed too, unless its successor writes to the same collection
    /// (<paramref name="successorOutput"/>): a new index clears its output collection itself before it writes.
    /// </summary>
    private void Drop(DocumentIndex index, string? successorOutput = null)
    {
        index.Dispose();
        if (index.Definition.OutputCollection is { } output && !string.Equals(output, successorOutput, StringComparison.OrdinalIgnoreCase))
            _purges.Start(output);
        var directory = index.Directory;
        if (!Directory.Exists(directory))
            return;
        var dropped = Path.Combine(_root, $"{DroppedPrefix}{Guid.NewGuid():N}");
        try
        {
            Directory.Move(directory, dropped);
            directory = dropped;
        }
        catch (IOException)
        {
            // Platforms that refuse to rename open files: delete it by its own name after it closes.
        }
        _ = index.Closed.ContinueWith(
            static (closed, state) => DeleteDropped(((IndexStore, string))state!, closed.Exception),
            (this, directory),
            CancellationToken.None,
            TaskContinuationOptions.ExecuteSynchronously,
            TaskScheduler.Default);
    }

    private static void DeleteDropped((IndexStore Store, string Directory) dropped, Exception? closeFailure)
    {
        if (closeFailure is not null)
            dropped.Store._logger.LogDebug(closeFailure, "Closing the files of a dropped index in {Directory} reported an error; they are deleted all the same", dropped.Directory);
        try
        {
            if (Directory.Exists(dropped.Directory))
                Directory.Delete(dropped.Directory, recursive: true);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            dropped.Store._logger.LogWarning(e, "The files of a dropped index in {Directory} could not be deleted; the next start removes them", dropped.Directory);
        }
    }

    /// <summary>A directory name for an index name: letters and digits kept, everything else escaped, so no name reaches outside the root.</summary>
    private static string SafeName(string name)
    {
        var builder = new StringBuilder(name.Length);
        foreach (var c in name)
        {
            if (char.IsAsciiLetterOrDigit(c) || c is '-' or '_')
                builder.Append(c);
            else
                builder.Append('~').Append(((int)c).ToString("x4", System.Globalization.CultureInfo.InvariantCulture));
        }
        return builder.Length > 120 ? builder.ToString(0, 120) : builder.ToString();
    }

    /// <summary>Lets output purges save the catalog, and saves it for one that ended while the indexes were opening.</summary>
    private void MarkLoaded()
    {
        lock (_lock)
        {
            _loaded = true;
            if (_saveWhenLoaded)
                SaveCatalog();
        }
    }

    /// <summary>Saves the catalog for an output purge that ended (called under the lock), once the store is open and while it is.</summary>
    private void SaveCatalogWhileOpen()
    {
        if (_stop.IsCancellationRequested)
            return;
        if (_loaded)
            SaveCatalog();
        else
            _saveWhenLoaded = true;
    }

    /// <summary>Writes the catalog to a temporary file and renames it over the old one, so a crash leaves one or the other.</summary>
    private void SaveCatalog()
    {
        var path = Path.Combine(_root, CatalogFile);
        var temporary = path + ".tmp";
        using (var stream = File.Create(temporary))
        using (var writer = new Utf8JsonWriter(stream))
        {
            writer.WriteStartObject();
            writer.WriteNumber("Generation", Interlocked.Read(ref _generation));
            writer.WriteStartArray("Indexes");
            foreach (var index in _active.Values)
                WriteEntry(writer, index, replacing: false);
            foreach (var index in _replacements.Values)
                WriteEntry(writer, index, replacing: true);
            writer.WriteEndArray();
            writer.WriteStartArray("PurgingOutputs");
            foreach (var collection in _purges.Pending)
                writer.WriteStringValue(collection);
            writer.WriteEndArray();
            writer.WriteEndObject();
            writer.Flush();
            stream.Flush(flushToDisk: true);
        }
        File.Move(temporary, path, overwrite: true);
    }

    private void WriteEntry(Utf8JsonWriter writer, DocumentIndex index, bool replacing)
    {
        writer.WriteStartObject();
        writer.WriteString("Directory", Path.GetFileName(index.Directory));
        writer.WriteBoolean("Replacing", replacing);
        writer.WritePropertyName("Definition");
        IndexDefinitionJson.Write(writer, index.Definition);
        WriteSettings(writer, index.Settings);
        writer.WriteEndObject();
    }

    private void Load()
    {
        var path = Path.Combine(_root, CatalogFile);
        var known = new HashSet<string>(StringComparer.Ordinal);
        if (File.Exists(path))
        {
            using var catalog = JsonDocument.Parse(File.ReadAllBytes(path));
            _generation = catalog.RootElement.GetProperty("Generation").GetInt64();
            // Started first: an index writing to one of these collections waits for its removal.
            if (catalog.RootElement.TryGetProperty("PurgingOutputs", out var purging))
            {
                // Under the lock the removals take to clear their entries, as every other start is.
                lock (_lock)
                {
                    foreach (var collection in purging.EnumerateArray())
                        _purges.Start(collection.GetString()!);
                }
            }
            foreach (var entry in catalog.RootElement.GetProperty("Indexes").EnumerateArray())
            {
                var definition = IndexDefinitionJson.Parse(entry.GetProperty("Definition"));
                // Catalogs written before indexes chose engines hold Folio's engine's indexes.
                if (definition.SearchEngine is null)
                    definition = definition.WithSearchEngine(SearchEngines.Default);
                var directory = Path.Combine(_root, entry.GetProperty("Directory").GetString()!);
                known.Add(Path.GetFileName(directory));
                var index = OpenOrRebuild(definition, directory, ReadSettings(entry));
                if (entry.GetProperty("Replacing").GetBoolean())
                    _replacements[definition.Name] = index;
                else
                    _active[definition.Name] = index;
            }
        }
        // Directories the catalog does not name were being created or dropped when the process stopped.
        foreach (var directory in Directory.GetDirectories(_root))
        {
            if (!known.Contains(Path.GetFileName(directory)))
                Directory.Delete(directory, recursive: true);
        }
    }

    /// <summary>Closes every index opened, active or replacing.</summary>
    private void CloseOpened()
    {
        lock (_lock)
        {
            foreach (var index in _replacements.Values)
                index.Dispose();
            foreach (var index in _active.Values)
                index.Dispose();
            _replacements.Clear();
            _active.Clear();
        }
    }

    /// <summary>Stops the indexers and closes the indexes.</summary>
    public void Dispose()
    {
        _stop.Cancel();
        // Taking the gate waits out a round in progress; a round that starts later sees the stop and does nothing.
        lock (_maintaining)
            _maintenance.Dispose();
        CloseOpened();
        _stop.Dispose();
    }
}
