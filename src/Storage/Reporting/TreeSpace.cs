namespace Folio.Storage.Reporting;

/// <summary>How one tree uses its pages.</summary>
/// <param name="Name">The tree's name.</param>
/// <param name="Entries">Entries in its leaves.</param>
/// <param name="LeafPages">Leaf pages.</param>
/// <param name="BranchPages">Branch pages.</param>
/// <param name="OverflowPages">Pages of values too large to sit in a leaf (runs of their own, and runs they share).</param>
/// <param name="UsedLeafBytes">Bytes the leaf entries and their slots take.</param>
/// <param name="UsedBranchBytes">Bytes the branch entries and their slots take.</param>
/// <param name="OverflowValueBytes">Bytes of the values stored in overflow pages.</param>
public sealed record TreeSpace(
    string Name,
    long Entries,
    long LeafPages,
    long BranchPages,
    long OverflowPages,
    long UsedLeafBytes,
    long UsedBranchBytes,
    long OverflowValueBytes)
{
    /// <summary>Of <see cref="OverflowPages"/>, the pages of runs that values too large for a leaf share.</summary>
    public long HeapRunPages { get; init; }

    /// <summary>Of <see cref="OverflowValueBytes"/>, the bytes of the values in shared runs.</summary>
    public long HeapValueBytes { get; init; }

    /// <summary>Of <see cref="OverflowPages"/>, the pages of values of 4-16 KB on pages of their own, which a compaction packs into shared runs.</summary>
    public long PackableOverflowPages { get; init; }

    /// <summary>The bytes of the values on <see cref="PackableOverflowPages"/>.</summary>
    public long PackableOverflowBytes { get; init; }

    /// <summary>Pages the tree holds, overflow included.</summary>
    public long Pages => LeafPages + BranchPages + OverflowPages;

    /// <summary>Used share of the leaf pages' entry area (0 to 1; 0 without leaves).</summary>
    public double LeafFill => LeafPages == 0 ? 0 : UsedLeafBytes / (double)(LeafPages * Trees.TreePage.Capacity);

    /// <summary>Used share of the overflow pages (0 to 1; 0 without overflow).</summary>
    public double OverflowFill => OverflowPages == 0 ? 0 : OverflowValueBytes / (double)(OverflowPages * StorageLimits.PageSize);
}
