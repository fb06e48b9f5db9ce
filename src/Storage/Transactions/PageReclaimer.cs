namespace Folio.Storage.Transactions;

/// <summary>
/// Holds the buffers of page versions the flusher removed from the page table until no transaction
/// can still be reading them, then hands them to the <see cref="PageBufferPool"/>. A transaction that
/// looked a version up before its removal keeps spans of the buffer until it ends, and nothing tells
/// which did; so each retired batch notes the transactions running when it was retired (readers by
/// their seats, the writer), and is released once every one of them has ended. Transactions that
/// begin after the removal cannot find the versions. Readers pay nothing for this: their seats and
/// generations are already published for the flusher.
/// </summary>
internal sealed class PageReclaimer
{
    private readonly Lock _lock = new();
    private readonly Queue<RetiredBatch> _batches = new();
    private int _retiredBuffers;

    /// <summary>Buffers waiting for the transactions that might read them to end.</summary>
    public int RetiredBuffers => Volatile.Read(ref _retiredBuffers);

    /// <summary>
    /// Retires <paramref name="buffers"/>, already removed from the page table, until every
    /// transaction in <paramref name="running"/> has ended. The caller captures
    /// <paramref name="running"/> after the removal and a full fence, so that a transaction it missed
    /// began late enough to see the removal.
    /// </summary>
    public void Retire(List<byte[]> buffers, List<ActiveTransaction> running)
    {
        if (buffers.Count == 0)
            return;
        lock (_lock)
        {
            _batches.Enqueue(new RetiredBatch(buffers, running));
            _retiredBuffers += buffers.Count;
        }
    }

    /// <summary>
    /// Releases to <paramref name="pool"/> the batches whose transactions have all ended, oldest
    /// first. It stops at the first batch still held: a transaction that holds an older batch was
    /// running at every later retirement too, so it holds those as well.
    /// </summary>
    public void Reclaim(PageBufferPool pool)
    {
        if (Volatile.Read(ref _retiredBuffers) == 0)
            return;
        lock (_lock)
        {
            while (_batches.TryPeek(out var batch) && batch.Released())
            {
                _batches.Dequeue();
                _retiredBuffers -= batch.Buffers.Count;
                pool.Return(batch.Buffers);
            }
        }
    }

    private sealed record RetiredBatch(List<byte[]> Buffers, List<ActiveTransaction> Running)
    {
        public bool Released()
        {
            foreach (var transaction in Running)
            {
                if (!transaction.HasEnded)
                    return false;
            }
            return true;
        }
    }
}
