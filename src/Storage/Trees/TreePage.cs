using System.Buffers.Binary;
using Folio.Storage.Paging;

namespace Folio.Storage.Trees;

/// <summary>
/// The slotted layout of leaf and branch pages. After the page header comes an array of ushort
/// offsets (one per entry, in key order) growing up; entries are written from the end of the page
/// growing down, so an insert moves two bytes per later entry, never the entries themselves.
/// <code>
/// leaf entry:   ushort key length, byte flags, ushort stored value length, key, value
///               (flags = Overflow: the value is a long page number and a long size;
///                flags = Heap: a long page number of a value heap run, an int offset in it and an int size)
/// branch entry: ushort key length, long child page, key  (entry 0 has an empty key: "everything below")
/// </code>
/// </summary>
internal static class TreePage
{
    public const int LeafEntryHeader = 5;
    public const int BranchEntryHeader = 10;
    public const int SlotSize = 2;
    public const int OverflowPointerSize = 16;
    public const byte OverflowFlag = 1;

    /// <summary>The value sits in a run shared with other values (<see cref="Tree.MaxHeapValueSize"/>).</summary>
    public const byte HeapFlag = 2;

    /// <summary>
    /// Entries above this size go to overflow pages, so every leaf holds at least two entries. Two rather than more
    /// because an overflow run is whole pages: a 3 KB value kept inline shares its page, in a run it leaves 5 KB empty.
    /// </summary>
    public const int MaxInlineEntrySize = (StorageLimits.PageSize - PageHeader.Size) / 2 - SlotSize;

    public const int Capacity = StorageLimits.PageSize - PageHeader.Size;

    public static bool IsLeaf(ReadOnlySpan<byte> page) => PageHeader.Flags(page) == PageFlags.Leaf;

    public static int Count(ReadOnlySpan<byte> page) => PageHeader.Count(page);

    public static int FreeSpace(ReadOnlySpan<byte> page) =>
        PageHeader.Upper(page) - PageHeader.Size - SlotSize * PageHeader.Count(page);

    public static int SlotOffset(ReadOnlySpan<byte> page, int index) =>
        BinaryPrimitives.ReadUInt16LittleEndian(page[(PageHeader.Size + SlotSize * index)..]);

    public static ReadOnlySpan<byte> LeafKey(ReadOnlySpan<byte> page, int index)
    {
        var offset = SlotOffset(page, index);
        int keyLength = BinaryPrimitives.ReadUInt16LittleEndian(page[offset..]);
        return page.Slice(offset + LeafEntryHeader, keyLength);
    }

    public static byte LeafFlags(ReadOnlySpan<byte> page, int index) => page[SlotOffset(page, index) + 2];

    public static ReadOnlySpan<byte> LeafStoredValue(ReadOnlySpan<byte> page, int index)
    {
        var offset = SlotOffset(page, index);
        int keyLength = BinaryPrimitives.ReadUInt16LittleEndian(page[offset..]);
        int valueLength = BinaryPrimitives.ReadUInt16LittleEndian(page[(offset + 3)..]);
        return page.Slice(offset + LeafEntryHeader + keyLength, valueLength);
    }

    public static Span<byte> LeafStoredValue(Span<byte> page, int index)
    {
        var offset = SlotOffset(page, index);
        int keyLength = BinaryPrimitives.ReadUInt16LittleEndian(page[offset..]);
        int valueLength = BinaryPrimitives.ReadUInt16LittleEndian(page[(offset + 3)..]);
        return page.Slice(offset + LeafEntryHeader + keyLength, valueLength);
    }

    public static ReadOnlySpan<byte> BranchKey(ReadOnlySpan<byte> page, int index)
    {
        var offset = SlotOffset(page, index);
        int keyLength = BinaryPrimitives.ReadUInt16LittleEndian(page[offset..]);
        return page.Slice(offset + BranchEntryHeader, keyLength);
    }

    public static long BranchChild(ReadOnlySpan<byte> page, int index) =>
        BinaryPrimitives.ReadInt64LittleEndian(page[(SlotOffset(page, index) + 2)..]);

    public static ReadOnlySpan<byte> Key(ReadOnlySpan<byte> page, int index, bool leaf) =>
        leaf ? LeafKey(page, index) : BranchKey(page, index);

    /// <summary>The bytes of entry <paramref name="index"/> as stored (header, key and value).</summary>
    public static ReadOnlySpan<byte> RawEntry(ReadOnlySpan<byte> page, int index, bool leaf)
    {
        var offset = SlotOffset(page, index);
        int keyLength = BinaryPrimitives.ReadUInt16LittleEndian(page[offset..]);
        var size = leaf
            ? LeafEntryHeader + keyLength + BinaryPrimitives.ReadUInt16LittleEndian(page[(offset + 3)..])
            : BranchEntryHeader + keyLength;
        return page.Slice(offset, size);
    }

    public static int LeafEntrySize(int keyLength, int storedValueLength) => LeafEntryHeader + keyLength + storedValueLength;

    public static int BranchEntrySize(int keyLength) => BranchEntryHeader + keyLength;

    /// <summary>Bytes the entries and their slots take; what a compacted page would use.</summary>
    public static int UsedSpace(ReadOnlySpan<byte> page)
    {
        var leaf = IsLeaf(page);
        var count = Count(page);
        var used = SlotSize * count;
        for (var i = 0; i < count; i++)
            used += RawEntry(page, i, leaf).Length;
        return used;
    }

    /// <summary>Index of the first entry whose key is not less than <paramref name="key"/>.</summary>
    public static int SearchLeaf(ReadOnlySpan<byte> page, ReadOnlySpan<byte> key, out bool found)
    {
        int low = 0, high = Count(page) - 1;
        while (low <= high)
        {
            var mid = (low + high) >>> 1;
            var cmp = LeafKey(page, mid).SequenceCompareTo(key);
            if (cmp == 0)
            {
                found = true;
                return mid;
            }
            if (cmp < 0)
                low = mid + 1;
            else
                high = mid - 1;
        }
        found = false;
        return low;
    }

    /// <summary>Index of the child whose range holds <paramref name="key"/>: the last entry whose key is not greater.</summary>
    public static int SearchBranch(ReadOnlySpan<byte> page, ReadOnlySpan<byte> key)
    {
        int low = 1, high = Count(page) - 1;
        while (low <= high)
        {
            var mid = (low + high) >>> 1;
            var cmp = BranchKey(page, mid).SequenceCompareTo(key);
            if (cmp == 0)
                return mid;
            if (cmp < 0)
                low = mid + 1;
            else
                high = mid - 1;
        }
        return low - 1;
    }

    /// <summary>Makes room for a raw entry of <paramref name="size"/> bytes at <paramref name="index"/>; the caller fills it.</summary>
    public static Span<byte> InsertRaw(Span<byte> page, int index, int size)
    {
        var count = Count(page);
        var upper = PageHeader.Upper(page) - size;
        var slots = page[PageHeader.Size..];
        slots[(SlotSize * index)..(SlotSize * count)].CopyTo(slots[(SlotSize * (index + 1))..]);
        BinaryPrimitives.WriteUInt16LittleEndian(slots[(SlotSize * index)..], (ushort)upper);
        PageHeader.SetUpper(page, upper);
        PageHeader.SetCount(page, count + 1);
        return page.Slice(upper, size);
    }

    /// <summary>Adds a leaf entry and returns the span its stored value goes into.</summary>
    public static Span<byte> InsertLeaf(Span<byte> page, int index, ReadOnlySpan<byte> key, byte flags, int storedValueLength)
    {
        var entry = InsertRaw(page, index, LeafEntrySize(key.Length, storedValueLength));
        BinaryPrimitives.WriteUInt16LittleEndian(entry, (ushort)key.Length);
        entry[2] = flags;
        BinaryPrimitives.WriteUInt16LittleEndian(entry[3..], (ushort)storedValueLength);
        key.CopyTo(entry[LeafEntryHeader..]);
        return entry[(LeafEntryHeader + key.Length)..];
    }

    public static void InsertBranch(Span<byte> page, int index, ReadOnlySpan<byte> key, long child)
    {
        var entry = InsertRaw(page, index, BranchEntrySize(key.Length));
        BinaryPrimitives.WriteUInt16LittleEndian(entry, (ushort)key.Length);
        BinaryPrimitives.WriteInt64LittleEndian(entry[2..], child);
        key.CopyTo(entry[BranchEntryHeader..]);
    }

    public static void SetBranchChild(Span<byte> page, int index, long child) =>
        BinaryPrimitives.WriteInt64LittleEndian(page[(SlotOffset(page, index) + 2)..], child);

    /// <summary>Removes the slot of entry <paramref name="index"/>; its bytes stay until the page is compacted.</summary>
    public static void Remove(Span<byte> page, int index)
    {
        var count = Count(page);
        var slots = page[PageHeader.Size..];
        slots[(SlotSize * (index + 1))..(SlotSize * count)].CopyTo(slots[(SlotSize * index)..]);
        PageHeader.SetCount(page, count - 1);
    }

    /// <summary>Rewrites the entries contiguously at the end of the page, reclaiming removed entries' bytes.</summary>
    public static void Compact(Span<byte> page, Span<byte> scratch)
    {
        page.CopyTo(scratch);
        var leaf = IsLeaf(page);
        var count = Count(page);
        var upper = page.Length;
        for (var i = 0; i < count; i++)
        {
            var entry = RawEntry(scratch, i, leaf);
            upper -= entry.Length;
            entry.CopyTo(page[upper..]);
            BinaryPrimitives.WriteUInt16LittleEndian(page[(PageHeader.Size + SlotSize * i)..], (ushort)upper);
        }
        PageHeader.SetUpper(page, upper);
        page[(PageHeader.Size + SlotSize * count)..upper].Clear();
    }
}
