using System.Text;
using Folio.Storage.Paging;
using Folio.Storage.Transactions;

namespace Folio.Storage;

public sealed partial class StorageEnvironment
{
    /// <summary>
    /// Makes the write transaction durable and visible: its pages go to the journal in one record and
    /// one sync, then become the newest versions in the page table, then the new state is published.
    /// A reader that began before the publication keeps seeing the state it began with.
    /// </summary>
    internal void Commit(PageTransaction transaction)
    {
        ThrowIfFailed();
        var root = transaction.RootTree;
        foreach (var (name, tree) in transaction.OpenTrees)
        {
            if (!tree.HeaderChanged)
                continue;
            var nameBytes = Encoding.UTF8.GetBytes(name);
            tree.Header.WriteTo(root.Reserve(nameBytes, Trees.TreeHeader.Size));
        }
        transaction.Root = root.Header;

        var dirty = transaction.DirtyPages;
        if (dirty.Count == 0)
            return;
        if (root.HeaderChanged || transaction.AllocationChanged)
        {
            var statePage = transaction.ModifyPage(EnvironmentState.StatePageNumber);
            EnvironmentState.Write(statePage, transaction.Root, transaction.NextPage, transaction.BitmapPages);
        }

        var transactionId = _state.TransactionId + 1;
        bool ownFile;
        try
        {
            ownFile = _journal.Append(transactionId, dirty, transaction.HeapRanges);
        }
        catch (DiskFullException)
        {
            // The journal had no room and nothing was written: this transaction is refused, the environment stays whole.
            throw;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            Fail(e);
            throw new EnvironmentFailedException($"The journal write of transaction {transactionId} failed; the environment refuses further writes.", e);
        }

        var versions = new List<PageVersion>(dirty.Count);
        long bytes = 0;
        foreach (var (pageNumber, buffer) in dirty)
        {
            versions.Add(new PageVersion(transactionId, pageNumber, buffer));
            bytes += buffer.Length;
        }
        // The page table owns the buffers from here on, so ending the transaction must not pool them.
        dirty.Clear();
        PageTable.Publish(versions);
        EnqueueForFlush(new CommittedTransaction(transactionId, versions, bytes));
        _state = new EnvironmentState
        {
            TransactionId = transactionId,
            Pages = _pages,
            Root = transaction.Root,
            NextPage = transaction.NextPage,
            BitmapPages = transaction.BitmapPages,
            FreeCounts = transaction.FreeCounts,
        };
        if (ownFile)
            RequestFlush();
    }
}
