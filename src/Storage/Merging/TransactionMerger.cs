using System.Collections.Concurrent;
using System.Diagnostics;
using Folio.Storage.Scheduling;
using Folio.Storage.Transactions;

namespace Folio.Storage.Merging;

/// <summary>
/// Runs write operations from many callers together: in turns on the shared <see cref="WorkScheduler.Commits"/>
/// scheduler, it takes queued operations, runs as many as fit (by count, bytes and time) in one write transaction,
/// commits once — one journal write, one sync — and completes them all; operations queued during that sync go
/// into the next turn's transaction. Callers await; no thread-pool thread ever waits on the sync, and no thread
/// waits for an idle database's writes. An operation that throws fails alone: the transaction is rolled back and
/// rerun without it. Its failure is reported only once that transaction has committed too, since it may rest on what
/// the operations before it wrote: a compare-and-set refused because of a write not yet durable nor visible would
/// tell its caller about a state readers cannot see yet, and that a kill before the commit would erase.
/// </summary>
public sealed class TransactionMerger : IDisposable
{
    private readonly StorageEnvironment _environment;
    private readonly ConcurrentQueue<Pending> _queue = new();
    private readonly Turns _turns;
    private readonly List<Pending> _batch = [];
    private readonly List<(Pending Operation, Exception Error)> _refused = [];
    // Held while a transaction runs: by the turns, and after a stop by whoever drains the queue.
    private readonly Lock _running = new();
    private volatile bool _stopping;
    private long _mergedTransactions;
    private long _completedOperations;

    internal TransactionMerger(StorageEnvironment environment)
    {
        _environment = environment;
        _turns = new Turns(this, WorkScheduler.Commits);
    }

    /// <summary>Transactions the merger has committed.</summary>
    public long MergedTransactions => Interlocked.Read(ref _mergedTransactions);

    /// <summary>Operations the merger has completed successfully.</summary>
    public long CompletedOperations => Interlocked.Read(ref _completedOperations);

    /// <summary>Queues <paramref name="operation"/>; the task completes once its transaction is durable.</summary>
    public Task EnqueueAsync(MergedOperation operation)
    {
        ArgumentNullException.ThrowIfNull(operation);
        ObjectDisposedException.ThrowIf(_stopping, this);
        var pending = new Pending(operation);
        _queue.Enqueue(pending);
        _turns.Schedule();
        // A stop that began after the check above may have drained the queue before this operation reached it, and
        // no turn runs after a stop: drain it here, or the caller would wait forever.
        Interlocked.MemoryBarrier();
        if (_stopping)
            Drain();
        return pending.Completion.Task;
    }

    /// <summary>Queues a delegate as an operation (see <see cref="MergedOperation"/> for the rerun rule).</summary>
    public Task EnqueueAsync(Action<WriteTransaction> action)
    {
        ArgumentNullException.ThrowIfNull(action);
        return EnqueueAsync(new DelegateOperation(action));
    }

    /// <summary>One turn: one merged transaction; the merger asks for another turn while operations are queued.</summary>
    private bool RunTurn()
    {
        if (!_queue.IsEmpty)
        {
            lock (_running)
                RunOneTransaction();
        }
        return !_queue.IsEmpty;
    }

    private void Drain()
    {
        lock (_running)
        {
            while (!_queue.IsEmpty)
                RunOneTransaction();
        }
    }

    private void RunOneTransaction()
    {
        var options = _environment.Options;
        WriteTransaction transaction;
        try
        {
            transaction = _environment.BeginWrite();
        }
        catch (Exception e)
        {
            while (_queue.TryDequeue(out var rejected))
                rejected.Completion.TrySetException(e);
            return;
        }

        var started = Stopwatch.GetTimestamp();
        long bytes = 0;
        try
        {
            while (_batch.Count < options.MergerMaxOperations && bytes < options.MergerMaxBytes
                   && Stopwatch.GetElapsedTime(started) < options.MergerMaxDuration
                   && _queue.TryDequeue(out var pending))
            {
                try
                {
                    pending.Operation.Execute(transaction);
                    _batch.Add(pending);
                    bytes += pending.Operation.EstimatedBytes;
                }
                catch (Exception e)
                {
                    _refused.Add((pending, e));
                    transaction = Rerun(transaction);
                }
            }
        }
        catch (Exception e)
        {
            // The rerun could not begin its transaction (the environment failed or began closing meanwhile): nothing
            // of this batch committed, and the exception must not leave the turn, whose thread every database shares.
            FailBatch(e);
            return;
        }

        try
        {
            var committing = Stopwatch.GetTimestamp();
            transaction.Commit();
            Interlocked.Increment(ref _mergedTransactions);
            Interlocked.Add(ref _completedOperations, _batch.Count);
            if (options.MetricsName is { } name && _batch.Count > 0)
            {
                var tag = new KeyValuePair<string, object?>(MergerMeter.DatabaseTag, name);
                MergerMeter.BatchOperations.Record(_batch.Count, tag);
                MergerMeter.CommitSeconds.Record(Stopwatch.GetElapsedTime(committing).TotalSeconds, tag);
            }
            foreach (var done in _batch)
                done.Completion.TrySetResult();
            foreach (var (refused, error) in _refused)
                refused.Completion.TrySetException(error);
        }
        catch (Exception e)
        {
            FailBatch(e);
        }
        finally
        {
            _batch.Clear();
            _refused.Clear();
        }
    }

    /// <summary>Fails the batch's operations and its refusals with <paramref name="error"/>: none of it committed.</summary>
    private void FailBatch(Exception error)
    {
        foreach (var failed in _batch)
            failed.Completion.TrySetException(error);
        // A refusal judged against writes that are now rolled back no longer holds.
        foreach (var (refused, _) in _refused)
            refused.Completion.TrySetException(error);
        _batch.Clear();
        _refused.Clear();
    }

    /// <summary>Rolls back the failed attempt and replays the operations that had succeeded, dropping any that now fail.</summary>
    private WriteTransaction Rerun(WriteTransaction failed)
    {
        while (true)
        {
            failed.Dispose();
            var transaction = _environment.BeginWrite();
            var clean = true;
            for (var i = 0; i < _batch.Count; i++)
            {
                try
                {
                    _batch[i].Operation.Execute(transaction);
                }
                catch (Exception e)
                {
                    _refused.Add((_batch[i], e));
                    _batch.RemoveAt(i);
                    clean = false;
                    break;
                }
            }
            if (clean)
                return transaction;
            failed = transaction;
        }
    }

    /// <summary>
    /// Takes no more turns and runs what is queued (which fails at once when the environment is already closing);
    /// an operation queued meanwhile is run or failed by its caller, never left waiting.
    /// </summary>
    public void Dispose()
    {
        if (_stopping)
            return;
        _stopping = true;
        Interlocked.MemoryBarrier();
        _turns.Stop();
        Drain();
    }

    /// <summary>The merger's turns on the scheduler (a nested type, so the merger's own API stays writes only).</summary>
    private sealed class Turns(TransactionMerger merger, WorkScheduler scheduler) : ScheduledWork(scheduler)
    {
        public void Stop() => StopTurns();

        protected override bool RunTurn() => merger.RunTurn();
    }

    private sealed class Pending(MergedOperation operation)
    {
        public MergedOperation Operation { get; } = operation;

        public TaskCompletionSource Completion { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);
    }

    private sealed class DelegateOperation(Action<WriteTransaction> action) : MergedOperation
    {
        public override void Execute(WriteTransaction transaction) => action(transaction);
    }
}
