using System.Diagnostics;
using Folio.Server.Operations;
using Folio.Storage.Compaction;

namespace Folio.Server.Databases;

public sealed partial class DatabaseRegistry
{
    /// <summary>
    /// The share of the file that recompressing bodies under older dictionaries must save for a compaction on its own:
    /// the saving a new dictionary must show to be adopted. Unlike free space, which churn brings back, this saving
    /// comes once per dictionary, and a collection gets a newer one only as it grows fourfold or its documents change
    /// shape (copies after each fourfold growth add up to four thirds of the final size);
    /// <see cref="DatabasesOptions.CompactMinShare"/> bounds the copies that churn can cause.
    /// </summary>
    private const double RecompressionMinShare = 0.02;

    // The one estimate or compaction the server runs on its own at a time: each reads a whole file, and a thousand
    // tenants going quiet together must not all be read at once.
    private Task _autoCompaction = Task.CompletedTask;

    /// <summary>
    /// Starts weighing, and compacting if it pays, the first database quiet for <paramref name="quietFor"/> that is due
    /// (<see cref="Database.DueForCompactionEstimate"/>), unless the last one is still running.
    /// </summary>
    private void CompactQuiet(TimeSpan quietFor)
    {
        long now = Stopwatch.GetTimestamp();
        bool idle = _autoCompaction.IsCompleted;
        // A file smaller than the bytes a compaction must give back cannot give them back.
        long minFileBytes = _options.CompactMinBytes;
        foreach (KeyValuePair<string, DatabaseEntry> pair in _databases)
        {
            // Every database is looked at, busy or not: each check is what times its quiet from its last write.
            if (pair.Value.Instance is { } database && database.DueForCompactionEstimate(quietFor, minFileBytes, now) && idle)
            {
                _autoCompaction = Task.Factory.StartNew(() => CompactIfItPays(database), CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default).Unwrap();
                idle = false;
            }
        }
    }

    private async Task CompactIfItPays(Database database)
    {
        CompactionEstimate estimate;
        if (!database.TryEnter())
            return;
        try
        {
            estimate = database.EstimateCompaction();
        }
        catch (Exception e) when (e is not OutOfMemoryException)
        {
            DatabaseLog.CompactionEstimateFailed(_logger, e, database.Name);
            return;
        }
        finally
        {
            database.Exit();
        }

        bool pays = (estimate.ReclaimableShare >= _options.CompactMinShare || estimate.RecompressionShare >= RecompressionMinShare)
            && estimate.ReclaimableBytes >= _options.CompactMinBytes;
        DatabaseLog.CompactionEstimated(_logger, database.Name, estimate.ReclaimableBytes >> 10, estimate.FileBytes >> 10, estimate.ReclaimableShare, estimate.FreeBytes >> 10, estimate.SlackBytes >> 10, estimate.RecompressionBytes >> 10, estimate.RecompressibleDocuments, pays);
        if (!pays || !database.TryBeginCompaction())
            return;
        try
        {
            DatabaseOperation operation = database.Operations.Register(OperationKind.Compaction, Database.DocumentsTarget);
            await new CompactionRunner(database, operation, (progress, stop) => database.Store.Compact(progress, stop), _logger).Start().ConfigureAwait(false);
        }
        catch (Exception e) when (e is not OutOfMemoryException)
        {
            // Registering the operation failed (its file could not be written): the slot is freed, the server goes on.
            database.EndCompaction(null);
            DatabaseLog.AutoCompactionFailed(_logger, e, database.Name);
        }
    }
}
