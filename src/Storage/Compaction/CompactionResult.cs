namespace Folio.Storage.Compaction;

/// <summary>What a finished compaction did.</summary>
/// <param name="SizeBefore">The data file's size before, in bytes.</param>
/// <param name="SizeAfter">The new data file's size, in bytes.</param>
/// <param name="Entries">Entries the new file holds across all trees.</param>
/// <param name="CatchUpRounds">Rounds that copied changes made while the snapshot was copied.</param>
/// <param name="WritesPaused">How long writes waited for the last changes and the swap.</param>
/// <param name="Elapsed">The whole compaction's duration.</param>
public sealed record CompactionResult(long SizeBefore, long SizeAfter, long Entries, int CatchUpRounds, TimeSpan WritesPaused, TimeSpan Elapsed)
{
    /// <summary>Bytes given back (negative if the new file is larger).</summary>
    public long BytesReturned => SizeBefore - SizeAfter;

    /// <summary>Share of the old file given back, 0 to 1.</summary>
    public double ShareReturned => SizeBefore == 0 ? 0 : (double)BytesReturned / SizeBefore;
}
