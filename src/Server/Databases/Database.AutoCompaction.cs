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
        if (etag != _quietEtag)
        {
            _quietEtag = etag;
            _quietSince = now;
            return false;
        }
        if (Stopwatch.GetElapsedTime(_quietSince, now) < quietFor || BulkInserts.Count != 0 || Operations.AnyRunning())
            return false;
        // What was freed before a restart is still there to give back, so a database is weighed once after it opens;
        // then again after enough writes. A file too small to give back enough at all is not weighed: a thousand
        // small tenants cost no reads.
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
        _estimatedAtEtag = Store.LastEtag;
        var estimate = Store.EstimateCompaction();
        _lastEstimate = estimate;
        return estimate;
    }
}
