using Folio.Indexing.Documents;
using Folio.Storage.Documents;

namespace Folio.Server.Databases;

public sealed partial class Database
{
    /// <summary>
    /// Why the database cannot be unloaded now, or null when it can: a lease out, a listener connected, a bulk
    /// insert or tracked operation running, or an index that has not caught up with the documents (a failed index
    /// does not count: it waits for a reset, not for time).
    /// </summary>
    internal string? WorkPending()
    {
        if (Volatile.Read(ref _active) != 0)
            return "a request is using it";
        if (Volatile.Read(ref _listeners) != 0)
            return "a changes feed or subscription is connected";
        if (BulkInserts.Count != 0)
            return "a bulk insert is running";
        if (Operations.AnyRunning())
            return "an operation is running";
        // The index check reads the store, so it holds a lease of its own against a concurrent delete; returning it
        // does not count as use, or every check would restart the idle clock and reorder the least recently used.
        if (!TryEnter())
            return "it is closing";
        try
        {
            return IndexingPending() ? "an index has documents to process" : null;
        }
        finally
        {
            Release();
        }
    }

    /// <summary>
    /// Closes the database if nothing uses it: no lease, no listener, no work pending (<see cref="WorkPending"/>).
    /// A request arriving meanwhile is never turned away: either it gets its lease and the unload backs off, or
    /// the unload has begun and the request opens the database again through the registry.
    /// </summary>
    /// <param name="closed">Completes when the files are closed.</param>
    /// <returns>False when the database is busy or already closing.</returns>
    internal bool TryUnload(out Task closed)
    {
        closed = Task.CompletedTask;
        if (WorkPending() is not null)
            return false;
        lock (_closeGate)
        {
            if (_closed is not null || Interlocked.CompareExchange(ref _state, StateDeciding, StateOpen) != StateOpen)
                return false;
            // Checked again while deciding: a request that took its lease before the state changed is counted
            // here, and one that comes after waits for this decision. An operation or bulk insert started since
            // the first look holds no lease between its batches, so it is looked for again too.
            if (Volatile.Read(ref _active) != 0 || Volatile.Read(ref _listeners) != 0 || BulkInserts.Count != 0 || Operations.AnyRunning())
            {
                Volatile.Write(ref _state, StateOpen);
                return false;
            }

            Volatile.Write(ref _state, StateClosing);
            _closed = BeginClose();
            closed = _closed;
        }

        _closingSource.Cancel();
        return true;
    }

    private bool IndexingPending()
    {
        IReadOnlyList<DocumentIndex> indexes = Indexes.All;
        IReadOnlyDictionary<string, DocumentIndex> replacements = Indexes.Replacements;
        if (indexes.Count == 0 && replacements.Count == 0)
            return false;
        using DocumentReader reader = Store.OpenReader();
        foreach (DocumentIndex index in indexes)
        {
            if (IsBehind(index, reader))
                return true;
        }

        foreach (KeyValuePair<string, DocumentIndex> replacement in replacements)
        {
            if (IsBehind(replacement.Value, reader))
                return true;
        }

        return false;
    }

    private static bool IsBehind(DocumentIndex index, DocumentReader reader) =>
        index.Failure is null && !index.IsDisposed && index.IsStale(reader);
}
