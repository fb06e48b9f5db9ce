using Folio.Indexing.Documents;
using Folio.Server.Databases;

namespace Folio.Server.Changes;

/// <summary>
/// Tells what happened to a database's indexes between two looks: created, deleted, reset, or a batch indexed
/// up to a new etag. The index store publishes no events, and its indexers must not wait on a slow WebSocket, so
/// a socket watching indexes compares snapshots at <see cref="ChangesOptions.IndexPollInterval"/>.
/// </summary>
internal sealed class IndexChangeWatcher
{
    private Dictionary<string, long> _seen = new(StringComparer.OrdinalIgnoreCase);

    /// <summary>Takes the current state as the baseline: what exists when watching starts is not reported.</summary>
    /// <returns>False when the database is closing.</returns>
    public bool Start(Database database)
    {
        Dictionary<string, long>? now = Snapshot(database);
        if (now is null)
            return false;
        _seen = now;
        return true;
    }

    /// <summary>Adds the changes since the last look to <paramref name="into"/>.</summary>
    /// <returns>False when the database is closing.</returns>
    public bool Look(Database database, List<IndexChange> into)
    {
        Dictionary<string, long>? now = Snapshot(database);
        if (now is null)
            return false;
        foreach (KeyValuePair<string, long> index in now)
        {
            if (!_seen.TryGetValue(index.Key, out long before))
                into.Add(new IndexChange(index.Key, IndexChangeKind.Created, index.Value));
            else if (index.Value < before)
                into.Add(new IndexChange(index.Key, IndexChangeKind.Reset, index.Value));
            else if (index.Value > before)
                into.Add(new IndexChange(index.Key, IndexChangeKind.BatchCompleted, index.Value));
        }

        foreach (KeyValuePair<string, long> index in _seen)
        {
            if (!now.ContainsKey(index.Key))
                into.Add(new IndexChange(index.Key, IndexChangeKind.Deleted, index.Value));
        }

        _seen = now;
        return true;
    }

    private static Dictionary<string, long>? Snapshot(Database database)
    {
        if (!database.TryEnter())
            return null;
        try
        {
            IReadOnlyList<DocumentIndex> indexes = database.Indexes.All;
            var snapshot = new Dictionary<string, long>(indexes.Count, StringComparer.OrdinalIgnoreCase);
            foreach (DocumentIndex index in indexes)
                snapshot[index.Name] = index.ProcessedEtag;
            return snapshot;
        }
        finally
        {
            database.Exit();
        }
    }
}
