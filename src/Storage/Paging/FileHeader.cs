using System.Buffers.Binary;
using Folio.Storage.Platform;

namespace Folio.Storage.Paging;

/// <summary>
/// The data file's header, kept twice (pages 0 and 1) and written alternately, so a torn header
/// write always leaves the previous one intact. It records how far the journals have been applied.
/// <code>
/// 32 ulong magic   40 int format version   44 int page size
/// 48 long last transaction applied to the data file   56 long sequence   64 uint CRC-32C of 32..64
/// </code>
/// </summary>
internal readonly record struct FileHeader(int FormatVersion, int PageSize, long LastFlushedTransaction, long Sequence)
{
    public const ulong Magic = 0x31424F494C4F46; // "FOLIOB1"
    /// <summary>
    /// The format this build writes. 2: tree values may sit in shared value heap runs (<see cref="PageFlags.ValueHeap"/>),
    /// which a build of format 1 would read as inline values. A file of format 1 is taken up to 2 as it opens.
    /// </summary>
    public const int CurrentFormatVersion = 2;
    private const int Start = PageHeader.Size;
    private const int CrcOffset = Start + 32;

    public void WriteTo(Span<byte> page, long pageNumber)
    {
        page.Clear();
        PageHeader.Initialize(page, pageNumber, PageFlags.FileHeader);
        BinaryPrimitives.WriteUInt64LittleEndian(page[Start..], Magic);
        BinaryPrimitives.WriteInt32LittleEndian(page[(Start + 8)..], FormatVersion);
        BinaryPrimitives.WriteInt32LittleEndian(page[(Start + 12)..], PageSize);
        BinaryPrimitives.WriteInt64LittleEndian(page[(Start + 16)..], LastFlushedTransaction);
        BinaryPrimitives.WriteInt64LittleEndian(page[(Start + 24)..], Sequence);
        BinaryPrimitives.WriteUInt32LittleEndian(page[CrcOffset..], Crc32C.Compute(page[Start..CrcOffset]));
    }

    public static bool TryRead(ReadOnlySpan<byte> page, out FileHeader header)
    {
        header = default;
        if (BinaryPrimitives.ReadUInt64LittleEndian(page[Start..]) != Magic)
            return false;
        if (BinaryPrimitives.ReadUInt32LittleEndian(page[CrcOffset..]) != Crc32C.Compute(page[Start..CrcOffset]))
            return false;
        header = new FileHeader(
            BinaryPrimitives.ReadInt32LittleEndian(page[(Start + 8)..]),
            BinaryPrimitives.ReadInt32LittleEndian(page[(Start + 12)..]),
            BinaryPrimitives.ReadInt64LittleEndian(page[(Start + 16)..]),
            BinaryPrimitives.ReadInt64LittleEndian(page[(Start + 24)..]));
        return true;
    }

    /// <summary>The newer of the two header copies whose checksum holds.</summary>
    public static FileHeader ReadCurrent(Pager pager, string description)
    {
        if (pager.NumberOfPages < 2)
            throw new CorruptionException($"The data file in {description} is too short to hold its header.");
        var first = TryRead(pager.Read(0, 1), out var a);
        var second = TryRead(pager.Read(1, 1), out var b);
        if (!first && !second)
            throw new CorruptionException($"Neither copy of the data file header in {description} is valid: this is not a Folio data file, or it is damaged.");
        var header = !second || (first && a.Sequence > b.Sequence) ? a : b;
        if (header.FormatVersion > CurrentFormatVersion)
            throw new UnsupportedFormatException($"The data in {description} has format version {header.FormatVersion}; this build reads up to {CurrentFormatVersion}. Upgrade Folio to open it.");
        if (header.FormatVersion < 1)
            throw new CorruptionException($"The data file header in {description} names format version {header.FormatVersion}.");
        if (header.PageSize != StorageLimits.PageSize)
            throw new UnsupportedFormatException($"The data in {description} uses {header.PageSize}-byte pages; this build uses {StorageLimits.PageSize}.");
        return header;
    }
}
