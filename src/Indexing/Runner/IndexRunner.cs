using System.Collections.Concurrent;
using System.Diagnostics;
using Folio.Indexing.Documents;
using Folio.Storage.Documents;
using Folio.Storage.Scheduling;
using Microsoft.Extensions.Logging;

namespace Folio.Indexing.Runner;

/// <summary>
/// Keeps an index up to date with a document store in the background (BASE: writes never wait for it). In turns
/// on a shared <see cref="WorkScheduler"/>, one batch a turn, it reads the changes of the index's collections by
/// etag (<see cref="DocumentReader.ChangesAfter"/>) in batches sized by how long the last one took, reads the next
/// batch while the current one commits, and hands each to the index's <see cref="IIndexBatchProcessor"/>, which
/// commits it with the etag it reached. Once caught up it holds no thread: the store's next commit schedules it.
/// The runner knows nothing of what an index stores: it owns reading, progress and waiting, staleness,
/// errors, statistics and the lifecycle.
/// </summary>
public sealed class IndexRunner : ScheduledWork, IDisposable
{
    private const int InitialBatchSize = 1_024;
    private const int MinBatchSize = 128;
    private const int MaxBatchSize = 32_768;
    private const long MaxBatchBytes = 16L << 20;
    private const int KeptBatches = 20;

    private readonly DocumentStore _store;
    private readonly IIndexBatchProcessor _processor;
    private readonly IReadOnlyList<string>? _changeFilter;
    private readonly ILogger _logger;
    private readonly IndexErrorLog _errors;
    // Made by the first batch: an index opened over documents it has already indexed may run none while it stays
    // loaded, and the first segment of a queue is most of a kilobyte, three per database on a server of small tenants.
    private ConcurrentQueue<IndexBatchStats>? _batches;
    private readonly Action _committed;
    private TaskCompletionSource _progressed = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private long _processedEtag;
    private long _committedEtag;
    private long _totalDocuments;
    private long _totalDeletes;
    private long _totalBatches;
    private long _totalBatchTicks;
    private bool _deferred;
    private int _batchSize = InitialBatchSize;
    private Task<PreparedBatch>? _next;
    private CommittedChanges? _waitingOn;
    private bool _recovered;
    private volatile bool _paused;
    private volatile Exception? _failure;
    private volatile bool _disposed;

    /// <summary>
    /// Starts keeping <paramref name="processor"/>'s index up to date with the changes of
    /// <paramref name="collections"/> in <paramref name="store"/>, from the etag the processor last committed.
    /// The runner owns the processor from here on and disposes it with itself. With <paramref name="startPaused"/> it
    /// indexes nothing until <see cref="Paused"/> is cleared. Its turns run on <paramref name="scheduler"/>
    /// (<see cref="WorkScheduler.Background"/> unless given), sharing <paramref name="group"/>'s turns (its database's
    /// other indexes') when given, in which case they run on the group's scheduler.
    /// </summary>
    public IndexRunner(string name, IReadOnlyList<string> collections, DocumentStore store, IIndexBatchProcessor processor, ILogger logger,
        bool startPaused = false, WorkScheduler? scheduler = null, WorkGroup? group = null)
        : base(group?.Scheduler ?? scheduler ?? WorkScheduler.Background, group)
    {
        _paused = startPaused;
        _committed = Schedule;
        Name = name;
        Collections = collections;
        _changeFilter = CollectionScope.ChangeFilter(collections);
        _store = store;
        _processor = processor;
        _logger = logger;
        _errors = new IndexErrorLog(name, logger);
        _processedEtag = processor.ReadProcessedEtag();
        _committedEtag = _processedEtag;
        Schedule();
    }

    /// <summary>The index's name.</summary>
    public string Name { get; }

    /// <summary>The collections whose changes the index takes.</summary>
    public IReadOnlyList<string> Collections { get; }

    /// <summary>The etag up to which every change of the collections is indexed.</summary>
    public long ProcessedEtag => Volatile.Read(ref _processedEtag);

    /// <summary>The error that stopped the runner, if one did.</summary>
    public Exception? Failure => _failure;

    /// <summary>
    /// Whether the runner holds off: a paused runner finishes the batch it is committing, then reads nothing more until
    /// resumed, and goes on from where it stopped (its index turns stale meanwhile; waiters for an etag time out).
    /// </summary>
    public bool Paused
    {
        get => !_disposed && _paused;
        set
        {
            if (_disposed)
                return;
            _paused = value;
            if (!value)
                Schedule();
        }
    }

    /// <summary>Whether the runner was stopped and its processor disposed.</summary>
    public bool IsDisposed => _disposed;

    /// <summary>The most recent errors (at most 500 are kept) and how many there were in all.</summary>
    public (IReadOnlyList<IndexError> Recent, long Total) Errors => _errors.Snapshot;

    /// <summary>Forgets the errors recorded so far (an administrator has seen to them).</summary>
    public void ClearErrors() => _errors.Clear();

    /// <summary>The most recent batches.</summary>
    public IReadOnlyList<IndexBatchStats> RecentBatches => _batches is { } batches ? [.. batches] : [];

    /// <summary>What the runner has indexed since it started; unlike <see cref="RecentBatches"/>, nothing is forgotten.</summary>
    public IndexTotals Totals => new(
        Interlocked.Read(ref _totalDocuments),
        Interlocked.Read(ref _totalDeletes),
        Interlocked.Read(ref _totalBatches),
        Interlocked.Read(ref _totalBatchTicks) / (double)TimeSpan.TicksPerSecond);

    /// <summary>
    /// Whether a change of the collections after <paramref name="indexedEtag"/> is in <paramref name="reader"/>'s
    /// snapshot: whether an index that had processed up to that etag misses something the snapshot holds.
    /// </summary>
    public bool IsStale(DocumentReader reader, long indexedEtag) =>
        indexedEtag < reader.LastEtag && reader.ChangesAfter(indexedEtag, _changeFilter, maxChanges: 1).MoveNext();

    /// <summary>Waits until every change up to <paramref name="etag"/> is processed; false on timeout, or once the runner failed or was disposed.</summary>
    public async Task<bool> WaitForEtagAsync(long etag, TimeSpan timeout, CancellationToken cancellationToken = default)
    {
        var deadline = Stopwatch.GetTimestamp() + (long)(timeout.TotalSeconds * Stopwatch.Frequency);
        while (ProcessedEtag < etag)
        {
            if (_failure is not null || _disposed)
                return false;
            var remaining = TimeSpan.FromSeconds((double)(deadline - Stopwatch.GetTimestamp()) / Stopwatch.Frequency);
            if (remaining <= TimeSpan.Zero)
                return false;
            var progressed = Volatile.Read(ref _progressed).Task;
            if (ProcessedEtag >= etag)
                break;
            try
            {
                await progressed.WaitAsync(remaining, cancellationToken).ConfigureAwait(false);
            }
            catch (TimeoutException)
            {
                return ProcessedEtag >= etag;
            }
        }
        return true;
    }

    /// <summary>
    /// Stops the runner and disposes the processor (searchers already open keep reading their snapshot). Waiters
    /// for an etag wake and are told it was not reached. A second call does nothing.
    /// </summary>
    public void Dispose()
    {
        if (_disposed)
            return;
        _disposed = true;
        StopTurns();
        try
        {
            _next?.Wait();
        }
        catch (AggregateException)
        {
            // A read ahead that failed is of no use to a runner that is going away.
        }
        _processor.Dispose();
        Progressed();
    }

    /// <summary>
    /// One turn: commits the next batch (read ahead during the previous turn's commit when there was more), and
    /// starts reading the one after. Paused or caught up, it publishes what batches held back and holds no thread
    /// until resumed or until the store commits again.
    /// </summary>
    protected override bool RunTurn()
    {
        if (_failure is not null)
            return false;
        try
        {
            if (!_recovered)
            {
                _processor.Recover();
                _recovered = true;
            }
            if (_paused || _disposed)
            {
                // Resuming schedules a turn; holding the commit waited on meanwhile would keep every later one reachable.
                _waitingOn = null;
                Publish();
                return false;
            }
            if (_next is null)
            {
                SkipUntouchedCommits();
                var last = _store.LastChanges;
                if (_committedEtag >= last.LastEtag)
                {
                    Publish();
                    WaitForCommit(last);
                    return false;
                }
            }
            var batch = _next is not null ? _next.GetAwaiter().GetResult() : Prepare(_committedEtag, _batchSize);
            _next = null;
            if (batch.UpToEtag < _store.LastEtag)
            {
                var after = batch.UpToEtag;
                var size = _batchSize;
                _next = Task.Run(() => Prepare(after, size));
            }
            Index(batch, moreFollows: _next is not null);
            return true;
        }
        catch (Exception e)
        {
            _failure = e;
            _logger.LogError(e, "Indexer of {Index} stopped after an error", Name);
            Progressed();
            return false;
        }
    }

    /// <summary>
    /// Has the commit after <paramref name="last"/> (everything up to which is processed) schedule a turn, once
    /// for each commit waited on however often the runner finds nothing to do.
    /// </summary>
    private void WaitForCommit(CommittedChanges last)
    {
        if (ReferenceEquals(_waitingOn, last))
            return;
        _waitingOn = last;
        last.Next.ConfigureAwait(false).GetAwaiter().UnsafeOnCompleted(_committed);
    }

    /// <summary>
    /// Moves the processed etag past the commits since the one waited on that touched none of the collections:
    /// they need no read. Lets go of the commit waited on once it has a successor, since it keeps every later one reachable.
    /// </summary>
    private void SkipUntouchedCommits()
    {
        var last = _waitingOn;
        if (last is null || !last.Next.IsCompleted)
            return;
        _waitingOn = null;
        while (last.Next.IsCompletedSuccessfully)
        {
            var commit = last.Next.Result;
            if (_changeFilter is null || commit.Touches(_changeFilter))
                break;
            Advance(commit.LastEtag);
            last = commit;
        }
    }

    /// <summary>Reads the changes after <paramref name="afterEtag"/> into a new batch, up to a bound the batch size sets.</summary>
    private PreparedBatch Prepare(long afterEtag, int maxChanges)
    {
        var batch = _processor.CreateBatch();
        using var reader = _store.OpenReader();
        var changes = reader.ChangesAfter(afterEtag, _changeFilter, maxChanges, MaxBatchBytes);
        while (changes.MoveNext())
        {
            if (changes.Kind == DocumentChangeKind.Put)
                batch.AddDocument(changes.Document);
            else
                batch.AddDelete(changes.Tombstone);
        }
        return new PreparedBatch(batch, changes.Count, changes.UpToEtag);
    }

    /// <summary>
    /// Commits a batch. One that held back what queries read (more changes follow) moves only how far the
    /// runner has read; the processed etag waits until <see cref="Publish"/>, so a query told the index is
    /// not stale always reads every batch up to it.
    /// </summary>
    private void Index(PreparedBatch prepared, bool moreFollows)
    {
        if (prepared.Changes == 0)
        {
            // Nothing of ours changed: remember how far we looked without paying for a commit.
            Committed(prepared.UpToEtag, published: !_deferred);
            return;
        }

        var started = Stopwatch.GetTimestamp();
        var startedAt = DateTime.UtcNow;
        var batch = prepared.Batch;
        var published = batch.Commit(prepared.UpToEtag, moreFollows);
        foreach (var error in batch.Errors)
            _errors.Record(error);

        // Counted before the etag moves: whoever waits for it then finds the batch in the stats.
        var elapsed = Stopwatch.GetElapsedTime(started);
        var stats = new IndexBatchStats(startedAt, batch.Documents, batch.Deletes, elapsed.TotalMilliseconds, prepared.UpToEtag);
        var batches = LazyInitializer.EnsureInitialized(ref _batches);
        batches.Enqueue(stats);
        Interlocked.Add(ref _totalDocuments, batch.Documents);
        Interlocked.Add(ref _totalDeletes, batch.Deletes);
        Interlocked.Increment(ref _totalBatches);
        Interlocked.Add(ref _totalBatchTicks, elapsed.Ticks);
        while (batches.Count > KeptBatches)
            batches.TryDequeue(out _);
        Committed(prepared.UpToEtag, published);
        AdaptBatchSize(prepared.Changes, elapsed);
        _logger.LogInformation("Index {Index} indexed {Documents} documents and {Deletes} deletes up to etag {Etag} in {ElapsedMs:F0} ms ({Rate:F0}/s)",
            Name, stats.Documents, stats.Deletes, stats.UpToEtag, stats.DurationMs, stats.Rate);
    }

    /// <summary>
    /// Grows full batches while they take under a second and shrinks them past four. Every commit rewrites
    /// the posting chunks of each term the batch touched and syncs, so small batches cost throughput
    /// (the raw engine indexed a backlog at about half the rate in batches of 512 as in batches of 10,000); the bounds keep a
    /// batch's memory and the time its results wait to become visible in check.
    /// </summary>
    private void AdaptBatchSize(int changes, TimeSpan elapsed)
    {
        if (changes >= _batchSize && elapsed < TimeSpan.FromSeconds(1))
            _batchSize = Math.Min(_batchSize * 2, MaxBatchSize);
        else if (elapsed > TimeSpan.FromSeconds(4))
            _batchSize = Math.Max(_batchSize / 2, MinBatchSize);
    }

    private void Committed(long etag, bool published)
    {
        _committedEtag = Math.Max(_committedEtag, etag);
        _deferred = !published;
        if (published)
            Advance(etag);
    }

    /// <summary>Publishes what batches held back, once there is nothing more to read.</summary>
    private void Publish()
    {
        if (!_deferred)
            return;
        foreach (var error in _processor.PublishDeferred())
            _errors.Record(error);
        _deferred = false;
        Advance(_committedEtag);
    }

    private void Advance(long etag)
    {
        _committedEtag = Math.Max(_committedEtag, etag);
        Volatile.Write(ref _processedEtag, Math.Max(ProcessedEtag, etag));
        Progressed();
    }

    private void Progressed() =>
        Interlocked.Exchange(ref _progressed, new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously)).TrySetResult();
}
