using Folio.Indexing.MapReduce;
using Folio.Storage.Documents;
using Microsoft.Extensions.Logging;

namespace Folio.Indexing.Documents;

/// <summary>
/// The removal of the documents a map/reduce index wrote to its output collection, once the index is gone.
/// A removal runs in the background; an index that writes to the same collection next waits for it
/// (<see cref="Before"/>), and the collections still being emptied are kept in the catalog so a restart
/// finishes them. Called under <paramref name="gate"/>, the index store's lock, which a finished removal
/// takes to forget itself and <paramref name="saveCatalog"/>.
/// </summary>
internal sealed class OutputPurges(DocumentStore store, Lock gate, Action saveCatalog, ILogger logger)
{
    private readonly Dictionary<string, (Task Task, long Id)> _running = new(StringComparer.OrdinalIgnoreCase);
    private long _lastId;

    /// <summary>The collections whose removal has not finished.</summary>
    public IEnumerable<string> Pending => _running.Keys;

    /// <summary>What an index writing to <paramref name="collection"/> must wait for, if anything.</summary>
    public Task? Before(string? collection) => collection is not null && _running.TryGetValue(collection, out var running) ? running.Task : null;

    /// <summary>Starts removing every document of <paramref name="collection"/>, after any removal of it already running.</summary>
    public void Start(string collection)
    {
        var before = Before(collection) ?? Task.CompletedTask;
        var id = ++_lastId;
        // The removal waits until it is registered: one that finished first would find no entry of its own to clear,
        // and the catalog would go on naming the collection until the next start.
        var registered = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        _running[collection] = (Purge(registered.Task, before, collection, id), id);
        registered.SetResult();
    }

    private async Task Purge(Task registered, Task before, string collection, long id)
    {
        await registered.ConfigureAwait(false);
        // Whether the earlier removal finished or failed, this one removes the same documents.
        await before.ContinueWith(static _ => { }, TaskScheduler.Default).ConfigureAwait(false);
        try
        {
            await ReduceOutput.PurgeAsync(store, collection).ConfigureAwait(false);
        }
        catch (Exception e) when (e is ObjectDisposedException or IOException or InvalidOperationException or Folio.Storage.StorageException)
        {
            logger.LogWarning(e, "The documents of output collection {Collection} were not all removed; the next start tries again", collection);
            return;
        }
        lock (gate)
        {
            if (_running.TryGetValue(collection, out var running) && running.Id == id)
            {
                _running.Remove(collection);
                saveCatalog();
            }
        }
    }
}
