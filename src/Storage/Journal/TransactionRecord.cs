using System.Buffers.Binary;
using Folio.Storage.Paging;
using Folio.Storage.Platform;

namespace Folio.Storage.Journal;

/// <summary>
/// One committed transaction in a journal file: a 64-byte header, then each page it changed, then
/// padding to the next 4 KB so a record never shares a disk block with the next one.
/// <code>
/// header:  0 ulong magic   8 long transaction id   16 int page entries
///         24 long payload length   32 uint payload CRC-32C   36 uint header CRC-32C (of 0..36)
/// entry:   long page number, int page count, ushort lower end, ushort upper start, page bytes
/// </code>
/// For tree pages only the used parts are written (the header and slots below "lower end", the
/// entries from "upper start"); the free gap between them is not worth journaling.
/// </summary>
internal static class TransactionRecord
{
    public const ulong Magic = 0x31304A4F494C4F46; // "FOLIOJ01"
    public const int HeaderSize = 64;
    public const int EntryHeaderSize = 16;
    public const int Alignment = 4096;

    public static long Align(long size) => (size + Alignment - 1) & ~(long)(Alignment - 1);

    /// <summary>Bytes of the page that the record keeps (the whole page, or its used prefix and suffix).</summary>
    public static (int LowerEnd, int UpperStart) UsedRanges(ReadOnlySpan<byte> page)
    {
        var flags = PageHeader.Flags(page);
        if (page.Length != StorageLimits.PageSize || (flags != PageFlags.Leaf && flags != PageFlags.Branch))
            return (0, 0);
        return (PageHeader.Size + 2 * PageHeader.Count(page), PageHeader.Upper(page));
    }

    public static int EntrySize(ReadOnlySpan<byte> page)
    {
        var (lower, upper) = UsedRanges(page);
        return EntryHeaderSize + (lower == 0 ? page.Length : lower + page.Length - upper);
    }

    public static int WriteEntry(Span<byte> destination, long pageNumber, ReadOnlySpan<byte> page)
    {
        var (lower, upper) = UsedRanges(page);
        BinaryPrimitives.WriteInt64LittleEndian(destination, pageNumber);
        BinaryPrimitives.WriteInt32LittleEndian(destination[8..], page.Length / StorageLimits.PageSize);
        BinaryPrimitives.WriteUInt16LittleEndian(destination[12..], (ushort)lower);
        BinaryPrimitives.WriteUInt16LittleEndian(destination[14..], (ushort)upper);
        var body = destination[EntryHeaderSize..];
        if (lower == 0)
        {
            page.CopyTo(body);
            return EntryHeaderSize + page.Length;
        }
        page[..lower].CopyTo(body);
        page[upper..].CopyTo(body[lower..]);
        return EntryHeaderSize + lower + page.Length - upper;
    }

    public static void WriteHeader(Span<byte> destination, long transactionId, int entries, ReadOnlySpan<byte> payload)
    {
        destination[..HeaderSize].Clear();
        BinaryPrimitives.WriteUInt64LittleEndian(destination, Magic);
        BinaryPrimitives.WriteInt64LittleEndian(destination[8..], transactionId);
        BinaryPrimitives.WriteInt32LittleEndian(destination[16..], entries);
        BinaryPrimitives.WriteInt64LittleEndian(destination[24..], payload.Length);
        BinaryPrimitives.WriteUInt32LittleEndian(destination[32..], Crc32C.Compute(payload));
        BinaryPrimitives.WriteUInt32LittleEndian(destination[36..], Crc32C.Compute(destination[..36]));
    }

    /// <summary>Reads a record header; false when it is not one (torn, stale or never written).</summary>
    public static bool TryReadHeader(ReadOnlySpan<byte> header, out long transactionId, out int entries, out long payloadLength, out uint payloadCrc)
    {
        transactionId = BinaryPrimitives.ReadInt64LittleEndian(header[8..]);
        entries = BinaryPrimitives.ReadInt32LittleEndian(header[16..]);
        payloadLength = BinaryPrimitives.ReadInt64LittleEndian(header[24..]);
        payloadCrc = BinaryPrimitives.ReadUInt32LittleEndian(header[32..]);
        return BinaryPrimitives.ReadUInt64LittleEndian(header) == Magic
            && BinaryPrimitives.ReadUInt32LittleEndian(header[36..]) == Crc32C.Compute(header[..36])
            && entries >= 0 && payloadLength >= 0;
    }

    /// <summary>Rebuilds the pages of a verified payload and hands each to <paramref name="apply"/>.</summary>
    public static void ReadEntries(ReadOnlySpan<byte> payload, int entries, byte[] pageBuffer, Action<long, byte[], int> apply)
    {
        var offset = 0;
        for (var i = 0; i < entries; i++)
        {
            var entry = payload[offset..];
            var pageNumber = BinaryPrimitives.ReadInt64LittleEndian(entry);
            var pageCount = BinaryPrimitives.ReadInt32LittleEndian(entry[8..]);
            int lower = BinaryPrimitives.ReadUInt16LittleEndian(entry[12..]);
            int upper = BinaryPrimitives.ReadUInt16LittleEndian(entry[14..]);
            var length = pageCount * StorageLimits.PageSize;
            var buffer = pageBuffer.Length >= length ? pageBuffer : new byte[length];
            var body = entry[EntryHeaderSize..];
            if (lower == 0)
            {
                body[..length].CopyTo(buffer);
                offset += EntryHeaderSize + length;
            }
            else
            {
                body[..lower].CopyTo(buffer);
                buffer.AsSpan(lower, upper - lower).Clear();
                body.Slice(lower, length - upper).CopyTo(buffer.AsSpan(upper));
                offset += EntryHeaderSize + lower + length - upper;
            }
            apply(pageNumber, buffer, length);
        }
    }
}
