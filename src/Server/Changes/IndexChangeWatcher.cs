using Folio.Indexing.Documents;
using Folio.Server.Databases;

namespace Folio.Server.Changes;

/// <summary>
/// Tells what happened to a database's indexes between two looks: created, deleted, reset, a batch indexed up to
/// a new etag, a new priority or lock mode, paused (disabled, stopped, failed) or running again. The index store
/// publishes no events, and its indexers must not wait on a slow WebSocket, so a socket watching indexes compares
/// snapshots at <see cref="ChangesOptions.IndexPollInterval"/>.
/// </summary>
internal sealed class IndexChangeWatcher
{
    private Dictionary<string, IndexState> _seen = new(StringComparer.OrdinalIgnoreCase);

    /// <summary>Takes the current state as the baseline: what exists when watching starts is not reported.</summary>
    /// <returns>False when the database is closing.</returns>
    public bool Start(Database database)
    {
        Dictionary<string, IndexState>? now = Snapshot(database);
        if (now is null)
            return false;
        _seen = now;
        return true;
    }

    /// <summary>Adds the changes since the last look to <paramref name="into"/>.</summary>
    /// <returns>False when the database is closing.</returns>
    public bool Look(Database database, List<IndexChange> into)
    {
        Dictionary<string, IndexState>? now = Snapshot(database);
        if (now is null)
            return false;
        foreach (KeyValuePair<string, IndexState> index in now)
        {
            IndexState state = index.Value;
            if (!_seen.TryGetValue(index.Key, out IndexState before))
            {
                into.Add(new IndexChange(index.Key, IndexChangeKind.Created, state.Etag));
                continue;
            }
            if (state.Etag < before.Etag)
                into.Add(new IndexChange(index.Key, IndexChangeKind.Reset, state.Etag));
            else if (state.Etag > before.Etag)
                into.Add(new IndexChange(index.Key, IndexChangeKind.BatchCompleted, state.Etag));
            if (state.Priority != before.Priority)
                into.Add(new IndexChange(index.Key, IndexChangeKind.PriorityChanged, state.Etag));
            if (state.LockMode != before.LockMode)
                into.Add(new IndexChange(index.Key, IndexChangeKind.LockModeChanged, state.Etag));
            if (state.Running != before.Running)
                into.Add(new IndexChange(index.Key, state.Running ? IndexChangeKind.Resumed : IndexChangeKind.Paused, state.Etag));
        }

        foreach (KeyValuePair<string, IndexState> index in _seen)
        {
            if (!now.ContainsKey(index.Key))
                into.Add(new IndexChange(index.Key, IndexChangeKind.Deleted, index.Value.Etag));
        }

        _seen = now;
        return true;
    }

    private static Dictionary<string, IndexState>? Snapshot(Database database)
    {
        if (!database.TryEnter())
            return null;
        try
        {
            IReadOnlyList<DocumentIndex> indexes = database.Indexes.All;
            var snapshot = new Dictionary<string, IndexState>(indexes.Count, StringComparer.OrdinalIgnoreCase);
            foreach (DocumentIndex index in indexes)
            {
                IndexSettings settings = index.Settings;
                snapshot[index.Name] = new IndexState(index.ProcessedEtag, settings.Priority, settings.LockMode, index.Status == IndexRunStatus.Running);
            }
            return snapshot;
        }
        finally
        {
            database.Exit();
        }
    }

    /// <summary>What a look sees of one index.</summary>
    private readonly record struct IndexState(long Etag, IndexPriority Priority, IndexLockMode LockMode, bool Running);
}
