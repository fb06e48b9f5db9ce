using System.Diagnostics;
using Folio.Server.Databases;
using Folio.Storage;
using Folio.Storage.Compaction;

namespace Folio.Server.Operations;

/// <summary>
/// Runs a compaction of a database's documents or of one of its indexes on a thread of its own (it blocks for the
/// whole copy), as a tracked operation: <c>Processed</c>/<c>Total</c> count the entries copied of the snapshot's. The
/// operation keeps the database from an idle unload; a lease held for the run keeps its store open, and the database
/// closing cancels the copy.
/// </summary>
/// <param name="database">The database; its compaction slot is taken by the caller and freed by the run.</param>
/// <param name="operation">The registered operation the run reports to.</param>
/// <param name="compact">Runs the compaction, reporting progress, stopping on the token.</param>
/// <param name="logger">Where progress and the outcome go.</param>
internal sealed class CompactionRunner(Database database, DatabaseOperation operation, Func<Action<CompactionProgress>, CancellationToken, CompactionResult> compact, ILogger logger)
{
    private static readonly long LogEvery = Stopwatch.Frequency * 5;

    private long _lastLogged;
    private CompactionPhase? _lastPhase;

    /// <summary>Starts the run; the operation's state tells how it went. The caller holds the compaction slot; the run frees it.</summary>
    /// <returns>Completes when the run has ended, whichever way.</returns>
    public Task Start() => Task.Factory.StartNew(Run, CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);

    private void Run()
    {
        var status = OperationStatus.Completed;
        string? error = null;
        CompactionResult? result = null;
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(operation.Killed, database.Closing);
        try
        {
            if (!database.TryEnter())
                throw new OperationCanceledException(database.Closing);
            try
            {
                result = compact(Report, stop.Token);
            }
            finally
            {
                database.Exit();
            }
            operation.SetProcessed(result.Entries);
            CompactionLog.Completed(logger, operation.Id, database.Name, result.SizeBefore, result.SizeAfter, result.ShareReturned, result.Elapsed.TotalMilliseconds, result.WritesPaused.TotalMilliseconds, result.CatchUpRounds);
        }
        catch (Exception e) when (operation.Killed.IsCancellationRequested && e is OperationCanceledException or ObjectDisposedException)
        {
            status = OperationStatus.Cancelled;
            error = "Cancelled by operations/kill; the database keeps its old file.";
        }
        catch (Exception e) when (database.Closing.IsCancellationRequested && e is OperationCanceledException or ObjectDisposedException)
        {
            status = OperationStatus.Interrupted;
            error = "The database closed while it was being compacted; it keeps its old file.";
        }
        catch (Exception e) when (e is ObjectDisposedException or OperationCanceledException)
        {
            // Neither a kill nor the database closing: the storage itself closed, which is an index deleted, reset or replaced.
            status = OperationStatus.Interrupted;
            error = "The index was deleted, reset or replaced while it was being compacted.";
        }
        catch (Exception e)
        {
            status = OperationStatus.Faulted;
            error = e is StorageException ? e.Message : "The compaction failed on the server's side; its log has the details.";
            OperationLog.Failed(logger, e, operation.Id, operation.Kind, database.Name);
        }
        finally
        {
            database.EndCompaction(result, operation.Query);
        }
        operation.End(status, error);
        Save();
        var ended = operation.Snapshot();
        OperationLog.Ended(logger, operation.Id, operation.Kind, database.Name, ended.Status, ended.Processed, ended.Total, (DateTime.UtcNow - ended.StartedAt).TotalMilliseconds, ended.Error);
    }

    private void Report(CompactionProgress progress)
    {
        operation.SetTotal(progress.TotalEntries);
        operation.SetProcessed(progress.CopiedEntries);
        var now = Stopwatch.GetTimestamp();
        if (_lastPhase == progress.Phase && now - _lastLogged < LogEvery)
            return;
        _lastPhase = progress.Phase;
        _lastLogged = now;
        CompactionLog.Progress(logger, operation.Id, database.Name, progress.Phase, progress.Percent, progress.MegabytesPerSecond, progress.CopiedBytes);
        Save();
    }

    private void Save()
    {
        try
        {
            database.Operations.Save();
        }
        catch (IOException e)
        {
            OperationLog.SaveFailed(logger, e, database.Name);
        }
    }
}
