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
/// (delete, shutdown, idle unload) waits for them instead of unmapping storage under a reader. Feeds and
/// subscription sessions hold no lease while they wait but register as listeners (<see cref="Listen"/>), which
/// keeps an idle unload away.
/// </summary>
public sealed partial class Database
{
    private const int StateOpen = 0;
    private const int StateClosing = 1;

    // An idle unload deciding: the lease count is being checked. TryEnter waits the few instructions this lasts
    // instead of failing, so an unload that finds a lease out backs off without turning anyone away.
    private const int StateDeciding = 2;

    private readonly byte[] _databaseIdBytes;
    private readonly Lock _closeGate = new();
    private readonly CancellationTokenSource _closingSource = new();
    private TaskCompletionSource? _drained;
    private int _active;
    private int _listeners;
    private int _state;
    private long _lastUsed = System.Diagnostics.Stopwatch.GetTimestamp();
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
        long processed = 0;
        foreach (var index in indexes.All)
            processed += index.ProcessedEtag;
        EtagsAtOpen = (store.LastEtag, processed);
    }

    /// <summary>
    /// The last etag and the sum of the indexes' processed etags as the database opened: where the work the server's
    /// rates count starts, so that loading a database with a long history is not counted as writes of that second.
    /// </summary>
    internal (long Written, long Indexed) EtagsAtOpen { get; }

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

    /// <summary>True once the database has begun closing (deleted, shut down or unloaded while idle).</summary>
    public bool IsClosing => Volatile.Read(ref _state) == StateClosing;

    /// <summary>When a lease or listener was last handed back (a <see cref="System.Diagnostics.Stopwatch"/> timestamp): idle time counts from here.</summary>
    internal long LastUsed => Volatile.Read(ref _lastUsed);

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
        // Increment first, then check: paired with the closers (set the state, then read the count), the
        // full fences of the interlocked operations mean at least one side sees the other.
        Interlocked.Increment(ref _active);
        int state = Volatile.Read(ref _state);
        if (state == StateOpen)
            return true;
        if (state == StateDeciding)
            state = AwaitDecision();
        if (state == StateOpen)
            return true;
        Exit();
        return false;
    }

    /// <summary>Returns a lease taken by <see cref="TryEnter"/>.</summary>
    public void Exit()
    {
        Volatile.Write(ref _lastUsed, System.Diagnostics.Stopwatch.GetTimestamp());
        Release();
    }

    /// <summary>Returns a lease without counting it as use: the unload's own look at the indexes must not keep the database loaded.</summary>
    private void Release()
    {
        if (Interlocked.Decrement(ref _active) == 0 && Volatile.Read(ref _state) == StateClosing)
            Volatile.Read(ref _drained)?.TrySetResult();
    }

    /// <summary>
    /// Registers a changes feed or subscription session that waits on this database without a lease, so an idle
    /// unload leaves the database loaded while it is connected. Take it while holding a lease; dispose it when the
    /// feed ends.
    /// </summary>
    /// <returns>The registration.</returns>
    public DatabaseListener Listen()
    {
        Interlocked.Increment(ref _listeners);
        return new DatabaseListener(this);
    }

    internal void StopListening()
    {
        Volatile.Write(ref _lastUsed, System.Diagnostics.Stopwatch.GetTimestamp());
        Interlocked.Decrement(ref _listeners);
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
                while (Interlocked.CompareExchange(ref _state, StateClosing, StateOpen) == StateDeciding)
                    Thread.SpinWait(20);
                _closed = BeginClose();
            }

            closed = _closed;
        }

        // Outside the gate: cancelling runs the waiters' callbacks inline.
        _closingSource.Cancel();
        return closed;
    }

    private int AwaitDecision()
    {
        var spin = new SpinWait();
        int state;
        while ((state = Volatile.Read(ref _state)) == StateDeciding)
            spin.SpinOnce();
        return state;
    }

    private Task BeginClose()
    {
        // The state is Closing: leases coming back from now on complete the drain.
        var drained = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        Volatile.Write(ref _drained, drained);
        if (Volatile.Read(ref _active) == 0)
            drained.TrySetResult();
        return CloseWhenDrainedAsync(drained.Task);
    }

    private async Task CloseWhenDrainedAsync(Task drained)
    {
        await drained.ConfigureAwait(false);
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
