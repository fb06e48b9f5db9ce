using System.Diagnostics;
using System.Diagnostics.CodeAnalysis;

namespace Folio.Server.Databases;

public sealed partial class DatabaseRegistry
{
    private readonly CancellationTokenSource _stopUnloading = new();
    private readonly Lock _evicting = new();
    private readonly Task _unloader;
    private int _loadedCount;

    // Closes of databases the idle check unloaded since it last returned memory; only the idle check touches it.
    private List<Task>? _closingSinceCollect;

    // Whether the idle check released a quiet database's pages since it last returned memory; only the idle check touches it.
    private bool _releasedSinceCollect;

    /// <summary>How many databases the catalog holds, loaded or not.</summary>
    public int Count => _databases.Count;

    /// <summary>How many databases are open now.</summary>
    public int LoadedCount => Volatile.Read(ref _loadedCount);

    /// <summary>
    /// Unloads the database if nothing uses it (no lease, listener or pending work), as the idle check would.
    /// </summary>
    /// <param name="name">The name, in any casing.</param>
    /// <returns>False when there is no such database, it is not loaded, or it is busy.</returns>
    public bool TryUnload(string name) => _databases.TryGetValue(name, out DatabaseEntry? entry) && TryUnload(entry, "asked to");

    /// <summary>
    /// Opens the database named <paramref name="name"/> if it is in the catalog and not loaded, without blocking a
    /// thread on an unload still closing its files: what the request dispatcher does before a handler takes its lease,
    /// so that lease finds the database open. Concurrent callers for one database share one open; nothing is leased.
    /// </summary>
    /// <param name="name">The name, in any casing; one not in the catalog is left for the handler to answer.</param>
    /// <returns>Completes once the database is open, or is known to be missing or removed.</returns>
    public ValueTask EnsureLoadedAsync(ReadOnlySpan<char> name) =>
        _bySpan.TryGetValue(name, out DatabaseEntry? entry) && entry.Instance is null ? LoadAsync(entry) : ValueTask.CompletedTask;

    private async ValueTask LoadAsync(DatabaseEntry entry)
    {
        while (true)
        {
            Task waitFor;
            TaskCompletionSource? mine = null;
            lock (entry.Gate)
            {
                if (entry.Removed || entry.Instance is not null)
                    return;
                if (entry.Loading is { } loading)
                {
                    waitFor = loading;
                }
                else if (!entry.Unloaded.IsCompleted)
                {
                    waitFor = entry.Unloaded;
                }
                else
                {
                    mine = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
                    entry.Loading = mine.Task;
                    waitFor = mine.Task;
                }
            }

            if (mine is null)
            {
                // Another request is opening it, or its last instance is still closing its files (and their locks):
                // wait without a thread, then look again, since an unload may have come in between.
                await waitFor.ConfigureAwait(ConfigureAwaitOptions.SuppressThrowing);
                continue;
            }

            bool opened;
            try
            {
                opened = TryOpen(entry);
            }
            catch (Exception e)
            {
                lock (entry.Gate)
                    entry.Loading = null;
                mine.SetException(e);
                throw;
            }

            lock (entry.Gate)
                entry.Loading = null;
            mine.SetResult();
            if (opened)
                return;
        }
    }

    /// <summary>
    /// Opens the database unless it is open or removed; false when an unload came in since the caller looked and its
    /// instance is still closing, for the caller to wait for without holding the gate.
    /// </summary>
    private bool TryOpen(DatabaseEntry entry)
    {
        long started = Stopwatch.GetTimestamp();
        lock (entry.Gate)
        {
            if (entry.Removed || entry.Instance is not null)
                return true;
            if (!entry.Unloaded.IsCompleted)
                return false;
            entry.Instance = Open(entry);
            Interlocked.Increment(ref _loadedCount);
        }

        DatabaseLog.Loaded(_logger, entry.Name, entry.Directory, Stopwatch.GetElapsedTime(started).TotalMilliseconds);
        EvictOverCap();
        return true;
    }

    /// <summary>
    /// The slow path of <see cref="Enter"/>: the database is unloaded, or was being unloaded when the request came.
    /// One request opens it while the others for the same database wait, then all get leases on the one instance.
    /// HTTP requests reach it only when an unload comes between the dispatcher's <see cref="EnsureLoadedAsync"/> and
    /// the handler's lease; the wait for a closing instance is then the one thread that blocks on it.
    /// </summary>
    private bool TryLoadAndEnter(DatabaseEntry entry, [NotNullWhen(true)] out Database? database)
    {
        long started = 0;
        lock (entry.Gate)
        {
            database = null;
            if (entry.Removed)
                return false;
            Database? loaded = entry.Instance;
            if (loaded is null)
            {
                started = Stopwatch.GetTimestamp();
                WaitForUnload(entry);
                loaded = Open(entry);
                entry.Instance = loaded;
                Interlocked.Increment(ref _loadedCount);
            }

            // Under the gate an instance is open: unloads and removals clear or mark it under the same gate.
            if (!loaded.TryEnter())
                return false;
            database = loaded;
        }

        if (started != 0)
        {
            DatabaseLog.Loaded(_logger, entry.Name, entry.Directory, Stopwatch.GetElapsedTime(started).TotalMilliseconds);
            EvictOverCap();
        }

        return true;
    }

    private static void WaitForUnload(DatabaseEntry entry)
    {
        // The previous instance must have released its files (and their locks) before they open again. The async
        // path has waited for it already; the sync one blocks here only when it races an unload.
        try
        {
            entry.Unloaded.Wait();
        }
        catch (AggregateException)
        {
            // Logged when the unload failed; opening again recovers from the journal.
        }
    }

    private bool TryUnload(DatabaseEntry entry, string reason) => TryUnload(entry, reason, out _);

    private bool TryUnload(DatabaseEntry entry, string reason, out Task closed)
    {
        closed = Task.CompletedTask;
        lock (entry.Gate)
        {
            if (entry.Removed || entry.Instance is not { } database || !database.TryUnload(out closed))
                return false;
            entry.Instance = null;
            entry.Unloaded = closed;
        }

        Interlocked.Decrement(ref _loadedCount);
        DatabaseLog.Unloading(_logger, entry.Name, reason);
        closed.ContinueWith(
            static (task, state) =>
            {
                var (logger, name) = ((ILogger, string))state!;
                DatabaseLog.UnloadFailed(logger, task.Exception!.GetBaseException(), name);
            },
            (_logger, entry.Name),
            CancellationToken.None,
            TaskContinuationOptions.OnlyOnFaulted | TaskContinuationOptions.ExecuteSynchronously,
            TaskScheduler.Default);
        return true;
    }

    /// <summary>Takes the database out for good (delete, shutdown): no request opens it again; waits until its files are closed.</summary>
    private async Task RemoveAsync(DatabaseEntry entry)
    {
        Database? database;
        Task unloaded;
        lock (entry.Gate)
        {
            entry.Removed = true;
            database = entry.Instance;
            entry.Instance = null;
            unloaded = entry.Unloaded;
        }

        if (database is not null)
        {
            Interlocked.Decrement(ref _loadedCount);
            await database.CloseAsync().ConfigureAwait(false);
        }

        await unloaded.ConfigureAwait(ConfigureAwaitOptions.SuppressThrowing);
    }

    /// <summary>Unloads least recently used databases until at most <see cref="DatabasesOptions.MaxLoaded"/> are open (busy ones stay).</summary>
    private void EvictOverCap()
    {
        int cap = _options.MaxLoaded;
        if (cap <= 0 || Volatile.Read(ref _loadedCount) <= cap || !_evicting.TryEnter())
            return;
        try
        {
            var loaded = new List<(long LastUsed, DatabaseEntry Entry)>(Volatile.Read(ref _loadedCount));
            foreach (KeyValuePair<string, DatabaseEntry> pair in _databases)
            {
                if (pair.Value.Instance is { } database)
                    loaded.Add((database.LastUsed, pair.Value));
            }

            loaded.Sort(static (a, b) => a.LastUsed.CompareTo(b.LastUsed));
            foreach ((long _, DatabaseEntry entry) in loaded)
            {
                if (Volatile.Read(ref _loadedCount) <= cap)
                    break;
                TryUnload(entry, $"more than {cap} databases are loaded (Databases:MaxLoaded) and it was used least recently");
            }
        }
        finally
        {
            _evicting.Exit();
        }
    }

    private async Task UnloadIdleAsync(CancellationToken stop)
    {
        TimeSpan idleFor = _options.IdleUnloadAfter;
        TimeSpan quietFor = _options.ReleasePagesAfter;
        TimeSpan compactAfter = _options.CompactWhenQuietFor;
        if (idleFor <= TimeSpan.Zero && quietFor <= TimeSpan.Zero && compactAfter <= TimeSpan.Zero && _options.MaxLoaded <= 0)
            return;
        // Checked a few times per idle period (the shortest of the unload's, the page release's and the compaction's), so a database
        // unloads at most a quarter period late; never busier than 20 a second. The cap is checked too: a database
        // still busy when another opened is unloaded once it is idle.
        TimeSpan shortest = Shortest(Shortest(idleFor, quietFor), compactAfter);
        TimeSpan every = shortest <= TimeSpan.Zero
            ? TimeSpan.FromSeconds(1)
            : TimeSpan.FromTicks(Math.Clamp(shortest.Ticks / 4, TimeSpan.FromMilliseconds(50).Ticks, TimeSpan.FromSeconds(30).Ticks));
        using var timer = new PeriodicTimer(every);
        try
        {
            while (await timer.WaitForNextTickAsync(stop).ConfigureAwait(false))
            {
                try
                {
                    if (idleFor > TimeSpan.Zero)
                        UnloadIdle(idleFor);
                    EvictOverCap();
                    if (compactAfter > TimeSpan.Zero)
                        CompactQuiet(compactAfter);
                    if (quietFor > TimeSpan.Zero)
                        ReleaseQuietPages(quietFor);
                }
                catch (Exception e) when (e is not OperationCanceledException)
                {
                    DatabaseLog.IdleCheckFailed(_logger, e);
                }
            }
        }
        catch (OperationCanceledException) when (stop.IsCancellationRequested)
        {
            // Shutting down.
        }
    }

    /// <summary>The shorter of two periods, a zero (off) one not counting.</summary>
    private static TimeSpan Shortest(TimeSpan a, TimeSpan b) =>
        a <= TimeSpan.Zero ? b : b <= TimeSpan.Zero ? a : TimeSpan.FromTicks(Math.Min(a.Ticks, b.Ticks));

    private void UnloadIdle(TimeSpan idleFor)
    {
        long now = Stopwatch.GetTimestamp();
        bool unloaded = false;
        foreach (KeyValuePair<string, DatabaseEntry> pair in _databases)
        {
            if (pair.Value.Instance is { } database && Stopwatch.GetElapsedTime(database.LastUsed, now) >= idleFor
                && TryUnload(pair.Value, $"idle for {idleFor} (Databases:IdleUnloadAfter)", out Task closed))
            {
                (_closingSinceCollect ??= []).Add(closed);
                unloaded = true;
            }
        }

        // One collection per wave of unloads rather than one per check: databases going idle one after another (a
        // thousand tenants read once each) would otherwise have a blocking compacting collection every check, each
        // walking the heap of every database still loaded. The wave has ended when a check unloads nothing more, or
        // at once when none is left loaded.
        if (_closingSinceCollect is { } closing && (!unloaded || LoadedCount == 0))
        {
            _closingSinceCollect = null;
            _ = ReturnMemoryAsync(closing, "a wave of idle unloads");
        }
    }

    private void ReleaseQuietPages(TimeSpan quietFor)
    {
        long now = Stopwatch.GetTimestamp();
        bool released = false;
        foreach (KeyValuePair<string, DatabaseEntry> pair in _databases)
        {
            if (pair.Value.Instance is { } database && Stopwatch.GetElapsedTime(database.LastUsed, now) >= quietFor)
                released |= database.ReleaseResidentPages();
        }

        // Databases gone quiet leave the garbage of their last requests (and of their opening) on a heap that a quiet
        // server does not collect; one compacting collection once a wave of them has gone quiet returns it, as after
        // a wave of unloads.
        if (released)
        {
            _releasedSinceCollect = true;
        }
        else if (_releasedSinceCollect)
        {
            _releasedSinceCollect = false;
            _ = ReturnMemoryAsync([], "a wave of page releases");
        }
    }

    /// <summary>
    /// Once unloaded databases have closed, collects and compacts the heap so their caches' memory goes back to the
    /// system: a server gone quiet allocates too little for the GC to run on its own, and would keep it resident.
    /// The collection stops every thread while it runs, so its pause is logged: it is what a request arriving then waits.
    /// </summary>
    private async Task ReturnMemoryAsync(List<Task> closing, string after)
    {
        // Yielding first: the last close completes on a thread still inside that database's close, whose frames
        // reference it; collecting there would keep that database for the next collection, and the server has none.
        await Task.WhenAll(closing).ConfigureAwait(ConfigureAwaitOptions.SuppressThrowing | ConfigureAwaitOptions.ForceYielding);
        long before = GC.GetTotalMemory(forceFullCollection: false);
        long started = Stopwatch.GetTimestamp();
        GC.Collect(GC.MaxGeneration, GCCollectionMode.Aggressive, blocking: true, compacting: true);
        TimeSpan elapsed = Stopwatch.GetElapsedTime(started);
        GCMemoryInfo collected = GC.GetGCMemoryInfo(GCKind.FullBlocking);
        TimeSpan pause = collected.PauseDurations.Length > 0 ? collected.PauseDurations[0] : elapsed;
        DatabaseLog.Collected(_logger, after, pause.TotalMilliseconds, elapsed.TotalMilliseconds, before >> 20, collected.HeapSizeBytes >> 20, collected.TotalCommittedBytes >> 20);
    }
}
