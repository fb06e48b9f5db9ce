using System.Buffers.Binary;
using Folio.Storage.Paging;

namespace Folio.Storage.Trees;

public sealed partial class Tree
{
    /// <summary>Stores <paramref name="value"/> under <paramref name="key"/>, replacing any earlier value.</summary>
    public void Put(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value) => value.CopyTo(Reserve(key, value.Length));

    /// <summary>
    /// Makes room for a value of <paramref name="size"/> bytes under <paramref name="key"/> and returns
    /// it for the caller to fill, so a value can be written straight into its page without a copy.
    /// The span is valid until the tree is next changed.
    /// </summary>
    public Span<byte> Reserve(ReadOnlySpan<byte> key, int size)
    {
        EnsureWritable();
        ValidateKey(key);
        _transaction.Environment.ChangeLog?.Record(Name, key);
        if (size < 0 || size > StorageLimits.MaxValueSize)
            throw new ArgumentOutOfRangeException(nameof(size), size, $"A value must be between 0 and {StorageLimits.MaxValueSize} bytes.");

        var leafPage = FindLeaf(key, out var depth);
        var leaf = _transaction.ModifyPage(leafPage);
        var index = TreePage.SearchLeaf(leaf, key, out var found);
        var heap = _transaction.Environment.Options.PackMidsizeValues && GoesToHeap(key.Length, size);
        var overflow = !heap && TreePage.LeafEntrySize(key.Length, size) > TreePage.MaxInlineEntrySize;
        if (found)
        {
            var was = TreePage.LeafFlags(leaf, index);
            if (was == 0 && !overflow && !heap && TreePage.LeafStoredValue(leaf, index).Length == size)
                return TreePage.LeafStoredValue(leaf, index);
            if (was == TreePage.HeapFlag && heap && ReadHeapPointer(TreePage.LeafStoredValue(leaf, index)).Size == size)
                return ReuseInHeap(TreePage.LeafStoredValue(leaf, index));
            FreeOutOfLine(was, TreePage.LeafStoredValue(leaf, index));
            TreePage.Remove(leaf, index);
        }
        else
        {
            Header.EntryCount++;
        }
        MarkChanged();

        var storedLength = overflow || heap ? TreePage.OverflowPointerSize : size;
        var flags = overflow ? TreePage.OverflowFlag : heap ? TreePage.HeapFlag : (byte)0;
        var needed = TreePage.LeafEntrySize(key.Length, storedLength) + TreePage.SlotSize;
        if (TreePage.FreeSpace(leaf) < needed && TreePage.Capacity - TreePage.UsedSpace(leaf) >= needed)
            TreePage.Compact(leaf, _transaction.Scratch);
        Span<byte> stored;
        if (TreePage.FreeSpace(leaf) >= needed)
            stored = TreePage.InsertLeaf(leaf, index, key, flags, storedLength);
        else if (!TryShiftToSibling(depth, leafPage, index, key, flags, storedLength, out stored))
            stored = SplitLeaf(depth, leafPage, index, key, flags, storedLength);
        if (heap)
            return AllocateInHeap(stored, size);
        if (!overflow)
            return stored;

        var pageCount = PageHeader.OverflowPagesFor(size);
        var run = _transaction.AllocatePage(pageCount, PageFlags.Overflow, out var runPage);
        PageHeader.SetOverflow(run, size, pageCount);
        Header.OverflowPages += pageCount;
        BinaryPrimitives.WriteInt64LittleEndian(stored, runPage);
        BinaryPrimitives.WriteInt64LittleEndian(stored[8..], size);
        return run.Slice(PageHeader.Size, size);
    }

    /// <summary>Gives back the pages or heap bytes of a value kept out of its leaf (<paramref name="flags"/> says which, if any).</summary>
    private void FreeOutOfLine(byte flags, ReadOnlySpan<byte> pointer)
    {
        if (flags == TreePage.OverflowFlag)
            FreeOverflow(pointer);
        else if (flags == TreePage.HeapFlag)
            FreeFromHeap(pointer);
    }

    private void FreeOverflow(ReadOnlySpan<byte> pointer)
    {
        var runPage = BinaryPrimitives.ReadInt64LittleEndian(pointer);
        var pageCount = PageHeader.OverflowPageCount(_transaction.GetPage(runPage));
        _transaction.FreePage(runPage, pageCount);
        Header.OverflowPages -= pageCount;
    }

    /// <summary>
    /// Splits a full leaf and inserts the new entry. An insert past the last entry (the shape of
    /// sequential keys) moves nothing: the new right page starts with the new entry alone, so
    /// sequentially loaded pages end up full instead of half full.
    /// </summary>
    private Span<byte> SplitLeaf(int depth, long leafPage, int index, ReadOnlySpan<byte> key, byte flags, int storedLength)
    {
        ForgetLastLeaf();
        var leaf = _transaction.ModifyPage(leafPage);
        var original = _transaction.Scratch;
        leaf.CopyTo(original);
        var count = TreePage.Count(original);
        var newSize = TreePage.LeafEntrySize(key.Length, storedLength) + TreePage.SlotSize;
        var splitAt = index == count ? count : SplitPoint(original, count, index, newSize, leaf: true);

        var right = _transaction.AllocatePage(1, PageFlags.Leaf, out var rightPage);
        Header.LeafPages++;
        PageHeader.Initialize(leaf, leafPage, PageFlags.Leaf);
        Span<byte> stored = default;
        int leftCount = 0, rightCount = 0;
        for (var j = 0; j <= count; j++)
        {
            var target = j < splitAt ? leaf : right;
            var targetIndex = j < splitAt ? leftCount++ : rightCount++;
            if (j == index)
            {
                stored = TreePage.InsertLeaf(target, targetIndex, key, flags, storedLength);
                continue;
            }
            var raw = TreePage.RawEntry(original, j < index ? j : j - 1, leaf: true);
            raw.CopyTo(TreePage.InsertRaw(target, targetIndex, raw.Length));
        }

        // The new leaf is not touched again while the separator goes up, so its key is passed in place.
        InsertSeparator(depth - 1, TreePage.LeafKey(right, 0), rightPage);
        return stored;
    }

    /// <summary>
    /// Where to cut a page's entries plus one new entry so both halves hold about the same bytes. An entry may
    /// take up to half a page, so the cut nearest the middle can leave one side over a page: it then moves
    /// towards that side until both fit, which they do once each entry is at most half a page.
    /// </summary>
    private static int SplitPoint(ReadOnlySpan<byte> original, int count, int newIndex, int newSize, bool leaf)
    {
        var total = newSize;
        for (var i = 0; i < count; i++)
            total += TreePage.RawEntry(original, i, leaf).Length + TreePage.SlotSize;
        var running = 0;
        var cut = count;
        for (var j = 0; j <= count; j++)
        {
            running += EntrySize(original, j, newIndex, newSize, leaf);
            if (running >= total / 2)
            {
                cut = Math.Clamp(j + 1, 1, count);
                break;
            }
        }
        var left = 0;
        for (var j = 0; j < cut; j++)
            left += EntrySize(original, j, newIndex, newSize, leaf);
        while (left > TreePage.Capacity && cut > 1)
            left -= EntrySize(original, --cut, newIndex, newSize, leaf);
        while (total - left > TreePage.Capacity && cut < count)
            left += EntrySize(original, cut++, newIndex, newSize, leaf);
        return cut;
    }

    /// <summary>The bytes, slot included, of entry <paramref name="j"/> of a page's entries with the new one at <paramref name="newIndex"/>.</summary>
    private static int EntrySize(ReadOnlySpan<byte> original, int j, int newIndex, int newSize, bool leaf) =>
        j == newIndex ? newSize : TreePage.RawEntry(original, j < newIndex ? j : j - 1, leaf).Length + TreePage.SlotSize;

    /// <summary>Adds the entry for a new right sibling to the parent at <paramref name="level"/>, splitting upward as needed.</summary>
    private void InsertSeparator(int level, ReadOnlySpan<byte> separator, long rightPage)
    {
        ForgetLastLeaf();
        if (level < 0)
        {
            var root = _transaction.AllocatePage(1, PageFlags.Branch, out var rootPage);
            TreePage.InsertBranch(root, 0, default, Header.RootPage);
            TreePage.InsertBranch(root, 1, separator, rightPage);
            Header.RootPage = rootPage;
            Header.Depth++;
            Header.BranchPages++;
            return;
        }

        var parentPage = _pathPages![level];
        var position = _pathIndexes![level] + 1;
        var parent = _transaction.ModifyPage(parentPage);
        var needed = TreePage.BranchEntrySize(separator.Length) + TreePage.SlotSize;
        if (TreePage.FreeSpace(parent) < needed && TreePage.Capacity - TreePage.UsedSpace(parent) >= needed)
            TreePage.Compact(parent, _transaction.Scratch);
        if (TreePage.FreeSpace(parent) >= needed)
        {
            TreePage.InsertBranch(parent, position, separator, rightPage);
            return;
        }

        var original = _transaction.Scratch;
        parent.CopyTo(original);
        var count = TreePage.Count(original);
        var splitAt = position == count ? count : SplitPoint(original, count, position, needed, leaf: false);
        var right = _transaction.AllocatePage(1, PageFlags.Branch, out var newRightPage);
        Header.BranchPages++;
        PageHeader.Initialize(parent, parentPage, PageFlags.Branch);
        int leftCount = 0, rightCount = 0;
        for (var j = 0; j <= count; j++)
        {
            var target = j < splitAt ? parent : right;
            var targetIndex = j < splitAt ? leftCount++ : rightCount++;
            if (j == position)
            {
                TreePage.InsertBranch(target, targetIndex, separator, rightPage);
                continue;
            }
            var raw = TreePage.RawEntry(original, j < position ? j : j - 1, leaf: false);
            raw.CopyTo(TreePage.InsertRaw(target, targetIndex, raw.Length));
        }

        // The right branch's first key moves up; inside the branch, its first entry means "everything below".
        var up = TreePage.BranchKey(right, 0).ToArray();
        var firstChild = TreePage.BranchChild(right, 0);
        TreePage.Remove(right, 0);
        TreePage.Compact(right, _transaction.Scratch);
        TreePage.InsertBranch(right, 0, default, firstChild);
        InsertSeparator(level - 1, up, newRightPage);
    }
}
