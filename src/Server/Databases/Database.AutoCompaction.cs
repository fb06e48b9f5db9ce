using System.Diagnostics;
using Folio.Storage.Compaction;

namespace Folio.Server.Databases;

public sealed partial class Database
{
    /// <summary>Writes between two estimates at the least, however small the database: an estimate reads every page.</summary>
    internal const long MinWritesBetweenEstimates = 1000;

    // Touched only by the registry's idle check and the one estimate it runs at a time.
    private long _quietEtag = -1;
    private long _quietSince;
    private long _estimatedAtEtag = long.MinValue;
    private bool _estimateFileRead;
    private volatile CompactionEstimate? _lastEstimate;

    /// <summary>The last estimate the server made of what compacting the documents' file would give back, or null.</summary>
    public CompactionEstimate? LastCompactionEstimate => _lastEstimate;

    /// <summary>
    /// Whether the server should weigh compacting this database now: no write for <paramref name="quietFor"/>; no
    /// estimate since it opened, or writes since the last of at least a twentieth of its history; a data file of at
    /// least <paramref name="minFileBytes"/>; and no bulk insert, operation or index catching up. Called by the
    /// idle check, which is the only caller, at each tick.
    /// </summary>
    internal bool DueForCompactionEstimate(TimeSpan quietFor, long minFileBytes, long now)
    {
        var etag = Store.LastEtag;
        if (!_estimateFileRead)
        {
            _estimateFileRead = true;
            if (CompactionEstimateFile.TryLoad(Directory, out var savedAt, out var saved) && savedAt <= etag)
            {
                _estimatedAtEtag = savedAt;
                _lastEstimate = saved;
            }
        }
        if (etag != _quietEtag)
        {
            _quietEtag = etag;
            _quietSince = now;
            return false;
        }
        if (Stopwatch.GetElapsedTime(_quietSince, now) < quietFor || BulkInserts.Count != 0 || Operations.AnyRunning())
            return false;
        // A database never weighed (or whose last estimate is lost) is weighed once it is quiet: what was freed before
        // a restart is still there to give back. Then again after enough writes. A file too small to give back enough
        // at all is not weighed: a thousand small tenants cost no reads.
        if (_estimatedAtEtag != long.MinValue && etag - _estimatedAtEtag < Math.Max(MinWritesBetweenEstimates, etag / 20))
            return false;
        if (Store.Environment.GetStats().DataFilePages * (long)Folio.Storage.StorageLimits.PageSize < minFileBytes)
        {
            _estimatedAtEtag = etag;
            return false;
        }
        if (!TryEnter())
            return false;
        try
        {
            return !IndexingPending();
        }
        finally
        {
            Release();
        }
    }

    /// <summary>Estimates what compacting the documents' file would give back, and remembers it (also for the stats).</summary>
    internal CompactionEstimate EstimateCompaction()
    {
        // Taken before, so an estimate that fails is not retried at every tick until more writes come.
        var etag = Store.LastEtag;
        _estimatedAtEtag = etag;
        var estimate = Store.EstimateCompaction();
        _lastEstimate = estimate;
        try
        {
            CompactionEstimateFile.Save(Directory, etag, estimate);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // A hint only: without it the database is weighed once more after it next opens.
        }
        return estimate;
    }
}
