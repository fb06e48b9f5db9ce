using System.Buffers.Binary;
using Folio.Storage.Paging;

namespace Folio.Storage.Trees;

/// <summary>
/// Values too large for a leaf and at most a third of a run (4-16 KB) share runs of <see cref="HeapRunPages"/> pages
/// instead of taking whole overflow pages (<see cref="HeapRun"/>) where the environment packs them
/// (<see cref="StorageOptions.PackMidsizeValues"/>: the file a compaction writes): a 5 KB body alone on an 8 KB page
/// left 37% of it empty, a 9 KB one on two pages 44%. Elsewhere such values take a page each, and a packed one that is replaced or deleted
/// leaves its run, which goes with its last value. The leaf entry (<see cref="TreePage.HeapFlag"/>) holds the run's first page, the value's slot in it and its
/// size. The tree writes into one run (<see cref="TreeHeader.OpenHeapRun"/>) until a value does not fit in its free
/// bytes, then opens another; a run whose values are all gone is freed (so a run never stands empty), and a run that a
/// freed value leaves with more room than the one written into becomes the one written into. Without that last rule, runs that updates had left
/// a value or two in stayed as they were: 3,000 replacements of 200 values of 4-8 KB at random left the runs 34.1%
/// full, against 76.8% with it (a page of its own per value: about 74%; ValueHeapTests).
/// </summary>
public sealed partial class Tree
{
    /// <summary>
    /// Pages of a heap run (48 KB). A value never spans two runs, so each run's end is left empty: four pages held four
    /// values of 6.5 KB, as their own pages did, where six hold seven (overflow pages 81% full against 95%,
    /// docs/benchmarks.md). A run is copied whole into the transaction that changes it, so it is kept small.
    /// </summary>
    internal const int HeapRunPages = 6;

    internal const int HeapRunBytes = HeapRunPages * StorageLimits.PageSize;

    /// <summary>
    /// The largest value a heap run takes (16,369 bytes): at least three share a run. A larger one takes three pages
    /// or more of its own, at least two thirds full.
    /// </summary>
    internal const int MaxHeapValueSize = (HeapRunBytes - PageHeader.Size - 3 * HeapRun.SlotSize) / 3;

    private static bool GoesToHeap(int keyLength, int size) =>
        size <= MaxHeapValueSize && TreePage.LeafEntrySize(keyLength, size) > TreePage.MaxInlineEntrySize;

    /// <summary>Where a heap pointer's value is: its run's first page, its slot in the run and its size.</summary>
    internal static (long Run, int Slot, int Size) ReadHeapPointer(ReadOnlySpan<byte> pointer) =>
        (BinaryPrimitives.ReadInt64LittleEndian(pointer),
         BinaryPrimitives.ReadInt32LittleEndian(pointer[8..]),
         BinaryPrimitives.ReadInt32LittleEndian(pointer[12..]));

    private static void WriteHeapPointer(Span<byte> pointer, long run, int slot, int size)
    {
        BinaryPrimitives.WriteInt64LittleEndian(pointer, run);
        BinaryPrimitives.WriteInt32LittleEndian(pointer[8..], slot);
        BinaryPrimitives.WriteInt32LittleEndian(pointer[12..], size);
    }

    private ReadOnlySpan<byte> ReadHeapValue(ReadOnlySpan<byte> pointer)
    {
        var (run, slot, size) = ReadHeapPointer(pointer);
        return HeapRun.Value(_transaction.GetPage(run), slot, size, Name, run);
    }

    /// <summary>The bytes a value of the same size as the one <paramref name="pointer"/> points to is written over, in place.</summary>
    private Span<byte> ReuseInHeap(ReadOnlySpan<byte> pointer)
    {
        var (run, slot, size) = ReadHeapPointer(pointer);
        var value = HeapRun.Value(_transaction.ModifyPage(run), slot, size, Name, run);
        var offset = HeapRun.Slot(_transaction.GetPage(run), slot).Offset;
        _transaction.MarkHeapBytes(run, offset, offset + size);
        return value;
    }

    /// <summary>Takes <paramref name="size"/> bytes from the open run (opening a new one when they do not fit) and points <paramref name="pointer"/> at them.</summary>
    private Span<byte> AllocateInHeap(Span<byte> pointer, int size)
    {
        var run = Header.OpenHeapRun;
        Span<byte> page;
        // Read first: the run is copied into the transaction only when the value goes into it.
        if (run != 0 && HeapRun.FreeBytes(_transaction.GetPage(run)) >= size + HeapRun.SlotSize)
        {
            page = _transaction.ModifyPage(run);
        }
        else
        {
            page = _transaction.AllocatePage(HeapRunPages, PageFlags.ValueHeap, out run);
            HeapRun.Initialize(page, run, HeapRunPages);
            Header.OpenHeapRun = run;
            Header.OverflowPages += HeapRunPages;
            MarkChanged();
        }
        var slot = HeapRun.Allocate(page, size, out var moved);
        var offset = HeapRun.Slot(page, slot).Offset;
        // A compaction moved every value, so the whole value area changed; otherwise only the new value's bytes.
        _transaction.MarkHeapBytes(run, offset, moved ? page.Length : offset + size);
        WriteHeapPointer(pointer, run, slot, size);
        return HeapRun.Value(page, slot, size, Name, run);
    }

    /// <summary>
    /// Gives back a value's bytes. A run always holds a value: the one left with none is freed, the open one too. In a
    /// packing environment a run left with more room than the open one becomes the open one.
    /// </summary>
    private void FreeFromHeap(ReadOnlySpan<byte> pointer)
    {
        var (run, slot, size) = ReadHeapPointer(pointer);
        var page = _transaction.ModifyPage(run);
        HeapRun.Value(page, slot, size, Name, run);
        HeapRun.Free(page, slot, size);
        _transaction.MarkHeapBytes(run, 0, 0);
        if (HeapRun.LiveBytes(page) == 0)
        {
            FreeHeapRun(run);
            return;
        }
        var open = Header.OpenHeapRun;
        if (_transaction.Environment.Options.PackMidsizeValues && run != open
            && (open == 0 || HeapRun.FreeBytes(page) > HeapRun.FreeBytes(_transaction.GetPage(open))))
        {
            Header.OpenHeapRun = run;
            MarkChanged();
        }
    }

    private void FreeHeapRun(long run)
    {
        _transaction.FreePage(run, HeapRunPages);
        Header.OverflowPages -= HeapRunPages;
        if (run == Header.OpenHeapRun)
            Header.OpenHeapRun = 0;
        MarkChanged();
    }
}
