namespace Folio.Storage.Trees;

public sealed partial class Tree
{
    /// <summary>
    /// Makes room in a full leaf by moving its last entries to the front of the right sibling, or its first
    /// entries to the end of the left sibling, when that sibling (under the same parent) has the room, and
    /// inserts the new entry; false when neither can take them, and nothing changed. A split leaves two
    /// half-full pages behind keys that arrive in runs between older keys (<c>orders/12340</c> …
    /// <c>orders/12349</c> land before the older <c>orders/1235</c>) or at random (GUIDs); passing entries
    /// to a sibling first fills the siblings, so pages split only once their neighbours are full too.
    /// </summary>
    private bool TryShiftToSibling(int depth, long leafPage, int index, ReadOnlySpan<byte> key, byte flags, int storedLength, out Span<byte> stored)
    {
        stored = default;
        if (depth == 0)
            return false;
        var parentPage = _pathPages![depth - 1];
        var position = _pathIndexes![depth - 1];
        var parent = _transaction.GetPage(parentPage);
        var leaf = _transaction.GetPage(leafPage);
        var count = TreePage.Count(leaf);
        var newSize = TreePage.LeafEntrySize(key.Length, storedLength) + TreePage.SlotSize;
        var excess = TreePage.UsedSpace(leaf) + newSize - TreePage.Capacity;

        // The entries with the new one in place: entry s of that sequence is the new one at s == index,
        // else the leaf's entry s (before index) or s - 1 (after).
        if (position + 1 < TreePage.Count(parent))
        {
            var rightPage = TreePage.BranchChild(parent, position + 1);
            var room = TreePage.Capacity - TreePage.UsedSpace(_transaction.GetPage(rightPage));
            var keep = count + 1;
            var moved = 0;
            while (moved < excess && keep > 1)
            {
                keep--;
                moved += keep == index ? newSize : TreePage.RawEntry(leaf, keep < index ? keep : keep - 1, leaf: true).Length + TreePage.SlotSize;
            }
            var firstMoved = keep == index ? key : TreePage.LeafKey(leaf, keep < index ? keep : keep - 1);
            if (moved >= excess && moved <= room && ParentTakesKey(parent, position + 1, firstMoved.Length))
            {
                stored = ShiftRight(parentPage, position + 1, leafPage, rightPage, keep, index, key, flags, storedLength);
                return true;
            }
        }
        if (position > 0)
        {
            var leftPage = TreePage.BranchChild(parent, position - 1);
            var room = TreePage.Capacity - TreePage.UsedSpace(_transaction.GetPage(leftPage));
            var give = 0;
            var moved = 0;
            while (moved < excess && give < count)
            {
                moved += give == index ? newSize : TreePage.RawEntry(leaf, give < index ? give : give - 1, leaf: true).Length + TreePage.SlotSize;
                give++;
            }
            var firstKept = give == index ? key : TreePage.LeafKey(leaf, give < index ? give : give - 1);
            if (moved >= excess && moved <= room && ParentTakesKey(parent, position, firstKept.Length))
            {
                stored = ShiftLeft(parentPage, position, leafPage, leftPage, give, index, key, flags, storedLength);
                return true;
            }
        }
        return false;
    }

    /// <summary>Whether the parent's entry <paramref name="position"/> can take a separator of <paramref name="keyLength"/> bytes in place of its own.</summary>
    private static bool ParentTakesKey(ReadOnlySpan<byte> parent, int position, int keyLength) =>
        TreePage.Capacity - TreePage.UsedSpace(parent) + TreePage.RawEntry(parent, position, leaf: false).Length >= TreePage.BranchEntrySize(keyLength);

    /// <summary>Moves the sequence's entries from <paramref name="keep"/> on to the front of the right sibling, then fixes its separator.</summary>
    private Span<byte> ShiftRight(long parentPage, int separatorIndex, long leafPage, long rightPage, int keep, int index, ReadOnlySpan<byte> key, byte flags, int storedLength)
    {
        ForgetLastLeaf();
        var leaf = _transaction.ModifyPage(leafPage);
        var right = _transaction.ModifyPage(rightPage);
        var count = TreePage.Count(leaf);
        var movedCount = count + 1 - keep;
        var movedBytes = 0;
        for (var s = keep; s <= count; s++)
        {
            movedBytes += s == index
                ? TreePage.LeafEntrySize(key.Length, storedLength)
                : TreePage.RawEntry(leaf, s < index ? s : s - 1, leaf: true).Length;
        }
        if (TreePage.FreeSpace(right) < movedBytes + TreePage.SlotSize * movedCount)
            TreePage.Compact(right, _transaction.Scratch);

        Span<byte> stored = default;
        for (var s = keep; s <= count; s++)
        {
            if (s == index)
            {
                stored = TreePage.InsertLeaf(right, s - keep, key, flags, storedLength);
                continue;
            }
            var raw = TreePage.RawEntry(leaf, s < index ? s : s - 1, leaf: true);
            raw.CopyTo(TreePage.InsertRaw(right, s - keep, raw.Length));
        }
        var leftOld = index < keep ? keep - 1 : keep;
        while (TreePage.Count(leaf) > leftOld)
            TreePage.Remove(leaf, TreePage.Count(leaf) - 1);
        if (index < keep)
            stored = InsertAfterShift(leaf, index, key, flags, storedLength);

        ReplaceSeparator(parentPage, separatorIndex, TreePage.LeafKey(right, 0), rightPage);
        return stored;
    }

    /// <summary>Moves the sequence's first <paramref name="give"/> entries to the end of the left sibling, then fixes the leaf's separator.</summary>
    private Span<byte> ShiftLeft(long parentPage, int separatorIndex, long leafPage, long leftPage, int give, int index, ReadOnlySpan<byte> key, byte flags, int storedLength)
    {
        ForgetLastLeaf();
        var leaf = _transaction.ModifyPage(leafPage);
        var left = _transaction.ModifyPage(leftPage);
        var movedBytes = 0;
        for (var s = 0; s < give; s++)
        {
            movedBytes += s == index
                ? TreePage.LeafEntrySize(key.Length, storedLength)
                : TreePage.RawEntry(leaf, s < index ? s : s - 1, leaf: true).Length;
        }
        if (TreePage.FreeSpace(left) < movedBytes + TreePage.SlotSize * give)
            TreePage.Compact(left, _transaction.Scratch);

        Span<byte> stored = default;
        var end = TreePage.Count(left);
        for (var s = 0; s < give; s++)
        {
            if (s == index)
            {
                stored = TreePage.InsertLeaf(left, end + s, key, flags, storedLength);
                continue;
            }
            var raw = TreePage.RawEntry(leaf, s < index ? s : s - 1, leaf: true);
            raw.CopyTo(TreePage.InsertRaw(left, end + s, raw.Length));
        }
        var givenOld = index < give ? give - 1 : give;
        for (var i = 0; i < givenOld; i++)
            TreePage.Remove(leaf, 0);
        if (index >= give)
            stored = InsertAfterShift(leaf, index - give, key, flags, storedLength);

        ReplaceSeparator(parentPage, separatorIndex, TreePage.LeafKey(leaf, 0), leafPage);
        return stored;
    }

    private Span<byte> InsertAfterShift(Span<byte> leaf, int index, ReadOnlySpan<byte> key, byte flags, int storedLength)
    {
        if (TreePage.FreeSpace(leaf) < TreePage.LeafEntrySize(key.Length, storedLength) + TreePage.SlotSize)
            TreePage.Compact(leaf, _transaction.Scratch);
        return TreePage.InsertLeaf(leaf, index, key, flags, storedLength);
    }

    /// <summary>Points the parent's entry <paramref name="index"/> at <paramref name="child"/> under its new first key.</summary>
    private void ReplaceSeparator(long parentPage, int index, ReadOnlySpan<byte> separator, long child)
    {
        var parent = _transaction.ModifyPage(parentPage);
        TreePage.Remove(parent, index);
        if (TreePage.FreeSpace(parent) < TreePage.BranchEntrySize(separator.Length) + TreePage.SlotSize)
            TreePage.Compact(parent, _transaction.Scratch);
        TreePage.InsertBranch(parent, index, separator, child);
    }
}
