using System.Buffers.Binary;

namespace Folio.Storage.Paging;

/// <summary>
/// The 32-byte header every page starts with:
/// <code>
///  0  long   page number
///  8  byte   flags (PageFlags)
/// 10  ushort entry count      (tree pages; value heap runs: slots)
/// 12  ushort upper            (tree pages: where the entry area starts; value heap runs: where the values start)
/// 16  long   value size       (overflow pages)
/// 24  int    page count       (overflow pages and value heap runs: pages in the run)
/// 28  int    live bytes       (value heap runs: bytes of the values the run holds, <see cref="Trees.HeapRun"/>)
/// </code>
/// </summary>
internal static class PageHeader
{
    public const int Size = 32;

    public static long PageNumber(ReadOnlySpan<byte> page) => BinaryPrimitives.ReadInt64LittleEndian(page);

    public static PageFlags Flags(ReadOnlySpan<byte> page) => (PageFlags)page[8];

    public static int Count(ReadOnlySpan<byte> page) => BinaryPrimitives.ReadUInt16LittleEndian(page[10..]);

    public static int Upper(ReadOnlySpan<byte> page) => BinaryPrimitives.ReadUInt16LittleEndian(page[12..]);

    public static long OverflowValueSize(ReadOnlySpan<byte> page) => BinaryPrimitives.ReadInt64LittleEndian(page[16..]);

    public static int OverflowPageCount(ReadOnlySpan<byte> page) => BinaryPrimitives.ReadInt32LittleEndian(page[24..]);

    /// <summary>Whether the page starts a run of pages read and versioned as one (an overflow run or a value heap run).</summary>
    public static bool StartsRun(ReadOnlySpan<byte> page) => (Flags(page) & (PageFlags.Overflow | PageFlags.ValueHeap)) != 0;

    public static void Initialize(Span<byte> page, long pageNumber, PageFlags flags)
    {
        page[..Size].Clear();
        BinaryPrimitives.WriteInt64LittleEndian(page, pageNumber);
        page[8] = (byte)flags;
        // A full page's upper is 65536, one past ushort; pages are 8 KB so it fits.
        SetUpper(page, page.Length > ushort.MaxValue ? ushort.MaxValue : page.Length);
    }

    public static void SetCount(Span<byte> page, int count) => BinaryPrimitives.WriteUInt16LittleEndian(page[10..], (ushort)count);

    public static void SetUpper(Span<byte> page, int upper) => BinaryPrimitives.WriteUInt16LittleEndian(page[12..], (ushort)upper);

    public static void SetOverflow(Span<byte> page, long valueSize, int pageCount)
    {
        BinaryPrimitives.WriteInt64LittleEndian(page[16..], valueSize);
        BinaryPrimitives.WriteInt32LittleEndian(page[24..], pageCount);
    }

    /// <summary>The number of pages an overflow run for a value of <paramref name="valueSize"/> bytes needs.</summary>
    public static int OverflowPagesFor(long valueSize) => checked((int)((Size + valueSize + StorageLimits.PageSize - 1) / StorageLimits.PageSize));
}
