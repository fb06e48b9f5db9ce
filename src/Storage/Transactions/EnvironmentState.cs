using System.Buffers.Binary;
using Folio.Storage.Paging;
using Folio.Storage.Trees;

namespace Folio.Storage.Transactions;

/// <summary>
/// What one committed transaction left: its id, the root tree, the high-water page and the free-space
/// bitmaps. Immutable once published, so a reader takes it with one volatile read. Persisted in the
/// state page (page 2), which is journaled like any other page:
/// <code>
///  32 root tree header (64 bytes)
///  96 long next page number
/// 104 int  bitmap page count
/// 112 long[] bitmap page numbers
/// </code>
/// </summary>
internal sealed class EnvironmentState
{
    public const long StatePageNumber = 2;
    private const int RootOffset = PageHeader.Size;
    private const int NextPageOffset = RootOffset + TreeHeader.Size;
    private const int BitmapCountOffset = NextPageOffset + 8;
    private const int BitmapPagesOffset = BitmapCountOffset + 8;

    /// <summary>How many bitmap pages the state page can list: about 540 GB of data file.</summary>
    public const int MaxBitmapPages = (StorageLimits.PageSize - BitmapPagesOffset) / 8;

    public required long TransactionId { get; init; }

    /// <summary>The data file (and its unapplied page versions) this state's page numbers refer to.</summary>
    public required PageSource Pages { get; init; }

    public required TreeHeader Root { get; init; }

    public required long NextPage { get; init; }

    public required long[] BitmapPages { get; init; }

    /// <summary>Free pages per bitmap page; derived at open, kept in memory so allocation skips full bitmaps.</summary>
    public required int[] FreeCounts { get; init; }

    public static void Write(Span<byte> page, in TreeHeader root, long nextPage, ReadOnlySpan<long> bitmapPages)
    {
        root.WriteTo(page[RootOffset..]);
        BinaryPrimitives.WriteInt64LittleEndian(page[NextPageOffset..], nextPage);
        BinaryPrimitives.WriteInt32LittleEndian(page[BitmapCountOffset..], bitmapPages.Length);
        for (var i = 0; i < bitmapPages.Length; i++)
            BinaryPrimitives.WriteInt64LittleEndian(page[(BitmapPagesOffset + 8 * i)..], bitmapPages[i]);
    }

    public static (TreeHeader Root, long NextPage, long[] BitmapPages) Read(ReadOnlySpan<byte> page)
    {
        if (PageHeader.Flags(page) != PageFlags.State)
            throw new CorruptionException("Page 2 is not the environment's state page.");
        var root = TreeHeader.ReadFrom(page[RootOffset..]);
        var nextPage = BinaryPrimitives.ReadInt64LittleEndian(page[NextPageOffset..]);
        var count = BinaryPrimitives.ReadInt32LittleEndian(page[BitmapCountOffset..]);
        if (count < 1 || count > MaxBitmapPages)
            throw new CorruptionException($"The state page lists {count} free-space bitmap pages.");
        var bitmaps = new long[count];
        for (var i = 0; i < count; i++)
            bitmaps[i] = BinaryPrimitives.ReadInt64LittleEndian(page[(BitmapPagesOffset + 8 * i)..]);
        return (root, nextPage, bitmaps);
    }
}
