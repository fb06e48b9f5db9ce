using System.Diagnostics;
using Folio.Storage.Compaction;
using Folio.Storage.Paging;
using Folio.Storage.Transactions;

namespace Folio.Storage;

public sealed partial class StorageEnvironment
{
    // Catch-up rounds stop once this few changes are left: the last ones are copied while writes wait.
    private const int FinalChangesAtMost = 2_000;
    private const int MaxCatchUpRounds = 8;

    private readonly Lock _retiredLock = new();
    private readonly List<(PageSource Pages, long SwapAt)> _retired = [];
    private volatile CompactionChangeLog? _changeLog;
    private volatile CompactionProgress? _compaction;
    private CancellationTokenSource? _compactionStop;
    private int _compacting;

    /// <summary>Where the writer records changed keys while a compaction copies; null otherwise.</summary>
    internal CompactionChangeLog? ChangeLog => _changeLog;

    /// <summary>The compaction running now, or null.</summary>
    public CompactionProgress? RunningCompaction => _compaction;

    /// <summary>
    /// Rewrites the environment into a new data file holding only live pages, densely filled, then swaps it in.
    /// Reads go on throughout (a snapshot taken before the swap keeps reading the old file until it ends); writes
    /// go on while a snapshot is copied and while the changes made meanwhile are copied again, and wait only for
    /// the last few changes, the new file's sync and its rename over the old one. A crash before that rename
    /// leaves the old file (the half-built one is deleted at the next open); after it, the new one, whole.
    /// Blocks the calling thread for the whole copy.
    /// </summary>
    /// <param name="progress">Told after every committed batch of the copy, on the calling thread.</param>
    /// <param name="rewriter">Rewrites values as they are copied (recompression), or null.</param>
    /// <param name="cancellation">Stops the copy before the swap; the old file stays.</param>
    /// <exception cref="CompactionInProgressException">Another compaction runs on this environment.</exception>
    public CompactionResult Compact(Action<CompactionProgress>? progress = null, ICompactionValueRewriter? rewriter = null, CancellationToken cancellation = default)
    {
        ThrowIfClosing();
        ThrowIfFailed();
        if (Interlocked.CompareExchange(ref _compacting, 1, 0) != 0)
            throw new CompactionInProgressException($"A compaction of {_fileSystem.Description} is already running.");
        var stop = CancellationTokenSource.CreateLinkedTokenSource(cancellation);
        Volatile.Write(ref _compactionStop, stop);
        var clock = Stopwatch.StartNew();
        // What the file holds once the journal is applied: commits not flushed yet count, as they will take that room.
        var sizeBefore = Math.Max(Pager.NumberOfPages, _state.NextPage) * StorageLimits.PageSize;
        StorageEnvironment? target = null;
        var swapped = false;
        try
        {
            CompactionFileSystem.DiscardLeftovers(_fileSystem);
            rewriter?.BeforeCopy(stop.Token);
            target = Open(new StorageOptions
            {
                FileSystem = new CompactionFileSystem(_fileSystem),
                JournalFileSize = 16L << 20,
                FlushThresholdBytes = 16L << 20,
                // Flushed by the copy itself between batches, so a compaction's device operations come in one order.
                BackgroundFlush = false,
                PageBufferPoolPages = 2048,
                PackMidsizeValues = true,
            });
            var log = new CompactionChangeLog();
            var phase = CompactionPhase.Copying;
            long total = 0;
            using var copier = new TreeCopier(target, rewriter, stop.Token);
            void Report()
            {
                var now = new CompactionProgress(phase, copier.CopiedEntries, total, copier.CopiedBytes, clock.Elapsed, sizeBefore);
                _compaction = now;
                progress?.Invoke(now);
            }
            copier.Progressed = Report;

            using (var snapshot = BeginTracking(log))
            {
                total = TreeCopier.CountEntries(snapshot.Pages);
                Report();
                copier.CopyAll(snapshot.Pages);
            }

            phase = CompactionPhase.CatchingUp;
            var rounds = 0;
            while (log.Count > FinalChangesAtMost && rounds < MaxCatchUpRounds)
            {
                rounds++;
                var (keys, resets, snapshot) = TakeChanges(log);
                using (snapshot)
                    copier.Apply(snapshot.Pages, keys, resets);
            }

            // The bulk of the new file is made durable now, so the sync while writes wait covers only the last changes.
            copier.Commit();
            target.FlushToDataFile();

            phase = CompactionPhase.Swapping;
            Report();
            var paused = Stopwatch.StartNew();
            _writeLock.Wait(stop.Token);
            try
            {
                ThrowIfClosing();
                ThrowIfFailed();
                _changeLog = null;
                var (keys, resets) = log.Take();
                using (var snapshot = BeginRead())
                    copier.Apply(snapshot.Pages, keys, resets);
                var swapAt = _state.TransactionId;
                CloseForSwap(target, swapAt);
                SwapDataFile(swapAt);
                swapped = true;
            }
            finally
            {
                _changeLog = null;
                _writeLock.Release();
            }
            paused.Stop();
            DisposeUnreadRetiredPagers();

            phase = CompactionPhase.Completed;
            Report();
            var sizeAfter = Pager.NumberOfPages * StorageLimits.PageSize;
            return new CompactionResult(sizeBefore, sizeAfter, copier.CopiedEntries, rounds, paused.Elapsed, clock.Elapsed);
        }
        finally
        {
            _changeLog = null;
            if (!swapped)
                Abandon(target);
            _compaction = null;
            Volatile.Write(ref _compactionStop, null);
            stop.Dispose();
            Volatile.Write(ref _compacting, 0);
        }
    }

    /// <summary>Applies the journal to the data file once enough is pending (for an environment flushed by its user).</summary>
    internal void FlushIfDue()
    {
        long pending;
        lock (_unflushedLock)
            pending = _unflushedBytes;
        if (pending >= Options.FlushThresholdBytes)
            FlushToDataFile();
    }

    /// <summary>Starts recording changed keys and takes the snapshot to copy, with no write in between.</summary>
    private ReadTransaction BeginTracking(CompactionChangeLog log)
    {
        _writeLock.Wait();
        try
        {
            ThrowIfClosing();
            _changeLog = log;
            return BeginRead();
        }
        finally
        {
            _writeLock.Release();
        }
    }

    /// <summary>
    /// The changes recorded so far and a snapshot holding every one of them: taken while no write transaction is
    /// open, since one that recorded a key into the old log and committed after the snapshot would be missed.
    /// </summary>
    private (Dictionary<string, HashSet<byte[]>> Keys, HashSet<string> Resets, ReadTransaction Snapshot) TakeChanges(CompactionChangeLog log)
    {
        _writeLock.Wait();
        try
        {
            ThrowIfClosing();
            var (keys, resets) = log.Take();
            return (keys, resets, BeginRead());
        }
        finally
        {
            _writeLock.Release();
        }
    }

    /// <summary>
    /// Applies everything the new environment committed to its data file and closes it, then stamps its header
    /// with <paramref name="swapAt"/>: opened from now on, it holds this environment at that transaction and the
    /// journal's records up to it are skipped as applied.
    /// </summary>
    private void CloseForSwap(StorageEnvironment target, long swapAt)
    {
        target.FlushToDataFile();
        if (Volatile.Read(ref target._lastFlushed) != target._state.TransactionId)
            throw new StorageException($"The compacted copy of {_fileSystem.Description} could not apply all its commits to its data file.");
        target.Dispose();
        var page = new byte[StorageLimits.PageSize];
        using var file = _fileSystem.Open(CompactionFileSystem.DataFileName);
        for (long sequence = 2; sequence <= 3; sequence++)
        {
            new FileHeader(FileHeader.CurrentFormatVersion, StorageLimits.PageSize, swapAt, sequence).WriteTo(page, sequence % 2);
            file.Write(sequence % 2 * StorageLimits.PageSize, page);
        }
        file.Flush();
    }

    /// <summary>
    /// Renames the new data file over the old one (the moment the compaction counts) and points new transactions
    /// at it. Runs under the write lock. Snapshots taken before keep the old file's mapping and page versions.
    /// </summary>
    private void SwapDataFile(long swapAt)
    {
        lock (_flushLock)
        {
            _fileSystem.Replace(CompactionFileSystem.DataFileName, DataFileName);
            _fileSystem.FlushDirectory();
            try
            {
                var retired = _pages;
                _pages = new PageSource(_fileSystem.OpenPager(DataFileName, StorageLimits.PageSize), new PageTable());
                _headerSequence = 3;
                lock (_unflushedLock)
                {
                    // Those versions belong to the old file's page numbers; the new file holds their data already.
                    _unflushed.Clear();
                    _unflushedBytes = 0;
                }
                Volatile.Write(ref _lastFlushed, swapAt);
                _state = LoadState();
                lock (_retiredLock)
                    _retired.Add((retired, swapAt));
                _journal.RetireUpTo(swapAt);
            }
            catch (Exception e) when (e is IOException or StorageException)
            {
                Fail(e);
                throw new EnvironmentFailedException($"The compacted data file of {_fileSystem.Description} is in place but could not be opened; reopen the environment.", e);
            }
        }

        // One commit that changes nothing but the id: every snapshot of the new file is then newer than swapAt,
        // so a snapshot at swapAt or older can only be one of the old file's, which is what the release counts on.
        _writer.Begin(_state);
        try
        {
            _writer.ModifyPage(EnvironmentState.StatePageNumber);
            Commit(_writer);
        }
        finally
        {
            _writer.End();
        }
    }

    /// <summary>Closes the data files that compactions replaced once no snapshot reads them any more.</summary>
    internal void DisposeUnreadRetiredPagers()
    {
        lock (_retiredLock)
        {
            if (_retired.Count == 0)
                return;
            // Paired with the fence of a reader publishing its seat: a reader this scan misses saw the new state.
            Interlocked.MemoryBarrier();
            var oldest = _readers.OldestSnapshot();
            for (var i = _retired.Count - 1; i >= 0; i--)
            {
                if (oldest <= _retired[i].SwapAt)
                    continue;
                _retired[i].Pages.Pager.Dispose();
                _retired.RemoveAt(i);
            }
        }
    }

    private void ReleaseRetiredPagers(ref Exception? failure)
    {
        lock (_retiredLock)
        {
            foreach (var (pages, _) in _retired)
                Release(pages.Pager, ref failure);
            _retired.Clear();
        }
    }

    /// <summary>Stops a compaction in progress (the environment is closing); it throws and leaves the old file.</summary>
    private void CancelCompaction()
    {
        try
        {
            Volatile.Read(ref _compactionStop)?.Cancel();
        }
        catch (ObjectDisposedException)
        {
            // It ended meanwhile.
        }
    }

    private void Abandon(StorageEnvironment? target)
    {
        if (target is null)
            return;
        target.Dispose();
        try
        {
            CompactionFileSystem.DiscardLeftovers(_fileSystem);
        }
        catch (IOException)
        {
            // The next compaction or open deletes it.
        }
    }
}
