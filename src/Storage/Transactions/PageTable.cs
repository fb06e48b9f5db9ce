using System.Collections.Concurrent;

namespace Folio.Storage.Transactions;

/// <summary>
/// The page translation table: for every page written by a transaction that the flusher has not yet
/// applied to the data file, its versions by transaction id. A reader at snapshot T takes the newest
/// version not after T, or reads the data file when there is none. Lookups take no lock; the writer
/// and the flusher replace a page's version array under a lock of their own.
/// </summary>
internal sealed class PageTable
{
    private readonly ConcurrentDictionary<long, PageVersion[]> _versions = new();
    private readonly Lock _writeLock = new();
    private volatile int _count;

    public int Count => _count;

    public bool TryGet(long pageNumber, long snapshot, out byte[]? buffer)
    {
        // Between flushes of a read-mostly database the table is empty; skip the hash lookup then.
        // Safe: a reader's snapshot was published after its versions, and the flusher empties the
        // table only after the data file holds what it removes.
        if (_count != 0 && _versions.TryGetValue(pageNumber, out var versions))
        {
            for (var i = versions.Length - 1; i >= 0; i--)
            {
                if (versions[i].TransactionId <= snapshot)
                {
                    buffer = versions[i].Buffer;
                    return true;
                }
            }
        }
        buffer = null;
        return false;
    }

    public void Publish(List<PageVersion> pages)
    {
        lock (_writeLock)
        {
            foreach (var page in pages)
            {
                if (_versions.TryGetValue(page.PageNumber, out var existing))
                {
                    var grown = new PageVersion[existing.Length + 1];
                    existing.CopyTo(grown, 0);
                    grown[^1] = page;
                    _versions[page.PageNumber] = grown;
                }
                else
                {
                    _versions[page.PageNumber] = [page];
                }
            }
            _count = _versions.Count;
        }
    }

    /// <summary>
    /// Drops the versions of <paramref name="pages"/> that the data file now holds (all not after
    /// <paramref name="flushedUpTo"/>) and adds their buffers to <paramref name="removed"/>: readers
    /// that found them before may still be reading them.
    /// </summary>
    public void RemoveFlushed(List<PageVersion> pages, long flushedUpTo, List<byte[]> removed)
    {
        lock (_writeLock)
        {
            foreach (var page in pages)
            {
                if (!_versions.TryGetValue(page.PageNumber, out var existing))
                    continue;
                var keep = 0;
                foreach (var version in existing)
                {
                    if (version.TransactionId > flushedUpTo)
                        keep++;
                    else
                        removed.Add(version.Buffer);
                }
                if (keep == existing.Length)
                    continue;
                if (keep == 0)
                {
                    _versions.TryRemove(page.PageNumber, out _);
                    continue;
                }
                var kept = new PageVersion[keep];
                var k = 0;
                foreach (var version in existing)
                {
                    if (version.TransactionId > flushedUpTo)
                        kept[k++] = version;
                }
                _versions[page.PageNumber] = kept;
            }
            _count = _versions.Count;
        }
    }
}
