using System.Buffers.Binary;
using Folio.Storage.Paging;
using Folio.Storage.Transactions;

namespace Folio.Storage.Trees;

/// <summary>
/// A named B+Tree of byte keys (ordered by unsigned byte comparison) to byte values, seen through
/// one transaction. Values read from it are spans into the transaction's pages: valid until the
/// transaction ends, or, in a write transaction, until the tree is next changed.
/// </summary>
public sealed partial class Tree
{
    private const int MaxDepth = 32;

    private readonly PageTransaction _transaction;
    // The path from the root is only needed to split or merge pages, so read transactions (which open
    // a tree object per lookup, per query) do not carry the arrays.
    private readonly long[]? _pathPages;
    private readonly int[]? _pathIndexes;
    private int _generation;
    // The leaf the last descent of this write transaction reached, whose path is still in _pathPages and
    // _pathIndexes: a key between that leaf's first and last keys belongs to it, so the next operation
    // on a nearby key (a batch applying terms in key order lands on one leaf many times) skips the
    // descent. A split or merge changes paths and forgets it; -1 when there is none.
    private long _lastLeaf = -1;
    private int _lastLeafDepth;
    internal TreeHeader Header;

    internal Tree(PageTransaction transaction, string name, in TreeHeader header)
    {
        _transaction = transaction;
        Name = name;
        Header = header;
        _generation = transaction.Generation;
        if (transaction.IsWrite)
        {
            _pathPages = new long[MaxDepth];
            _pathIndexes = new int[MaxDepth];
        }
    }

    /// <summary>The tree's name ("" for the root tree that names all others).</summary>
    public string Name { get; }

    /// <summary>The number of entries.</summary>
    public long Count
    {
        get
        {
            _transaction.EnsureUsable(_generation);
            return Header.EntryCount;
        }
    }

    /// <summary>The tree's shape.</summary>
    public TreeKind Kind => Header.Kind;

    internal bool HeaderChanged { get; private set; }

    internal PageTransaction Transaction => _transaction;

    /// <summary>Points a pooled tree object (the root tree of a reused transaction) at a new transaction.</summary>
    internal void Rebind(in TreeHeader header)
    {
        Header = header;
        HeaderChanged = false;
        _generation = _transaction.Generation;
        ForgetLastLeaf();
    }

    internal void MarkChanged() => HeaderChanged = true;

    /// <summary>Drops the remembered leaf, before the tree's pages split, merge or go.</summary>
    private void ForgetLastLeaf() => _lastLeaf = -1;

    /// <summary>Whether the transaction this tree object was bound to has ended.</summary>
    internal bool IsStale => _generation != _transaction.Generation;

    /// <summary>Makes every later use of this tree object fail (the tree was deleted).</summary>
    internal void Invalidate() => _generation = -1;

    internal void EnsureUsable() => _transaction.EnsureUsable(_generation);

    internal void EnsureWritable() => _transaction.EnsureWritable(_generation);

    internal static void ValidateKey(ReadOnlySpan<byte> key)
    {
        if (key.Length == 0)
            throw new InvalidKeyException("A key must not be empty.");
        if (key.Length > StorageLimits.MaxKeySize)
            throw new InvalidKeyException($"A key of {key.Length} bytes exceeds the limit of {StorageLimits.MaxKeySize} bytes.");
    }

    /// <summary>
    /// Walks from the root to the leaf whose range holds <paramref name="key"/>, remembering the path when
    /// writing; a key within the last such leaf's keys skips the walk (see <see cref="_lastLeaf"/>).
    /// </summary>
    private long FindLeaf(ReadOnlySpan<byte> key, out int depth)
    {
        if (_lastLeaf >= 0)
        {
            var last = _transaction.GetPage(_lastLeaf);
            var count = TreePage.Count(last);
            if (count > 0 && key.SequenceCompareTo(TreePage.LeafKey(last, 0)) >= 0 && key.SequenceCompareTo(TreePage.LeafKey(last, count - 1)) <= 0)
            {
                depth = _lastLeafDepth;
                return _lastLeaf;
            }
        }
        var pageNumber = Header.RootPage;
        depth = 0;
        while (true)
        {
            var page = _transaction.GetPage(pageNumber);
            var flags = PageHeader.Flags(page);
            if (flags == PageFlags.Leaf)
            {
                if (_pathPages is not null)
                {
                    _lastLeaf = pageNumber;
                    _lastLeafDepth = depth;
                }
                return pageNumber;
            }
            if (flags != PageFlags.Branch || depth >= MaxDepth)
                throw new CorruptionException($"Tree '{Name}' reaches page {pageNumber} ({flags}) where a tree page belongs.");
            var index = TreePage.SearchBranch(page, key);
            if (_pathPages is not null)
            {
                _pathPages[depth] = pageNumber;
                _pathIndexes![depth] = index;
            }
            depth++;
            pageNumber = TreePage.BranchChild(page, index);
        }
    }

    /// <summary>The value of a leaf entry, following the overflow or heap pointer when it has one.</summary>
    internal ReadOnlySpan<byte> ReadValue(ReadOnlySpan<byte> leaf, int index)
    {
        var stored = TreePage.LeafStoredValue(leaf, index);
        var flags = TreePage.LeafFlags(leaf, index);
        if (flags == TreePage.HeapFlag)
            return ReadHeapValue(stored);
        if (flags != TreePage.OverflowFlag)
            return stored;
        var run = _transaction.GetPage(BinaryPrimitives.ReadInt64LittleEndian(stored));
        var size = BinaryPrimitives.ReadInt64LittleEndian(stored[8..]);
        return run.Slice(PageHeader.Size, (int)size);
    }

    internal ReadOnlySpan<byte> GetPage(long pageNumber) => _transaction.GetPage(pageNumber);

    /// <summary>Reads the value stored under <paramref name="key"/>.</summary>
    public bool TryGet(scoped ReadOnlySpan<byte> key, out ReadOnlySpan<byte> value) => TryGet(key, out _, out value);

    /// <summary>
    /// Reads the value stored under <paramref name="key"/> and the key as the page holds it, which (unlike a caller's
    /// buffer) lives as long as the transaction.
    /// </summary>
    public bool TryGet(scoped ReadOnlySpan<byte> key, out ReadOnlySpan<byte> storedKey, out ReadOnlySpan<byte> value)
    {
        EnsureUsable();
        if (key.Length == 0 || key.Length > StorageLimits.MaxKeySize)
        {
            storedKey = default;
            value = default;
            return false;
        }
        var leaf = _transaction.GetPage(FindLeaf(key, out _));
        var index = TreePage.SearchLeaf(leaf, key, out var found);
        storedKey = found ? TreePage.LeafKey(leaf, index) : default;
        value = found ? ReadValue(leaf, index) : default;
        return found;
    }

    /// <summary>Whether <paramref name="key"/> is present.</summary>
    public bool Contains(ReadOnlySpan<byte> key) => TryGet(key, out _);

    /// <summary>A cursor over the tree's entries in key order.</summary>
    public TreeCursor CreateCursor()
    {
        EnsureUsable();
        return new TreeCursor(this);
    }
}
