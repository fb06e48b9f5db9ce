using System.Buffers.Binary;
using Folio.Storage.Paging;

namespace Folio.Storage.Trees;

/// <summary>
/// The slotted layout of a value heap run (<see cref="PageFlags.ValueHeap"/>), the pages one tree's values of
/// 4-16 KB share (<see cref="Tree.MaxHeapValueSize"/>). After the page header comes an array of slots growing up, one
/// per value (ushort offset, ushort size; offset 0 marks a free slot), and the values are written from the run's end
/// growing down, as a tree page's entries are. A leaf points at a value by run and slot, so a value can move
/// within its run without the leaf changing: the run is compacted, its values pushed together at its end, when a new
/// one does not fit in the gap between the slots and the values but fits in the run's free bytes.
/// <code>
/// header: 10 ushort slot count   12 ushort where the values start   24 int pages in the run   28 int live bytes
/// </code>
/// </summary>
internal static class HeapRun
{
    public const int SlotSize = 4;

    public static int SlotCount(ReadOnlySpan<byte> run) => PageHeader.Count(run);

    public static int LiveBytes(ReadOnlySpan<byte> run) => BinaryPrimitives.ReadInt32LittleEndian(run[28..]);

    /// <summary>Bytes a value and its slot may take, once the run is compacted.</summary>
    public static int FreeBytes(ReadOnlySpan<byte> run) => run.Length - PageHeader.Size - SlotSize * SlotCount(run) - LiveBytes(run);

    /// <summary>Where the slots end: the run's used start, which a journal record keeps with its values from <see cref="PageHeader.Upper"/>.</summary>
    public static int SlotsEnd(ReadOnlySpan<byte> run) => PageHeader.Size + SlotSize * SlotCount(run);

    public static void Initialize(Span<byte> run, long pageNumber, int pageCount)
    {
        PageHeader.Initialize(run, pageNumber, PageFlags.ValueHeap);
        PageHeader.SetOverflow(run, 0, pageCount);
        SetLiveBytes(run, 0);
    }

    /// <summary>The value in <paramref name="slot"/>, checked against the <paramref name="size"/> its leaf pointer gives.</summary>
    public static Span<byte> Value(Span<byte> run, int slot, int size, string tree, long runPage)
    {
        var offset = CheckedOffset(run, slot, size, tree, runPage);
        return run.Slice(offset, size);
    }

    /// <inheritdoc cref="Value(Span{byte}, int, int, string, long)"/>
    public static ReadOnlySpan<byte> Value(ReadOnlySpan<byte> run, int slot, int size, string tree, long runPage)
    {
        var offset = CheckedOffset(run, slot, size, tree, runPage);
        return run.Slice(offset, size);
    }

    private static int CheckedOffset(ReadOnlySpan<byte> run, int slot, int size, string tree, long runPage)
    {
        if (PageHeader.Flags(run) != PageFlags.ValueHeap || slot < 0 || slot >= SlotCount(run))
            throw new CorruptionException($"Tree '{tree}' points to slot {slot} of page {runPage}, which is not a value heap run holding it.");
        var (offset, stored) = Slot(run, slot);
        if (offset == 0 || stored != size || offset < PageHeader.Upper(run) || offset + size > run.Length)
            throw new CorruptionException($"Slot {slot} of heap run {runPage} in tree '{tree}' holds {stored} bytes at {offset}; the tree expects {size}.");
        return offset;
    }

    public static (int Offset, int Size) Slot(ReadOnlySpan<byte> run, int slot)
    {
        var at = PageHeader.Size + SlotSize * slot;
        return (BinaryPrimitives.ReadUInt16LittleEndian(run[at..]), BinaryPrimitives.ReadUInt16LittleEndian(run[(at + 2)..]));
    }

    /// <summary>
    /// Takes <paramref name="size"/> bytes (the caller checked <see cref="FreeBytes"/> has room for them and a slot) and
    /// returns their slot; <paramref name="compacted"/> says whether the other values moved to make the room.
    /// </summary>
    public static int Allocate(Span<byte> run, int size, out bool compacted)
    {
        var count = SlotCount(run);
        var slot = 0;
        while (slot < count && Slot(run, slot).Offset != 0)
            slot++;
        var needed = size + (slot == count ? SlotSize : 0);
        compacted = PageHeader.Upper(run) - SlotsEnd(run) < needed;
        if (compacted)
            Compact(run);
        var upper = PageHeader.Upper(run) - size;
        PageHeader.SetUpper(run, upper);
        if (slot == count)
            PageHeader.SetCount(run, count + 1);
        SetSlot(run, slot, upper, size);
        SetLiveBytes(run, LiveBytes(run) + size);
        return slot;
    }

    /// <summary>Gives back the value in <paramref name="slot"/>; its bytes stay until the run is compacted (or freed, with its last value), trailing free slots go at once.</summary>
    public static void Free(Span<byte> run, int slot, int size)
    {
        SetSlot(run, slot, 0, 0);
        SetLiveBytes(run, LiveBytes(run) - size);
        var count = SlotCount(run);
        while (count > 0 && Slot(run, count - 1).Offset == 0)
            count--;
        PageHeader.SetCount(run, count);
    }

    /// <summary>
    /// Pushes the values together at the run's end, the one nearest the end first, so each moves towards the end
    /// over bytes already moved or free and no copy of the run is needed.
    /// </summary>
    private static void Compact(Span<byte> run)
    {
        var count = SlotCount(run);
        Span<int> order = stackalloc int[count];
        var used = 0;
        for (var i = 0; i < count; i++)
        {
            if (Slot(run, i).Offset != 0)
                order[used++] = i;
        }
        order = order[..used];
        // Highest offset first; a run holds a handful of values, so insertion order is enough.
        for (var i = 1; i < order.Length; i++)
        {
            var slot = order[i];
            var offset = Slot(run, slot).Offset;
            var j = i - 1;
            while (j >= 0 && Slot(run, order[j]).Offset < offset)
            {
                order[j + 1] = order[j];
                j--;
            }
            order[j + 1] = slot;
        }
        var upper = run.Length;
        foreach (var slot in order)
        {
            var (offset, size) = Slot(run, slot);
            upper -= size;
            if (upper != offset)
                run.Slice(offset, size).CopyTo(run[upper..]);
            SetSlot(run, slot, upper, size);
        }
        PageHeader.SetUpper(run, upper);
    }

    private static void SetSlot(Span<byte> run, int slot, int offset, int size)
    {
        var at = PageHeader.Size + SlotSize * slot;
        BinaryPrimitives.WriteUInt16LittleEndian(run[at..], (ushort)offset);
        BinaryPrimitives.WriteUInt16LittleEndian(run[(at + 2)..], (ushort)size);
    }

    private static void SetLiveBytes(Span<byte> run, int liveBytes) => BinaryPrimitives.WriteInt32LittleEndian(run[28..], liveBytes);
}
