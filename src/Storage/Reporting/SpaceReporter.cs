using System.Buffers.Binary;
using Folio.Storage.Paging;
using Folio.Storage.Transactions;
using Folio.Storage.Trees;

namespace Folio.Storage.Reporting;

/// <summary>Walks every tree of a snapshot and sums its pages and the bytes their entries use.</summary>
internal static class SpaceReporter
{
    public static SpaceReport Report(PageTransaction transaction, EnvironmentState state, long dataFilePages)
    {
        var trees = new List<TreeSpace> { Walk(transaction, "(root)", state.Root) };
        var cursor = transaction.RootTree.CreateCursor();
        for (var more = cursor.First(); more; more = cursor.MoveNext())
            trees.Add(Walk(transaction, System.Text.Encoding.UTF8.GetString(cursor.Key), TreeHeader.ReadFrom(cursor.Value)));
        long free = 0;
        foreach (var count in state.FreeCounts)
            free += count;
        return new SpaceReport(StorageLimits.PageSize, dataFilePages, state.NextPage, free, trees);
    }

    private static TreeSpace Walk(PageTransaction transaction, string name, in TreeHeader header)
    {
        var sums = new Sums();
        var pending = new Stack<long>();
        pending.Push(header.RootPage);
        while (pending.Count > 0)
        {
            var page = transaction.GetPage(pending.Pop());
            var count = TreePage.Count(page);
            if (PageHeader.Flags(page) == PageFlags.Leaf)
            {
                sums.Leaves++;
                sums.Entries += count;
                sums.UsedLeaf += TreePage.UsedSpace(page);
                for (var i = 0; i < count; i++)
                {
                    var flags = TreePage.LeafFlags(page, i);
                    if (flags == TreePage.HeapFlag)
                    {
                        var (run, _, size) = Tree.ReadHeapPointer(TreePage.LeafStoredValue(page, i));
                        sums.HeapRuns.Add(run);
                        sums.HeapBytes += size;
                    }
                    if (flags != TreePage.OverflowFlag)
                        continue;
                    var pointer = TreePage.LeafStoredValue(page, i);
                    var valueBytes = BinaryPrimitives.ReadInt64LittleEndian(pointer[8..]);
                    var runPages = PageHeader.OverflowPageCount(transaction.GetPage(BinaryPrimitives.ReadInt64LittleEndian(pointer)));
                    sums.OverflowBytes += valueBytes;
                    sums.Overflow += runPages;
                    if (valueBytes <= Tree.MaxHeapValueSize)
                    {
                        sums.PackablePages += runPages;
                        sums.PackableBytes += valueBytes;
                    }
                }
                continue;
            }
            sums.Branches++;
            sums.UsedBranch += TreePage.UsedSpace(page);
            for (var i = 0; i < count; i++)
                pending.Push(TreePage.BranchChild(page, i));
        }
        var heapPages = sums.HeapRuns.Count * (long)Tree.HeapRunPages;
        return new TreeSpace(name, sums.Entries, sums.Leaves, sums.Branches, sums.Overflow + heapPages, sums.UsedLeaf, sums.UsedBranch, sums.OverflowBytes + sums.HeapBytes)
        {
            HeapRunPages = heapPages,
            HeapValueBytes = sums.HeapBytes,
            PackableOverflowPages = sums.PackablePages,
            PackableOverflowBytes = sums.PackableBytes,
        };
    }

    private sealed class Sums
    {
        public long Entries;
        public long Leaves;
        public long Branches;
        public long Overflow;
        public long HeapBytes;
        public long PackablePages;
        public long PackableBytes;
        public readonly HashSet<long> HeapRuns = [];
        public long UsedLeaf;
        public long UsedBranch;
        public long OverflowBytes;
    }
}
