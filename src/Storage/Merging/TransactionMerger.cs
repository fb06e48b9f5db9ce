using System.Collections.Concurrent;
using System.Diagnostics;
using Folio.Storage.Transactions;

namespace Folio.Storage.Merging;

/// <summary>
/// Runs write operations from many callers together: a dedicated thread takes queued operations,
/// runs as many as fit (by count, bytes and time) in one write transaction, commits once — one
/// journal write, one sync — and completes them all. Callers await; no thread-pool thread ever
/// waits on the sync. An operation that throws fails alone: the transaction is rolled back and
/// rerun without it. Its failure is reported only once that transaction has committed too, since it
/// may rest on what the operations before it wrote: a compare-and-set refused because of a write
/// not yet durable nor visible would tell its caller about a state readers cannot see yet, and that
/// a kill before the commit would erase.
/// </summary>
public sealed class TransactionMerger : IDisposable
{
    private readonly StorageEnvironment _environment;
    private readonly ConcurrentQueue<Pending> _queue = new();
    // No spinning before sleeping: the callers that would wake the merger need the same few cores.
    private readonly ManualResetEventSlim _signal = new(false, spinCount: 0);
    private readonly Thread _thread;
    private readonly List<Pending> _batch = [];
    private readonly List<(Pending Operation, Exception Error)> _refused = [];
    private volatile bool _stopping;
    private long _mergedTransactions;
    private long _completedOperations;

    internal TransactionMerger(StorageEnvironment environment)
    {
        _environment = environment;
        _thread = new Thread(Run) { IsBackground = true, Name = "Folio transaction merger" };
        _thread.Start();
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
        _signal.Set();
        return pending.Completion.Task;
    }

    /// <summary>Queues a delegate as an operation (see <see cref="MergedOperation"/> for the rerun rule).</summary>
    public Task EnqueueAsync(Action<WriteTransaction> action)
    {
        ArgumentNullException.ThrowIfNull(action);
        return EnqueueAsync(new DelegateOperation(action));
    }

    private void Run()
    {
        while (true)
        {
            _signal.Wait();
            _signal.Reset();
            while (!_queue.IsEmpty)
                RunOneTransaction();
            if (_stopping && _queue.IsEmpty)
                return;
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
            foreach (var failed in _batch)
                failed.Completion.TrySetException(e);
            // A refusal judged against writes that are now rolled back no longer holds.
            foreach (var (refused, _) in _refused)
                refused.Completion.TrySetException(e);
        }
        finally
        {
            _batch.Clear();
            _refused.Clear();
        }
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

    /// <summary>Runs what is queued, then stops the merger's thread.</summary>
    public void Dispose()
    {
        if (_stopping)
            return;
        _stopping = true;
        _signal.Set();
        _thread.Join();
        _signal.Dispose();
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
