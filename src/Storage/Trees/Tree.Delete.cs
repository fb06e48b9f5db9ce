namespace Folio.Storage.Trees;

public sealed partial class Tree
{
    /// <summary>Removes <paramref name="key"/>; returns whether it was there.</summary>
    public bool Delete(ReadOnlySpan<byte> key)
    {
        EnsureWritable();
        if (key.Length == 0 || key.Length > StorageLimits.MaxKeySize)
            return false;
        _transaction.Environment.ChangeLog?.Record(Name, key);
        var leafPage = FindLeaf(key, out var depth);
        var index = TreePage.SearchLeaf(_transaction.GetPage(leafPage), key, out var found);
        if (!found)
            return false;

        var leaf = _transaction.ModifyPage(leafPage);
        FreeOutOfLine(TreePage.LeafFlags(leaf, index), TreePage.LeafStoredValue(leaf, index));
        TreePage.Remove(leaf, index);
        Header.EntryCount--;
        MarkChanged();
        Rebalance(depth, leafPage);
        return true;
    }

    /// <summary>
    /// Merges an underfull page into a sibling when their entries fit in one page, and walks up while
    /// parents become underfull; a root branch left with one child hands the root to that child.
    /// Pages that do not fit together stay as they are: fill is bounded below by the merge, not kept even.
    /// An empty page leaves its parent without a merge: a branch that kept one child (its sibling
    /// too full to merge with) has no sibling to offer that child.
    /// </summary>
    private void Rebalance(int level, long pageNumber)
    {
        while (true)
        {
            var page = _transaction.GetPage(pageNumber);
            var leaf = TreePage.IsLeaf(page);
            if (level == 0)
            {
                if (leaf || TreePage.Count(page) != 1)
                    return;
                var onlyChild = TreePage.BranchChild(page, 0);
                ForgetLastLeaf();
                _transaction.FreePage(pageNumber, 1);
                Header.BranchPages--;
                Header.RootPage = onlyChild;
                Header.Depth--;
                pageNumber = onlyChild;
                continue;
            }
            if (TreePage.Count(page) > 0 && TreePage.UsedSpace(page) >= TreePage.Capacity / 4)
                return;

            var parentPage = _pathPages![level - 1];
            var childIndex = _pathIndexes![level - 1];
            if (TreePage.Count(page) == 0)
            {
                RemoveEmptyChild(parentPage, childIndex, pageNumber, leaf);
                level--;
                pageNumber = parentPage;
                continue;
            }
            var parent = _transaction.GetPage(parentPage);
            var parentCount = TreePage.Count(parent);
            if (parentCount < 2)
                return;
            var leftIndex = childIndex + 1 < parentCount ? childIndex : childIndex - 1;
            var rightIndex = leftIndex + 1;
            var leftPage = TreePage.BranchChild(parent, leftIndex);
            var rightPage = TreePage.BranchChild(parent, rightIndex);
            var right = _transaction.GetPage(rightPage);
            var separatorLength = leaf ? 0 : TreePage.BranchKey(parent, rightIndex).Length;
            if (TreePage.UsedSpace(_transaction.GetPage(leftPage)) + TreePage.UsedSpace(right) + separatorLength > TreePage.Capacity)
                return;

            ForgetLastLeaf();
            var separator = leaf ? [] : TreePage.BranchKey(parent, rightIndex).ToArray();
            var left = _transaction.ModifyPage(leftPage);
            right = _transaction.GetPage(rightPage);
            if (TreePage.FreeSpace(left) < TreePage.UsedSpace(right) + separatorLength)
                TreePage.Compact(left, _transaction.Scratch);
            var leftCount = TreePage.Count(left);
            var rightCount = TreePage.Count(right);
            for (var i = 0; i < rightCount; i++)
            {
                if (!leaf && i == 0)
                {
                    TreePage.InsertBranch(left, leftCount, separator, TreePage.BranchChild(right, 0));
                    continue;
                }
                var raw = TreePage.RawEntry(right, i, leaf);
                raw.CopyTo(TreePage.InsertRaw(left, leftCount + i, raw.Length));
            }
            _transaction.FreePage(rightPage, 1);
            if (leaf)
                Header.LeafPages--;
            else
                Header.BranchPages--;
            TreePage.Remove(_transaction.ModifyPage(parentPage), rightIndex);

            level--;
            pageNumber = parentPage;
        }
    }

    private void RemoveEmptyChild(long parentPage, int index, long child, bool leaf)
    {
        ForgetLastLeaf();
        _transaction.FreePage(child, 1);
        if (leaf)
            Header.LeafPages--;
        else
            Header.BranchPages--;
        var parent = _transaction.ModifyPage(parentPage);
        TreePage.Remove(parent, index);
        if (index > 0 || TreePage.Count(parent) == 0)
            return;
        // The new first entry now stands for everything below its key, and a first entry carries no key.
        var first = TreePage.BranchChild(parent, 0);
        TreePage.Remove(parent, 0);
        TreePage.Compact(parent, _transaction.Scratch);
        TreePage.InsertBranch(parent, 0, default, first);
    }
}
