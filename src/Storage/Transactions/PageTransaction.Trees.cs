using System.Text;
using Folio.Storage.Paging;
using Folio.Storage.Trees;

namespace Folio.Storage.Transactions;

/// <summary>The named trees of a transaction: the root tree maps each name to its tree's header.</summary>
internal sealed partial class PageTransaction
{
    private Tree? _rootTree;

    public Tree RootTree
    {
        get
        {
            if (_rootTree is null)
                _rootTree = new Tree(this, "", Root);
            else if (_rootTree.IsStale)
                _rootTree.Rebind(Root);
            return _rootTree;
        }
    }

    public Tree? OpenTree(string name, TreeKind kind)
    {
        ArgumentException.ThrowIfNullOrEmpty(name);
        if (_openTrees is not null && _openTrees.TryGetValue(name, out var open))
            return Checked(open, kind);
        if (!RootTree.TryGet(Encoding.UTF8.GetBytes(name), out var stored))
            return null;
        var tree = new Tree(this, name, TreeHeader.ReadFrom(stored));
        _openTrees?.Add(name, tree);
        return Checked(tree, kind);
    }

    public Tree CreateTree(string name, TreeKind kind, int fixedValueSize)
    {
        if (OpenTree(name, kind) is { } existing)
        {
            if (existing.Header.FixedValueSize != fixedValueSize)
                throw new InvalidOperationException($"Tree '{name}' holds values of {existing.Header.FixedValueSize} bytes, not {fixedValueSize}.");
            return existing;
        }
        var nameBytes = Encoding.UTF8.GetBytes(name);
        if (nameBytes.Length > StorageLimits.MaxKeySize)
            throw new InvalidKeyException($"A tree name may take at most {StorageLimits.MaxKeySize} bytes.");
        AllocatePage(1, PageFlags.Leaf, out var rootPage);
        var header = new TreeHeader { RootPage = rootPage, Depth = 1, LeafPages = 1, Kind = kind, FixedValueSize = fixedValueSize };
        var tree = new Tree(this, name, header);
        tree.MarkChanged();
        OpenTrees.Add(name, tree);
        return tree;
    }

    public bool DeleteTree(string name)
    {
        var tree = OpenTree(name, kind: 0);
        if (tree is null)
            return false;
        _environment.ChangeLog?.RecordTreeReset(name);
        var heapRuns = new HashSet<long>();
        FreeTreePages(tree.Header.RootPage, heapRuns);
        foreach (var run in heapRuns)
            FreePage(run, Tree.HeapRunPages);
        RootTree.Delete(Encoding.UTF8.GetBytes(name));
        OpenTrees.Remove(name);
        tree.Invalidate();
        return true;
    }

    /// <summary>Frees a subtree's pages and overflow runs, and adds the value heap runs its entries use to <paramref name="heapRuns"/> (several entries share one).</summary>
    private void FreeTreePages(long pageNumber, HashSet<long> heapRuns)
    {
        var page = GetPage(pageNumber);
        var count = TreePage.Count(page);
        if (TreePage.IsLeaf(page))
        {
            for (var i = 0; i < count; i++)
            {
                var flags = TreePage.LeafFlags(page, i);
                if (flags == TreePage.HeapFlag)
                    heapRuns.Add(Tree.ReadHeapPointer(TreePage.LeafStoredValue(page, i)).Run);
                if (flags != TreePage.OverflowFlag)
                    continue;
                var runPage = System.Buffers.Binary.BinaryPrimitives.ReadInt64LittleEndian(TreePage.LeafStoredValue(page, i));
                FreePage(runPage, PageHeader.OverflowPageCount(GetPage(runPage)));
            }
        }
        else
        {
            for (var i = 0; i < count; i++)
                FreeTreePages(TreePage.BranchChild(GetPage(pageNumber), i), heapRuns);
        }
        FreePage(pageNumber, 1);
    }

    private static Tree Checked(Tree tree, TreeKind kind)
    {
        if (kind != 0 && tree.Kind != kind)
            throw new InvalidOperationException($"Tree '{tree.Name}' is a {tree.Kind} tree, not {kind}.");
        return tree;
    }
}
