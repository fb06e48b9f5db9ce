using System.Text.Json;
using Folio.Indexing.Definitions;

namespace Folio.Indexing.Documents;

public sealed partial class IndexStore
{
    /// <summary>Whether the database's indexing is stopped (<see cref="StopIndexing"/>); not kept across restarts.</summary>
    public bool IndexingPaused
    {
        get
        {
            lock (_lock)
                return _indexingPaused;
        }
    }

    /// <summary>
    /// Pauses every indexer of the database, also those of indexes created later, until <see cref="StartIndexing"/>:
    /// each finishes the batch it is committing and then waits. A restart starts them again.
    /// </summary>
    public void StopIndexing() => SetIndexingPaused(true);

    /// <summary>Lets the indexers <see cref="StopIndexing"/> paused go on from where they stopped (those paused or disabled on their own stay so).</summary>
    public void StartIndexing() => SetIndexingPaused(false);

    /// <summary>Pauses or resumes the index <paramref name="name"/> alone (and the replacement being built for it); false when there is none.</summary>
    public bool SetPaused(string name, bool paused)
    {
        lock (_lock)
        {
            if (!_active.TryGetValue(name, out var index))
                return false;
            index.ApplyRunState(index.Settings, paused, _indexingPaused);
            if (_replacements.TryGetValue(name, out var replacement))
                replacement.ApplyRunState(replacement.Settings, paused, _indexingPaused);
            return true;
        }
    }

    /// <summary>Disables (the indexer stops until enabled; kept across restarts) or enables an index; false when there is none.</summary>
    public bool SetDisabled(string name, bool disabled) => ChangeSettings([name], settings => settings with { Disabled = disabled }) is null;

    /// <summary>Sets the lock mode of the named indexes, all or none; returns the first name without an index (then nothing changed), or null.</summary>
    public string? SetLockMode(IReadOnlyList<string> names, IndexLockMode mode) => ChangeSettings(names, settings => settings with { LockMode = mode });

    /// <summary>Sets the priority of the named indexes, all or none; returns the first name without an index (then nothing changed), or null.</summary>
    public string? SetPriority(IReadOnlyList<string> names, IndexPriority priority) => ChangeSettings(names, settings => settings with { Priority = priority });

    private string? ChangeSettings(IReadOnlyList<string> names, Func<IndexSettings, IndexSettings> change)
    {
        lock (_lock)
        {
            foreach (var name in names)
            {
                if (!_active.ContainsKey(name))
                    return name;
            }
            foreach (var name in names)
            {
                var index = _active[name];
                index.ApplyRunState(change(index.Settings), index.IsPaused, _indexingPaused);
                if (_replacements.TryGetValue(name, out var replacement))
                    replacement.ApplyRunState(change(replacement.Settings), replacement.IsPaused, _indexingPaused);
            }
            SaveCatalog();
            return null;
        }
    }

    private void SetIndexingPaused(bool paused)
    {
        lock (_lock)
        {
            _indexingPaused = paused;
            foreach (var index in _active.Values)
                index.ApplyRunState(index.Settings, index.IsPaused, paused);
            foreach (var index in _replacements.Values)
                index.ApplyRunState(index.Settings, index.IsPaused, paused);
        }
    }

    /// <summary>Refuses a put that would change an index locked with <see cref="IndexLockMode.LockedError"/>, before anything changes.</summary>
    private void CheckLocks(IReadOnlyList<IndexDefinition> definitions)
    {
        foreach (var definition in definitions)
        {
            if (_active.TryGetValue(definition.Name, out var existing) && existing.Settings.LockMode == IndexLockMode.LockedError && !existing.Definition.SameAs(definition))
                throw new IndexDefinitionException($"Index '{existing.Name}' is locked (LockedError): its definition cannot change until it is unlocked.");
        }
    }

    /// <summary>Writes the settings that differ from the defaults into a catalog entry.</summary>
    private static void WriteSettings(Utf8JsonWriter writer, IndexSettings settings)
    {
        if (settings.LockMode != IndexLockMode.Unlock)
            writer.WriteString("LockMode", settings.LockMode.ToString());
        if (settings.Priority != IndexPriority.Normal)
            writer.WriteString("Priority", settings.Priority.ToString());
        if (settings.Disabled)
            writer.WriteBoolean("Disabled", true);
    }

    /// <summary>The settings of a catalog entry (entries written before indexes had settings have the defaults).</summary>
    private static IndexSettings ReadSettings(JsonElement entry)
    {
        var lockMode = entry.TryGetProperty("LockMode", out var mode) && Enum.TryParse<IndexLockMode>(mode.GetString(), out var parsedMode) ? parsedMode : IndexLockMode.Unlock;
        var priority = entry.TryGetProperty("Priority", out var level) && Enum.TryParse<IndexPriority>(level.GetString(), out var parsedLevel) ? parsedLevel : IndexPriority.Normal;
        var disabled = entry.TryGetProperty("Disabled", out var off) && off.ValueKind == JsonValueKind.True;
        return lockMode == IndexLockMode.Unlock && priority == IndexPriority.Normal && !disabled ? IndexSettings.Default : new IndexSettings(lockMode, priority, disabled);
    }
}
