using Folio.Storage.Transactions;

namespace Folio.Storage;

public sealed partial class StorageEnvironment
{
    private readonly Lock _flushLock = new();
    private readonly Lock _unflushedLock = new();
    private readonly List<CommittedTransaction> _unflushed = [];
    private readonly Lock _flushRound = new();
    private readonly PageReclaimer _reclaimer = new();
    private long _unflushedBytes;
    private long _lastFlushed;
    private long _headerSequence;
    private long _lastFlushTicks = Environment.TickCount64;
    private long _lastRoundTicks = Environment.TickCount64;
    private int _flushQueued;
    private int _flushRequested;
    private bool _flusherStarted;
    private volatile bool _stopFlusher;

    private void EnqueueForFlush(CommittedTransaction committed)
    {
        long pending;
        lock (_unflushedLock)
        {
            _unflushed.Add(committed);
            pending = _unflushedBytes += committed.Bytes;
        }
        if (pending >= Options.FlushThresholdBytes && _flusherStarted)
            Flushing.FlushScheduler.Shared.Schedule(this);
    }

    /// <summary>
    /// Asks for a flush round now, whatever the interval and threshold say, for a commit whose record was large enough
    /// to take a journal file of its own (<see cref="Journal.JournalWriter.LargeRecordBytes"/>): that file goes only once
    /// applied, and at the next interval another such file may sit beside it (a search index committing 10,000-record
    /// batches kept three of them on disk at any moment). Called once the commit's state is published, so the round
    /// cannot run before it and find nothing newer to apply.
    /// </summary>
    private void RequestFlush()
    {
        Volatile.Write(ref _flushRequested, 1);
        if (_flusherStarted)
            Flushing.FlushScheduler.Shared.Schedule(this);
    }

    private void StartFlusher()
    {
        if (!Options.BackgroundFlush)
            return;
        _flusherStarted = true;
        Flushing.FlushScheduler.Shared.Register(this);
    }

    private void StopFlusher()
    {
        _stopFlusher = true;
        if (!_flusherStarted)
            return;
        Flushing.FlushScheduler.Shared.Unregister(this);
        // Waits out a round in progress on a shared flusher thread; a round that starts later sees the stop.
        lock (_flushRound)
        {
        }
    }

    /// <summary>True once the flush interval has passed since the last round (the shared ticker asks).</summary>
    internal bool FlushRoundDue(long now) => now - Volatile.Read(ref _lastRoundTicks) >= (long)Options.FlushInterval.TotalMilliseconds;

    /// <summary>Marks a round queued; false when one is queued already, so an environment is in the queue once at most.</summary>
    internal bool TryMarkFlushQueued() => Interlocked.Exchange(ref _flushQueued, 1) == 0;

    /// <summary>
    /// One flush round, on a shared flusher thread (<see cref="Flushing.FlushScheduler"/>): it blocks on the data
    /// file's sync and never takes the write lock, so commits go on meanwhile.
    /// </summary>
    internal void RunFlushRound()
    {
        // Cleared first: a threshold crossed during this round queues the next one.
        Volatile.Write(ref _flushQueued, 0);
        lock (_flushRound)
        {
            if (_stopFlusher || _failure is not null)
                return;
            Volatile.Write(ref _lastRoundTicks, Environment.TickCount64);
            PageBuffers.Trim();
            DisposeUnreadRetiredPagers();
            long pending;
            lock (_unflushedLock)
                pending = _unflushedBytes;
            var requested = Interlocked.Exchange(ref _flushRequested, 0) == 1;
            var due = requested || Environment.TickCount64 - _lastFlushTicks >= (long)Options.FlushInterval.TotalMilliseconds;
            if (pending == 0)
            {
                ReleaseIdleJournals();
                return;
            }
            if (pending < Options.FlushThresholdBytes && !due)
                return;
            try
            {
                FlushToDataFile();
            }
            catch (DiskFullException)
            {
                // The data file could not grow; the journal keeps every committed transaction, so try again later.
            }
            catch (Exception e) when (e is IOException or StorageException)
            {
                Fail(e);
            }
        }
    }

    /// <summary>
    /// For an environment idle long enough (<see cref="StorageOptions.JournalReleaseAfterIdle"/>): deletes its journals
    /// and gives back the blocks of the data file's tail that growth took ahead of use. Under the flush lock, so no
    /// flush writes pages meanwhile; a later one takes blocks again before it writes there.
    /// </summary>
    private void ReleaseIdleJournals()
    {
        if (Options.JournalReleaseAfterIdle <= TimeSpan.Zero)
            return;
        lock (_flushLock)
        {
            if (!_journal.ReleaseIdle(Volatile.Read(ref _lastFlushed), (long)Options.JournalReleaseAfterIdle.TotalMilliseconds))
                return;
            try
            {
                Pager.ReleaseTail(_state.NextPage);
            }
            catch (IOException)
            {
                // The tail keeps its blocks: disk not given back yet, nothing else.
            }
        }
    }

    /// <summary>
    /// Applies committed transactions to the data file, up to the oldest snapshot a reader still
    /// holds (a newer version written there could be read by that reader where it expects an older
    /// one), syncs it, records the new position in the file header and retires the applied journals.
    /// </summary>
    public void FlushToDataFile()
    {
        lock (_flushLock)
        {
            _lastFlushTicks = Environment.TickCount64;
            var state = _state;
            Interlocked.MemoryBarrier();
            var upTo = Math.Min(state.TransactionId, _readers.OldestSnapshot());

            var batch = new List<CommittedTransaction>();
            lock (_unflushedLock)
            {
                foreach (var committed in _unflushed)
                {
                    if (committed.TransactionId > upTo)
                        break;
                    batch.Add(committed);
                }
            }
            if (batch.Count == 0)
                return;
            upTo = batch[^1].TransactionId;

            var newestWriter = new Dictionary<long, long>();
            var highestPage = 0L;
            foreach (var committed in batch)
            {
                foreach (var version in committed.Pages)
                {
                    newestWriter[version.PageNumber] = committed.TransactionId;
                    highestPage = Math.Max(highestPage, version.PageNumber + version.Buffer.Length / StorageLimits.PageSize);
                }
            }

            // A DiskFullException leaves before anything is written: the data file and the journal are as they were.
            Pager.EnsureCapacity(highestPage);
            try
            {
                // In commit order, so a page reused as part of a later overflow run ends with the run's bytes.
                foreach (var committed in batch)
                {
                    foreach (var version in committed.Pages)
                    {
                        if (newestWriter[version.PageNumber] == committed.TransactionId)
                            Pager.Write(version.PageNumber, version.Buffer);
                    }
                }
                Pager.Sync();
                WriteHeader(upTo);
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                Fail(e);
                throw new EnvironmentFailedException("Applying the journal to the data file failed; the environment refuses further writes.", e);
            }
            Volatile.Write(ref _lastFlushed, upTo);

            long flushedBytes = 0;
            var removed = new List<byte[]>();
            foreach (var committed in batch)
            {
                PageTable.RemoveFlushed(committed.Pages, upTo, removed);
                flushedBytes += committed.Bytes;
            }
            RetireRemoved(removed);
            lock (_unflushedLock)
            {
                _unflushed.RemoveRange(0, batch.Count);
                _unflushedBytes -= flushedBytes;
            }
            _journal.RetireUpTo(upTo);
        }
    }

    /// <summary>
    /// Hands the buffers of removed page versions to the reclaimer, held by every transaction running
    /// now. The fence pairs with the one a reader takes publishing its snapshot and the writer's in
    /// Begin: a transaction this scan misses looks the pages up only after the removal, and so
    /// cannot find the removed versions.
    /// </summary>
    private void RetireRemoved(List<byte[]> removed)
    {
        Interlocked.MemoryBarrier();
        var running = new List<ActiveTransaction>();
        _readers.CaptureRunning(running);
        if (_writer.IsRunning)
            running.Add(new ActiveTransaction(_writer, _writer.Generation));
        _reclaimer.Retire(removed, running);
        _reclaimer.Reclaim(PageBuffers);
    }
}
