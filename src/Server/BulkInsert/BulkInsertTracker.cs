using System.Collections.Concurrent;

namespace Folio.Server.BulkInsert;

/// <summary>The bulk inserts running against one database, so its stats can show them.</summary>
public sealed class BulkInsertTracker
{
    private readonly ConcurrentDictionary<long, BulkInsertProgress> _running = new();

    /// <summary>How many are running now.</summary>
    public int Count => _running.Count;

    /// <summary>Registers a starting insert.</summary>
    /// <param name="database">The database's name.</param>
    /// <returns>Its progress; pass it to <see cref="End"/> when the insert stops, however it stops.</returns>
    public BulkInsertProgress Begin(string database)
    {
        var progress = new BulkInsertProgress(database);
        _running[progress.Id] = progress;
        return progress;
    }

    /// <summary>Removes an insert that stopped.</summary>
    /// <param name="progress">What <see cref="Begin"/> returned.</param>
    public void End(BulkInsertProgress progress) => _running.TryRemove(progress.Id, out _);

    /// <summary>The running inserts, oldest first.</summary>
    /// <returns>A snapshot.</returns>
    public List<BulkInsertProgress> Snapshot()
    {
        var list = new List<BulkInsertProgress>(_running.Count);
        foreach (KeyValuePair<long, BulkInsertProgress> entry in _running)
            list.Add(entry.Value);
        list.Sort(static (a, b) => a.Id.CompareTo(b.Id));
        return list;
    }
}
