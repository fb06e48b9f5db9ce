namespace Folio.Storage.Compaction;

/// <summary>
/// What compacting a store would give back, estimated from a walk of its pages and its documents' headers without
/// copying anything: what a server weighs before spending a copy of the whole file on it.
/// </summary>
/// <param name="FileBytes">The data file up to its high-water mark: what a compaction starts from.</param>
/// <param name="FreeBytes">Free pages below the high-water mark (space deletes and updates freed).</param>
/// <param name="SlackBytes">Leaf pages a copy would not need, its leaves being filled one after another.</param>
/// <param name="RecompressibleDocuments">Documents a copy would rewrite smaller or in a newer form: bodies under an older dictionary than their collection's current one, stored as they are where the collection now has one, or compressed on the write path at a lower level than the compaction's.</param>
/// <param name="RecompressionBytes">Bytes those rewrites would save, from a sample of them compressed again.</param>
public sealed record CompactionEstimate(long FileBytes, long FreeBytes, long SlackBytes, long RecompressibleDocuments, long RecompressionBytes)
{
    /// <summary>Bytes a compaction would give back, about.</summary>
    public long ReclaimableBytes => FreeBytes + SlackBytes + RecompressionBytes;

    /// <summary><see cref="ReclaimableBytes"/> as a share of <see cref="FileBytes"/>, 0 to 1.</summary>
    public double ReclaimableShare => Share(ReclaimableBytes);

    /// <summary><see cref="RecompressionBytes"/> as a share of <see cref="FileBytes"/>, 0 to 1.</summary>
    public double RecompressionShare => Share(RecompressionBytes);

    private double Share(long bytes) => FileBytes <= 0 ? 0 : Math.Min(1, bytes / (double)FileBytes);
}
