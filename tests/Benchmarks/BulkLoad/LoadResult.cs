namespace Folio.Benchmarks.BulkLoad;

/// <summary>One measured load: who, how many streams, how long, and what it cost.</summary>
public sealed record LoadResult(string System, int Streams, int Documents, TimeSpan Elapsed, long PayloadBytes)
{
    public double DocumentsPerSecond => Documents / Elapsed.TotalSeconds;

    public double MegaBytesPerSecond => PayloadBytes / Elapsed.TotalSeconds / (1024 * 1024);

    /// <summary>Journal bytes written for this load (Folio only).</summary>
    public long JournalBytes { get; init; }

    /// <summary>Transactions the merger committed (Folio only).</summary>
    public long Transactions { get; init; }

    /// <summary>Batches the streams were cut into, summed over streams (Folio only).</summary>
    public long Batches { get; init; }

    /// <summary>Summed per-stream time spent parsing, waiting on the network and waiting on commits (Folio only).</summary>
    public (double ParseMs, double NetworkWaitMs, double CommitWaitMs) Timings { get; init; }

    /// <summary>Server CPU time during the load.</summary>
    public TimeSpan ServerCpu { get; init; }
}
