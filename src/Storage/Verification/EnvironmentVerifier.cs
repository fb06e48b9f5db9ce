using System.Buffers.Binary;
using System.Collections;
using Folio.Storage.Paging;
using Folio.Storage.Transactions;
using Folio.Storage.Trees;

namespace Folio.Storage.Verification;

/// <summary>
/// Checks every invariant of a snapshot: each tree's pages are well-formed, keys are ordered within
/// and across pages, leaves sit at one depth, header counts match, and every page below the
/// high-water mark is either used exactly once or free in the bitmap, never both, never neither.
/// </summary>
internal sealed class EnvironmentVerifier
{
    private readonly PageTransaction _transaction;
    private readonly EnvironmentState _state;
    private readonly BitArray _used;

    private EnvironmentVerifier(PageTransaction transaction, EnvironmentState state)
    {
        _transaction = transaction;
        _state = state;
        _used = new BitArray(checked((int)state.NextPage));
    }

    public static void Verify(PageTransaction transaction, EnvironmentState state)
    {
        var verifier = new EnvironmentVerifier(transaction, state);
        verifier.Run();
    }

    private void Run()
    {
        MarkUsed(0, 1);
        MarkUsed(1, 1);
        MarkUsed(EnvironmentState.StatePageNumber, 1);
        foreach (var bitmap in _state.BitmapPages)
        {
            MarkUsed(bitmap, 1);
            Expect(PageHeader.Flags(_transaction.GetPage(bitmap)) == PageFlags.FreeSpaceBitmap, $"Page {bitmap} should be a free-space bitmap.");
        }

        VerifyTree("(root)", _state.Root);
        var cursor = _transaction.RootTree.CreateCursor();
        for (var more = cursor.First(); more; more = cursor.MoveNext())
            VerifyTree(System.Text.Encoding.UTF8.GetString(cursor.Key), TreeHeader.ReadFrom(cursor.Value));

        VerifyFreeSpace();
    }

    private void VerifyTree(string name, TreeHeader header)
    {
        var counts = new TreeCounts();
        Walk(name, header, header.RootPage, 1, null, null, counts);
        Expect(header.OpenHeapRun == 0 || counts.HeapLive.ContainsKey(header.OpenHeapRun), $"Tree '{name}' writes into heap run {header.OpenHeapRun}, which holds none of its values.");
        foreach (var (run, live) in counts.HeapLive)
            counts.Overflow += VerifyHeapRun(name, run, live, counts.HeapValues.GetValueOrDefault(run));
        Expect(counts.Entries == header.EntryCount, $"Tree '{name}' says {header.EntryCount} entries; its leaves hold {counts.Entries}.");
        Expect(counts.Leaves == header.LeafPages, $"Tree '{name}' says {header.LeafPages} leaf pages; it has {counts.Leaves}.");
        Expect(counts.Branches == header.BranchPages, $"Tree '{name}' says {header.BranchPages} branch pages; it has {counts.Branches}.");
        Expect(counts.Overflow == header.OverflowPages, $"Tree '{name}' says {header.OverflowPages} overflow pages; it has {counts.Overflow}.");
    }

    private void Walk(string name, in TreeHeader header, long pageNumber, int level, byte[]? lower, byte[]? upper, TreeCounts counts)
    {
        MarkUsed(pageNumber, 1);
        var page = _transaction.GetPage(pageNumber);
        var flags = PageHeader.Flags(page);
        Expect(PageHeader.PageNumber(page) == pageNumber, $"Page {pageNumber} of tree '{name}' carries number {PageHeader.PageNumber(page)}.");
        Expect(flags is PageFlags.Leaf or PageFlags.Branch, $"Page {pageNumber} of tree '{name}' is {flags}.");
        var leaf = flags == PageFlags.Leaf;
        var count = TreePage.Count(page);
        var upperStart = PageHeader.Upper(page);
        Expect(PageHeader.Size + TreePage.SlotSize * count <= upperStart && upperStart <= page.Length, $"Page {pageNumber} of tree '{name}' has overlapping slots and entries.");
        for (var i = 0; i < count; i++)
        {
            var offset = TreePage.SlotOffset(page, i);
            Expect(offset >= upperStart && offset + TreePage.RawEntry(page, i, leaf).Length <= page.Length, $"Entry {i} of page {pageNumber} lies outside the entry area.");
        }

        if (leaf)
        {
            Expect(level == header.Depth, $"Leaf {pageNumber} of tree '{name}' is at depth {level}; the tree's depth is {header.Depth}.");
            Expect(count > 0 || level == 1, $"Leaf {pageNumber} of tree '{name}' is empty but not the root.");
            counts.Leaves++;
            counts.Entries += count;
            for (var i = 0; i < count; i++)
            {
                var key = TreePage.LeafKey(page, i);
                CheckOrder(name, pageNumber, key, i == 0 ? null : TreePage.LeafKey(page, i - 1), lower, upper);
                var entryFlags = TreePage.LeafFlags(page, i);
                if (entryFlags == TreePage.OverflowFlag)
                    counts.Overflow += VerifyOverflow(name, TreePage.LeafStoredValue(page, i));
                else if (entryFlags == TreePage.HeapFlag)
                    CountHeapValue(name, TreePage.LeafStoredValue(page, i), counts);
                else
                    Expect(TreePage.LeafEntrySize(key.Length, TreePage.LeafStoredValue(page, i).Length) <= TreePage.MaxInlineEntrySize, $"An inline entry of page {pageNumber} is larger than inline entries may be.");
            }
            return;
        }

        counts.Branches++;
        Expect(count >= 1, $"Branch {pageNumber} of tree '{name}' has no children.");
        Expect(TreePage.BranchKey(page, 0).Length == 0, $"Branch {pageNumber} of tree '{name}' has a key on its first entry.");
        for (var i = 1; i < count; i++)
            CheckOrder(name, pageNumber, TreePage.BranchKey(page, i), i == 1 ? null : TreePage.BranchKey(page, i - 1), lower, upper);
        for (var i = 0; i < count; i++)
        {
            var childLower = i == 0 ? lower : TreePage.BranchKey(page, i).ToArray();
            var childUpper = i + 1 < count ? TreePage.BranchKey(page, i + 1).ToArray() : upper;
            Walk(name, header, TreePage.BranchChild(_transaction.GetPage(pageNumber), i), level + 1, childLower, childUpper, counts);
        }
    }

    private int VerifyOverflow(string name, ReadOnlySpan<byte> pointer)
    {
        var runPage = BinaryPrimitives.ReadInt64LittleEndian(pointer);
        var size = BinaryPrimitives.ReadInt64LittleEndian(pointer[8..]);
        var run = _transaction.GetPage(runPage);
        Expect(PageHeader.Flags(run) == PageFlags.Overflow, $"Tree '{name}' points to page {runPage} for a value, which is not an overflow page.");
        var pageCount = PageHeader.OverflowPageCount(run);
        Expect(PageHeader.OverflowValueSize(run) == size && pageCount == PageHeader.OverflowPagesFor(size), $"The overflow run at {runPage} of tree '{name}' does not match its pointer.");
        MarkUsed(runPage, pageCount);
        return pageCount;
    }

    private void CountHeapValue(string name, ReadOnlySpan<byte> pointer, TreeCounts counts)
    {
        Expect(pointer.Length == TreePage.OverflowPointerSize, $"A heap pointer of tree '{name}' holds {pointer.Length} bytes.");
        var (run, slot, size) = Tree.ReadHeapPointer(pointer);
        Expect(size <= Tree.MaxHeapValueSize && slot >= 0, $"Tree '{name}' points to slot {slot} of heap run {run} for {size} bytes.");
        var page = _transaction.GetPage(run);
        Expect(PageHeader.Flags(page) == PageFlags.ValueHeap && slot < HeapRun.SlotCount(page), $"Tree '{name}' points to slot {slot} of page {run}, which is not a value heap run holding it.");
        var (offset, stored) = HeapRun.Slot(page, slot);
        Expect(offset != 0 && stored == size && offset >= PageHeader.Upper(page) && offset + size <= page.Length, $"Slot {slot} of heap run {run} in tree '{name}' holds {stored} bytes at {offset}; the tree expects {size}.");
        counts.HeapLive[run] = counts.HeapLive.GetValueOrDefault(run) + size;
        Expect(counts.HeapSlots.Add((run, slot)), $"Two entries of tree '{name}' point to slot {slot} of heap run {run}.");
        counts.HeapValues[run] = counts.HeapValues.GetValueOrDefault(run) + 1;
    }

    private int VerifyHeapRun(string name, long run, long live, int values)
    {
        var page = _transaction.GetPage(run);
        Expect(PageHeader.Flags(page) == PageFlags.ValueHeap && PageHeader.OverflowPageCount(page) == Tree.HeapRunPages && page.Length == Tree.HeapRunBytes, $"Tree '{name}' keeps values in page {run}, which is not a value heap run.");
        Expect(HeapRun.LiveBytes(page) == live, $"Heap run {run} of tree '{name}' says {HeapRun.LiveBytes(page)} live bytes; its entries point to {live}.");
        Expect(HeapRun.SlotsEnd(page) <= PageHeader.Upper(page) && PageHeader.Upper(page) <= page.Length, $"Heap run {run} of tree '{name}' has overlapping slots and values.");
        var used = 0;
        for (var slot = 0; slot < HeapRun.SlotCount(page); slot++)
        {
            if (HeapRun.Slot(page, slot).Offset != 0)
                used++;
        }
        Expect(used == values, $"Heap run {run} of tree '{name}' has {used} slots in use; the tree points to {values}.");
        MarkUsed(run, Tree.HeapRunPages);
        return Tree.HeapRunPages;
    }

    private static void CheckOrder(string name, long pageNumber, ReadOnlySpan<byte> key, ReadOnlySpan<byte> previous, byte[]? lower, byte[]? upper)
    {
        Expect(previous.IsEmpty || previous.SequenceCompareTo(key) < 0, $"Keys of page {pageNumber} in tree '{name}' are out of order.");
        Expect(lower is null || key.SequenceCompareTo(lower) >= 0, $"A key of page {pageNumber} in tree '{name}' is below its parent's range.");
        Expect(upper is null || key.SequenceCompareTo(upper) < 0, $"A key of page {pageNumber} in tree '{name}' is above its parent's range.");
    }

    private void VerifyFreeSpace()
    {
        for (var b = 0; b < _state.BitmapPages.Length; b++)
        {
            var bits = _transaction.GetPage(_state.BitmapPages[b])[PageHeader.Size..];
            var free = 0;
            for (var bit = 0; bit < bits.Length * 8; bit++)
            {
                var pageNumber = (long)b * PageTransaction.BitsPerBitmapPage + bit;
                var isFree = (bits[bit >> 3] & (1 << (bit & 7))) != 0;
                if (!isFree)
                {
                    if (pageNumber < _state.NextPage)
                        Expect(_used[(int)pageNumber], $"Page {pageNumber} is neither used nor free: it leaked.");
                    continue;
                }
                free++;
                Expect(pageNumber < _state.NextPage, $"Page {pageNumber} is marked free beyond the high-water mark.");
                Expect(!_used[(int)pageNumber], $"Page {pageNumber} is marked free but in use.");
            }
            Expect(free == _state.FreeCounts[b], $"Bitmap {b} holds {free} free pages; the environment counts {_state.FreeCounts[b]}.");
        }
    }

    private void MarkUsed(long pageNumber, int count)
    {
        for (var p = pageNumber; p < pageNumber + count; p++)
        {
            Expect(p >= 0 && p < _state.NextPage, $"Page {p} is in use but beyond the high-water mark {_state.NextPage}.");
            Expect(!_used[(int)p], $"Page {p} is used twice.");
            _used[(int)p] = true;
        }
    }

    private static void Expect(bool condition, string problem)
    {
        if (!condition)
            throw new CorruptionException(problem);
    }

    private sealed class TreeCounts
    {
        public long Entries;
        public long Leaves;
        public long Branches;
        public long Overflow;
        public readonly Dictionary<long, long> HeapLive = [];
        public readonly Dictionary<long, int> HeapValues = [];
        public readonly HashSet<(long Run, int Slot)> HeapSlots = [];
    }
}
