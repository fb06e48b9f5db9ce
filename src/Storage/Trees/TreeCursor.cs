using Folio.Storage.Paging;

namespace Folio.Storage.Trees;

/// <summary>
/// Walks a tree's entries in key order, forwards or backwards. A cursor is positioned by
/// <see cref="First"/>, <see cref="Last"/> or <see cref="Seek"/>; changing the tree (in a write
/// transaction) invalidates it until it is positioned again.
/// </summary>
public sealed partial class TreeCursor
{
    private const int MaxDepth = 32;
    private readonly Tree _tree;
    private readonly long[] _pages = new long[MaxDepth];
    private readonly int[] _indexes = new int[MaxDepth];
    private int _leafLevel = -1;

    internal TreeCursor(Tree tree) => _tree = tree;

    /// <summary>Whether the cursor is on an entry.</summary>
    public bool IsValid => _leafLevel >= 0;

    /// <summary>The current entry's key.</summary>
    public ReadOnlySpan<byte> Key => TreePage.LeafKey(Leaf(), _indexes[_leafLevel]);

    /// <summary>The current entry's value.</summary>
    public ReadOnlySpan<byte> Value => _tree.ReadValue(Leaf(), _indexes[_leafLevel]);

    /// <summary>Moves to the smallest key; false when the tree is empty.</summary>
    public bool First()
    {
        _tree.EnsureUsable();
        Descend(0, _tree.Header.RootPage, fromEnd: false);
        return SkipEmptyForward();
    }

    /// <summary>Moves to the largest key; false when the tree is empty.</summary>
    public bool Last()
    {
        _tree.EnsureUsable();
        Descend(0, _tree.Header.RootPage, fromEnd: true);
        return SkipEmptyBackward();
    }

    /// <summary>Moves to the first key not less than <paramref name="key"/>; false when there is none.</summary>
    public bool Seek(ReadOnlySpan<byte> key)
    {
        _tree.EnsureUsable();
        var pageNumber = _tree.Header.RootPage;
        var level = 0;
        while (true)
        {
            var page = _tree.GetPage(pageNumber);
            _pages[level] = pageNumber;
            if (PageHeader.Flags(page) == PageFlags.Leaf)
            {
                _indexes[level] = TreePage.SearchLeaf(page, key, out _);
                _leafLevel = level;
                return SkipEmptyForward();
            }
            var index = TreePage.SearchBranch(page, key);
            _indexes[level] = index;
            pageNumber = TreePage.BranchChild(page, index);
            level++;
        }
    }

    /// <summary>Moves to the last key not greater than <paramref name="key"/>; false when there is none.</summary>
    public bool SeekLastAtOrBefore(ReadOnlySpan<byte> key)
    {
        if (Seek(key))
            return Key.SequenceCompareTo(key) == 0 || MovePrevious();
        return Last();
    }

    /// <summary>
    /// The key of the entry after the current one when it is on the same leaf, read without moving; false on a leaf's
    /// last entry (or off any entry), where finding it takes a move.
    /// </summary>
    public bool TryPeekNextInLeaf(out ReadOnlySpan<byte> key)
    {
        key = default;
        if (!IsValid)
            return false;
        var leaf = Leaf();
        var next = _indexes[_leafLevel] + 1;
        if (next >= TreePage.Count(leaf))
            return false;
        key = TreePage.LeafKey(leaf, next);
        return true;
    }

    /// <summary>Moves to the next entry; false (and invalid) past the last one.</summary>
    public bool MoveNext()
    {
        if (!IsValid)
            return false;
        _tree.EnsureUsable();
        _indexes[_leafLevel]++;
        return SkipEmptyForward();
    }

    /// <summary>Moves to the previous entry; false (and invalid) before the first one.</summary>
    public bool MovePrevious()
    {
        if (!IsValid)
            return false;
        _tree.EnsureUsable();
        _indexes[_leafLevel]--;
        return SkipEmptyBackward();
    }

    private ReadOnlySpan<byte> Leaf()
    {
        if (!IsValid)
            throw new InvalidOperationException("The cursor is not on an entry.");
        _tree.EnsureUsable();
        return _tree.GetPage(_pages[_leafLevel]);
    }

    private void Descend(int level, long pageNumber, bool fromEnd)
    {
        while (true)
        {
            var page = _tree.GetPage(pageNumber);
            _pages[level] = pageNumber;
            var count = TreePage.Count(page);
            if (PageHeader.Flags(page) == PageFlags.Leaf)
            {
                _indexes[level] = fromEnd ? count - 1 : 0;
                _leafLevel = level;
                return;
            }
            var index = fromEnd ? count - 1 : 0;
            _indexes[level] = index;
            pageNumber = TreePage.BranchChild(page, index);
            level++;
        }
    }

    /// <summary>Past the end of a leaf, climbs to the next subtree and descends to its first entry.</summary>
    private bool SkipEmptyForward()
    {
        while (true)
        {
            var leaf = _tree.GetPage(_pages[_leafLevel]);
            if (_indexes[_leafLevel] < TreePage.Count(leaf))
                return true;
            var level = _leafLevel - 1;
            while (level >= 0 && _indexes[level] + 1 >= TreePage.Count(_tree.GetPage(_pages[level])))
                level--;
            if (level < 0)
            {
                _leafLevel = -1;
                return false;
            }
            _indexes[level]++;
            Descend(level + 1, TreePage.BranchChild(_tree.GetPage(_pages[level]), _indexes[level]), fromEnd: false);
        }
    }

    private bool SkipEmptyBackward()
    {
        while (true)
        {
            if (_indexes[_leafLevel] >= 0)
                return true;
            var level = _leafLevel - 1;
            while (level >= 0 && _indexes[level] == 0)
                level--;
            if (level < 0)
            {
                _leafLevel = -1;
                return false;
            }
            _indexes[level]--;
            Descend(level + 1, TreePage.BranchChild(_tree.GetPage(_pages[level]), _indexes[level]), fromEnd: true);
        }
    }
}
