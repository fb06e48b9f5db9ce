using System.Text;
using Folio.Indexing.Documents;
using Folio.Indexing.Querying;
using Folio.Server.BulkInsert;
using Folio.Server.Operations;
using Folio.Server.Subscriptions;
using Folio.Storage.Documents;

namespace Folio.Server.Databases;

/// <summary>
/// One database: its document store and its indexes under <c>DataDir/Databases/{name}</c>.
/// Requests hold a lease (<see cref="TryEnter"/>/<see cref="Exit"/>) while they use it, so closing it
/// (delete, shutdown) waits for them instead of unmapping storage under a reader.
/// </summary>
public sealed class Database
{
    private readonly byte[] _databaseIdBytes;
    private readonly TaskCompletionSource _drained = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly Lock _closeGate = new();
    private readonly CancellationTokenSource _closingSource = new();
    private int _active;
    private int _closing;
    private Task? _closed;

    internal Database(string name, string directory, DocumentStore store, IndexStore indexes)
    {
        Name = name;
        Directory = directory;
        Store = store;
        Indexes = indexes;
        Queries = new QueryRunner(store, indexes);
        Subscriptions = new SubscriptionStore(directory, store);
        Operations = new OperationRegistry(directory);
        _databaseIdBytes = Encoding.ASCII.GetBytes(store.DatabaseId);
    }

    /// <summary>The name with the casing it was created with.</summary>
    public string Name { get; }

    /// <summary>The directory holding the database's files.</summary>
    public string Directory { get; }

    /// <summary>The documents.</summary>
    public DocumentStore Store { get; }

    /// <summary>The indexes over the documents.</summary>
    public IndexStore Indexes { get; }

    /// <summary>Runs queries over the documents and indexes.</summary>
    public QueryRunner Queries { get; }

    /// <summary>The data subscriptions workers consume over TCP.</summary>
    public SubscriptionStore Subscriptions { get; }

    /// <summary>The tracked operations (patch and delete by query), recorded across restarts.</summary>
    public OperationRegistry Operations { get; }

    /// <summary>The bulk inserts writing to this database now.</summary>
    public BulkInsertTracker BulkInserts { get; } = new();

    /// <summary>The database id as ASCII, the second half of every change vector (for parsing and formatting them without strings).</summary>
    public ReadOnlySpan<byte> DatabaseIdBytes => _databaseIdBytes;

    /// <summary>
    /// Cancelled when the database starts closing (delete, shutdown): long waits that hold no lease, such as a
    /// changes feed waiting for the next write, end on it instead of keeping a closed store's waiters alive.
    /// </summary>
    public CancellationToken Closing => _closingSource.Token;

    /// <summary>
    /// Waits up to <paramref name="wait"/> for a write after <paramref name="position"/>, holding no lease: what feeds and
    /// subscription sessions do between reads. False on timeout or when <paramref name="stop"/> fires.
    /// </summary>
    public async ValueTask<bool> WaitForWriteAsync(long position, TimeSpan wait, CancellationToken stop)
    {
        // A source per wait, disposed after it, so a feed waiting through hours of heartbeats leaves no registrations behind.
        using var waiting = CancellationTokenSource.CreateLinkedTokenSource(stop);
        waiting.CancelAfter(wait);
        try
        {
            await Store.WaitForChangeAsync(position, waiting.Token);
            return true;
        }
        catch (OperationCanceledException) when (waiting.IsCancellationRequested)
        {
            return false;
        }
    }

    /// <summary>Takes a lease; false once the database is closing. Allocates nothing.</summary>
    /// <returns>True when the caller may use the database until it calls <see cref="Exit"/>.</returns>
    public bool TryEnter()
    {
        // Increment first, then check: paired with CloseAsync (set the flag, then read the count), the
        // full fences of the interlocked operations mean at least one side sees the other.
        Interlocked.Increment(ref _active);
        if (Volatile.Read(ref _closing) == 0)
            return true;
        Exit();
        return false;
    }

    /// <summary>Returns a lease taken by <see cref="TryEnter"/>.</summary>
    public void Exit()
    {
        if (Interlocked.Decrement(ref _active) == 0 && Volatile.Read(ref _closing) != 0)
            _drained.TrySetResult();
    }

    /// <summary>Refuses new leases, waits for the ones out to come back, then closes the store (queued writes complete first).</summary>
    /// <returns>Completes when the store is closed; every call gets the same task.</returns>
    internal Task CloseAsync()
    {
        Task closed;
        lock (_closeGate)
        {
            if (_closed is null)
            {
                Interlocked.Exchange(ref _closing, 1);
                if (Volatile.Read(ref _active) == 0)
                    _drained.TrySetResult();
                _closed = CloseWhenDrainedAsync();
            }

            closed = _closed;
        }

        // Outside the gate: cancelling runs the waiters' callbacks inline.
        _closingSource.Cancel();
        return closed;
    }

    private async Task CloseWhenDrainedAsync()
    {
        await _drained.Task.ConfigureAwait(false);
        // Disposing joins the merger thread and flushes the data file: real blocking work, so it runs
        // on a pool thread of its own rather than inline in whichever continuation drained the leases.
        await Task.Run(() =>
        {
            // Indexers read the store, so they stop first.
            Indexes.Dispose();
            Store.Dispose();
        }).ConfigureAwait(false);
    }
}
