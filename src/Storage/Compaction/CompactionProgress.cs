namespace Folio.Storage.Compaction;

/// <summary>How far a compaction has come, reported as it copies.</summary>
/// <param name="Phase">The step it is in.</param>
/// <param name="CopiedEntries">Entries copied from the first snapshot so far.</param>
/// <param name="TotalEntries">Entries the first snapshot holds across all trees.</param>
/// <param name="CopiedBytes">Key and value bytes copied so far (catch-up included).</param>
/// <param name="Elapsed">Time since the compaction began.</param>
/// <param name="SizeBefore">The data file's size when the compaction began, in bytes.</param>
public sealed record CompactionProgress(
    CompactionPhase Phase,
    long CopiedEntries,
    long TotalEntries,
    long CopiedBytes,
    TimeSpan Elapsed,
    long SizeBefore)
{
    /// <summary>Share of the first snapshot's entries copied, 0 to 100.</summary>
    public double Percent => Phase == CompactionPhase.Completed ? 100 : TotalEntries == 0 ? 0 : Math.Min(100, 100.0 * CopiedEntries / TotalEntries);

    /// <summary>Copy rate in megabytes (2^20 bytes) per second since the start.</summary>
    public double MegabytesPerSecond => Elapsed.TotalSeconds <= 0 ? 0 : CopiedBytes / (1024.0 * 1024.0) / Elapsed.TotalSeconds;
}
