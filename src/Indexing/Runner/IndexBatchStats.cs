namespace Folio.Indexing.Runner;

/// <summary>One indexing batch: what it took in and how long it ran.</summary>
public sealed record IndexBatchStats(DateTime StartedAt, int Documents, int Deletes, double DurationMs, long UpToEtag)
{
    /// <summary>Documents and deletes per second.</summary>
    public double Rate => DurationMs <= 0 ? 0 : (Documents + Deletes) * 1000.0 / DurationMs;
}
