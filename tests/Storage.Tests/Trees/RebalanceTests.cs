using System.Buffers.Binary;
using Folio.Storage.Trees;

namespace Folio.Storage.Tests.Trees;

public class RebalanceTests
{
    /// <summary>A 1000-byte key in order of <paramref name="number"/>: eight fit a leaf, nine children a branch.</summary>
    private static byte[] LongKey(int number)
    {
        var key = new byte[1000];
        BinaryPrimitives.WriteInt32BigEndian(key, number);
        return key;
    }

    private static List<long> Children(Tree tree, long branch)
    {
        var page = tree.GetPage(branch);
        return Enumerable.Range(0, TreePage.Count(page)).Select(i => TreePage.BranchChild(tree.GetPage(branch), i)).ToList();
    }

    private static List<byte[]> LeafKeys(Tree tree, long leaf) =>
        Enumerable.Range(0, TreePage.Count(tree.GetPage(leaf))).Select(i => TreePage.LeafKey(tree.GetPage(leaf), i).ToArray()).ToList();

    // Found by the model-based test (seed 1011): a branch too small to keep, whose sibling was too full
    // to merge with, kept a single child; emptying that child left an empty leaf in the tree.
    [Fact]
    public void Delete_EmptyingTheOnlyChildOfABranch_LeavesNoEmptyLeaf()
    {
        using var env = StorageEnvironment.Open(StorageOptions.InMemory());
        using var tx = env.BeginWrite();
        var tree = tx.CreateTree("t");
        const int count = 8 * 9 * 3 + 8;
        for (var i = 0; i < count; i++)
            tree.Put(LongKey(i), []);
        Assert.Equal(3, tree.Header.Depth);

        // Empty every leaf of the second branch but its last: the branch ends with one child, and
        // cannot merge with its full right sibling.
        var branch = Children(tree, tree.Header.RootPage)[1];
        var deleted = 0;
        while (Children(tree, branch).Count > 1)
        {
            foreach (var key in LeafKeys(tree, Children(tree, branch)[0]))
                Assert.True(tree.Delete(key));
            deleted += 8;
        }
        Assert.Equal(branch, Children(tree, tree.Header.RootPage)[1]);

        var onlyChild = Children(tree, branch)[0];
        foreach (var key in LeafKeys(tree, onlyChild))
            Assert.True(tree.Delete(key));
        deleted += 8;
        tx.Commit();

        env.Verify();
        using var read = env.BeginRead();
        Assert.Equal(count - deleted, read.OpenTree("t")!.Count);
    }
}
