using System.Buffers.Binary;
using Folio.Storage.Paging;
using Folio.Storage.Platform;

namespace Folio.Storage.Journal;

/// <summary>
/// One committed transaction in a journal file: a 64-byte header, then the payload (each page it changed, LZ4
/// compressed when that saves a disk block), then padding to the next 4 KB so a record never shares a disk block
/// with the next one.
/// <code>
/// header:  0 ulong magic   8 long transaction id   16 int page entries   20 int flags (bit 0: payload is LZ4)
///         24 long stored payload length   32 uint CRC-32C of the stored payload   36 int payload length once
///         decompressed   40 uint header CRC-32C (of 0..40)
/// entry:   long page number, int page count, ushort lower end, ushort upper start, page bytes
/// partial: long page number, int −page count, ushort prefix end, ushort range start, int range end, the bytes of the
///          prefix and of the range
/// </code>
/// Journals written before compression carry the magic "FOLIOJ01", no flags or decompressed length, and the header
/// CRC at 36 (of 0..36); recovery still reads them. The payload CRC is of the stored bytes, so a torn compressed
/// record fails it before anything is decompressed. For tree pages only the used parts are written (the header and
/// slots below "lower end", the entries from "upper start"); the free gap between them is not worth journaling. For a
/// value heap run, its header and slots and its values (<see cref="Trees.HeapRun"/>); for a run the transaction changed
/// but did not allocate, a partial entry: its header and slots, and the range of its values it wrote. Recovery lays a
/// partial entry over the run as the data file holds it. That is the run as some transaction from the last one applied
/// to the newest left it (a flush may have written a later version before the crash, or part of one), and each byte no
/// record from the last applied transaction on mentions is the same in all of those, so replaying from there gives
/// the newest run whichever it was.
/// </summary>
internal static class TransactionRecord
{
    /// <summary>The magic of records written before compression: always raw, header CRC at 36.</summary>
    public const ulong RawOnlyMagic = 0x31304A4F494C4F46; // "FOLIOJ01"

    public const ulong Magic = 0x32304A4F494C4F46; // "FOLIOJ02"
    public const int HeaderSize = 64;
    public const int EntryHeaderSize = 16;
    public const int Alignment = 4096;
    private const int CompressedFlag = 1;

    public static long Align(long size) => (size + Alignment - 1) & ~(long)(Alignment - 1);

    /// <summary>Bytes of the page that the record keeps (the whole page, or its used prefix and suffix).</summary>
    public static (int LowerEnd, int UpperStart) UsedRanges(ReadOnlySpan<byte> page)
    {
        var flags = PageHeader.Flags(page);
        // A value heap run is slotted like a tree page: its header and slots, then a gap, then its values.
        if (flags == PageFlags.ValueHeap && page.Length <= ushort.MaxValue)
            return (Trees.HeapRun.SlotsEnd(page), PageHeader.Upper(page));
        if (page.Length != StorageLimits.PageSize || (flags != PageFlags.Leaf && flags != PageFlags.Branch))
            return (0, 0);
        return (PageHeader.Size + 2 * PageHeader.Count(page), PageHeader.Upper(page));
    }

    public const int PartialEntryHeaderSize = EntryHeaderSize + 4;

    /// <summary>Bytes of a partial entry keeping the first <paramref name="prefixEnd"/> bytes of a page and those from <paramref name="start"/> to <paramref name="end"/>.</summary>
    public static int PartialEntrySize(int prefixEnd, int start, int end) => PartialEntryHeaderSize + prefixEnd + Math.Max(0, end - start);

    public static int WritePartialEntry(Span<byte> destination, long pageNumber, ReadOnlySpan<byte> page, int prefixEnd, int start, int end)
    {
        if (end < start)
            end = start;
        BinaryPrimitives.WriteInt64LittleEndian(destination, pageNumber);
        BinaryPrimitives.WriteInt32LittleEndian(destination[8..], -(page.Length / StorageLimits.PageSize));
        BinaryPrimitives.WriteUInt16LittleEndian(destination[12..], (ushort)prefixEnd);
        BinaryPrimitives.WriteUInt16LittleEndian(destination[14..], (ushort)start);
        BinaryPrimitives.WriteInt32LittleEndian(destination[16..], end);
        var body = destination[PartialEntryHeaderSize..];
        page[..prefixEnd].CopyTo(body);
        page[start..end].CopyTo(body[prefixEnd..]);
        return PartialEntryHeaderSize + prefixEnd + end - start;
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

    /// <summary>Writes the header of a record whose stored payload is <paramref name="stored"/>.</summary>
    public static void WriteHeader(Span<byte> destination, long transactionId, int entries, ReadOnlySpan<byte> stored, int rawLength, bool compressed)
    {
        destination[..HeaderSize].Clear();
        BinaryPrimitives.WriteUInt64LittleEndian(destination, Magic);
        BinaryPrimitives.WriteInt64LittleEndian(destination[8..], transactionId);
        BinaryPrimitives.WriteInt32LittleEndian(destination[16..], entries);
        BinaryPrimitives.WriteInt32LittleEndian(destination[20..], compressed ? CompressedFlag : 0);
        BinaryPrimitives.WriteInt64LittleEndian(destination[24..], stored.Length);
        BinaryPrimitives.WriteUInt32LittleEndian(destination[32..], Crc32C.Compute(stored));
        BinaryPrimitives.WriteInt32LittleEndian(destination[36..], rawLength);
        BinaryPrimitives.WriteUInt32LittleEndian(destination[40..], Crc32C.Compute(destination[..40]));
    }

    /// <summary>Reads a record header of either format; false when it is not one (torn, stale or never written).</summary>
    public static bool TryReadHeader(ReadOnlySpan<byte> header, out RecordHeader record)
    {
        var magic = BinaryPrimitives.ReadUInt64LittleEndian(header);
        var transactionId = BinaryPrimitives.ReadInt64LittleEndian(header[8..]);
        var entries = BinaryPrimitives.ReadInt32LittleEndian(header[16..]);
        var storedLength = BinaryPrimitives.ReadInt64LittleEndian(header[24..]);
        var payloadCrc = BinaryPrimitives.ReadUInt32LittleEndian(header[32..]);
        if (magic == RawOnlyMagic)
        {
            record = new RecordHeader(transactionId, entries, storedLength, payloadCrc, storedLength, Compressed: false);
            return BinaryPrimitives.ReadUInt32LittleEndian(header[36..]) == Crc32C.Compute(header[..36])
                && entries >= 0 && storedLength is >= 0 and <= int.MaxValue;
        }
        var flags = BinaryPrimitives.ReadInt32LittleEndian(header[20..]);
        var rawLength = BinaryPrimitives.ReadInt32LittleEndian(header[36..]);
        record = new RecordHeader(transactionId, entries, storedLength, payloadCrc, rawLength, (flags & CompressedFlag) != 0);
        return magic == Magic
            && BinaryPrimitives.ReadUInt32LittleEndian(header[40..]) == Crc32C.Compute(header[..40])
            && entries >= 0 && storedLength is >= 0 and <= int.MaxValue && rawLength >= 0
            && (flags & ~CompressedFlag) == 0 && (record.Compressed || rawLength == storedLength);
    }

    /// <summary>
    /// Rebuilds the pages of a verified payload and hands each to <paramref name="apply"/>; a partial entry starts from
    /// the pages <paramref name="readBase"/> gives (page number, count). <paramref name="pageBuffer"/> is grown to the
    /// largest entry and kept, so a recovery allocates once per size, not once per heap run or overflow entry.
    /// </summary>
    public static void ReadEntries(ReadOnlySpan<byte> payload, int entries, ref byte[] pageBuffer, Action<long, int, byte[]> readBase, Action<long, byte[], int> apply)
    {
        var offset = 0;
        for (var i = 0; i < entries; i++)
        {
            var entry = payload[offset..];
            var pageNumber = BinaryPrimitives.ReadInt64LittleEndian(entry);
            var pageCount = BinaryPrimitives.ReadInt32LittleEndian(entry[8..]);
            int lower = BinaryPrimitives.ReadUInt16LittleEndian(entry[12..]);
            int upper = BinaryPrimitives.ReadUInt16LittleEndian(entry[14..]);
            if (pageCount < 0)
            {
                var count = -pageCount;
                var partialLength = count * StorageLimits.PageSize;
                var end = BinaryPrimitives.ReadInt32LittleEndian(entry[16..]);
                if (lower > partialLength || upper > end || end > partialLength)
                    throw new CorruptionException($"A journal record's partial entry of page {pageNumber} keeps bytes outside its {count} pages.");
                if (pageBuffer.Length < partialLength)
                    pageBuffer = new byte[partialLength];
                var target = pageBuffer;
                readBase(pageNumber, count, target);
                var kept = entry[PartialEntryHeaderSize..];
                kept[..lower].CopyTo(target);
                kept.Slice(lower, end - upper).CopyTo(target.AsSpan(upper));
                offset += PartialEntryHeaderSize + lower + end - upper;
                apply(pageNumber, target, partialLength);
                continue;
            }
            var length = pageCount * StorageLimits.PageSize;
            if (lower != 0 && (upper < lower || upper > length))
                throw new CorruptionException($"A journal record's entry of page {pageNumber} keeps bytes outside its {pageCount} pages.");
            if (pageBuffer.Length < length)
                pageBuffer = new byte[length];
            var buffer = pageBuffer;
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
