using Folio.Storage.Journal;
using Folio.Storage.Merging;
using Folio.Storage.Paging;
using Folio.Storage.Platform;
using Folio.Storage.Transactions;
using Folio.Storage.Trees;

namespace Folio.Storage;

/// <summary>
/// A storage environment: one data file of pages holding named B+Trees, a write-ahead journal, any
/// number of concurrent read transactions and one write transaction at a time. Each reader sees the
/// state of the last commit before it began, for as long as it lives.
/// </summary>
public sealed partial class StorageEnvironment : IDisposable
{
    internal const string DataFileName = "data.folio";
    private const string NewDataFileName = DataFileName + ".new";

    private readonly IStorageFileSystem _fileSystem;
    private readonly IDisposable _directoryLock;
    private readonly ReaderTable _readers;
    private readonly SemaphoreSlim _writeLock = new(1, 1);
    private readonly PageTransaction _writer;
    private readonly JournalWriter _journal;
    private readonly Lazy<TransactionMerger> _merger;
    private volatile EnvironmentState _state;
    private volatile PageSource _pages;
    private volatile Exception? _failure;
    private readonly TaskCompletionSource _closed = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private int _writerThread;
    private int _lifecycle;

    private StorageEnvironment(StorageOptions options, IStorageFileSystem fileSystem, IDisposable directoryLock, Pager pager, bool created)
    {
        Options = options;
        _fileSystem = fileSystem;
        _directoryLock = directoryLock;
        _pages = new PageSource(pager, new PageTable());
        PageBuffers = new PageBufferPool(options.PageBufferPoolPages, options.PageBufferPoolPages > 0 ? options.SparePageBuffers ?? PageBufferPool.Spare : null);
        _readers = new ReaderTable(this);
        _writer = new PageTransaction(this, write: true);

        var firstJournal = Recover();
        _state = LoadState();
        _journal = new JournalWriter(fileSystem, options.JournalFileSize, firstJournal, options.FlushInterval, options.JournalCompression);
        _merger = new Lazy<TransactionMerger>(() => new TransactionMerger(this), LazyThreadSafetyMode.ExecutionAndPublication);
        if (created && options.UncachedWhenCreated)
            Pager.ReleaseResidentAndCachedPages();
        StartFlusher();
    }

    /// <summary>The options the environment was opened with.</summary>
    public StorageOptions Options { get; }

    /// <summary>The id of the last committed transaction (0 for a new environment).</summary>
    public long LastCommittedTransactionId => _state.TransactionId;

    /// <summary>Runs write operations from many callers together in merged transactions.</summary>
    public TransactionMerger Merger => _merger.Value;

    /// <summary>The data file new transactions read and the flusher writes (a compaction replaces it).</summary>
    internal Pager Pager => _pages.Pager;

    internal PageTable PageTable => _pages.PageTable;

    /// <summary>Reused page buffers for the writer's copies; see <see cref="PageReclaimer"/> for when flushed versions come back.</summary>
    internal PageBufferPool PageBuffers { get; }

    internal EnvironmentState State => _state;

    /// <summary>Where the environment lives, for messages.</summary>
    internal string Description => _fileSystem.Description;

    /// <summary>Opens (creating if needed, recovering if it crashed) the environment described by <paramref name="options"/>.</summary>
    public static StorageEnvironment Open(StorageOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        var fileSystem = options.CreateFileSystem();
        var directoryLock = fileSystem.AcquireLock();
        Pager? pager = null;
        try
        {
            Folio.Storage.Compaction.CompactionFileSystem.DiscardLeftovers(fileSystem);
            var created = !fileSystem.Exists(DataFileName);
            if (created)
                Create(fileSystem);
            pager = fileSystem.OpenPager(DataFileName, StorageLimits.PageSize);
            return new StorageEnvironment(options, fileSystem, directoryLock, pager, created);
        }
        catch
        {
            pager?.Dispose();
            directoryLock.Dispose();
            throw;
        }
    }

    /// <summary>
    /// Completes once the environment is closed and its files released: at <see cref="Dispose"/> when no
    /// read transaction is open, else when the last one that was open ends. Faults with the I/O error
    /// when closing a file failed (the handles are closed all the same).
    /// </summary>
    public Task Closed => _closed.Task;

    /// <summary>Opens a read transaction on the last committed state. Allocates nothing once warm.</summary>
    /// <exception cref="ObjectDisposedException">The environment is closing or closed.</exception>
    public ReadTransaction BeginRead()
    {
        ThrowIfClosing();
        var slot = _readers.Take();
        // Taking the seat is a full fence, and Dispose sets the state before it scans the seats: either
        // this check sees the close, or the close sees this seat taken and leaves the map to its reader.
        if (Volatile.Read(ref _lifecycle) != Lifecycle.Open)
        {
            slot.Release();
            throw Disposed();
        }
        EnvironmentState state;
        while (true)
        {
            // Publish, then check the state did not move: the flusher reads the state before it scans
            // the seats, so a reader that passes this check can never be missed by that scan.
            state = _state;
            slot.Publish(state.TransactionId);
            if (ReferenceEquals(state, _state))
                break;
        }
        slot.Transaction.Begin(state);
        return new ReadTransaction(slot, slot.Transaction.Generation);
    }

    /// <summary>Opens the write transaction, waiting while another one is open.</summary>
    public WriteTransaction BeginWrite()
    {
        ThrowIfClosing();
        if (Volatile.Read(ref _writerThread) == Environment.CurrentManagedThreadId)
            throw new InvalidOperationException("This thread already holds the write transaction; a second one would wait for itself forever.");
        _writeLock.Wait();
        return StartWrite();
    }

    /// <summary>Opens the write transaction, waiting asynchronously while another one is open.</summary>
    public async ValueTask<WriteTransaction> BeginWriteAsync(CancellationToken cancellationToken = default)
    {
        ThrowIfClosing();
        await _writeLock.WaitAsync(cancellationToken).ConfigureAwait(false);
        return StartWrite();
    }

    private WriteTransaction StartWrite()
    {
        try
        {
            // A writer that waited for the lock while Dispose took it and let it go finds the close here.
            ThrowIfClosing();
            ThrowIfFailed();
            Volatile.Write(ref _writerThread, Environment.CurrentManagedThreadId);
            _reclaimer.Reclaim(PageBuffers);
            _writer.Begin(_state);
            return new WriteTransaction(this, _writer);
        }
        catch
        {
            _writeLock.Release();
            throw;
        }
    }

    internal void EndWrite()
    {
        _writer.End();
        Volatile.Write(ref _writerThread, 0);
        _writeLock.Release();
    }

    /// <summary>The failed write or sync that made the environment refuse writes, or null while it accepts them.</summary>
    public Exception? Failure => _failure;

    internal void ThrowIfFailed()
    {
        if (_failure is { } failure)
            throw new EnvironmentFailedException($"The environment in {_fileSystem.Description} stopped accepting writes after a failed write or sync: {failure.Message}", failure);
    }

    internal void Fail(Exception failure) => _failure ??= failure;

    /// <summary>
    /// Checks every page invariant of the last committed state (tree structure, key order, counts,
    /// free-space accounting) and throws <see cref="CorruptionException"/> naming the first violation.
    /// </summary>
    public void Verify()
    {
        using var read = BeginRead();
        read.Verify();
    }

    /// <summary>
    /// Pages, fill and overflow of every tree in the last committed state: a walk of every branch and leaf,
    /// so it costs a read of the whole file's tree pages (for reports, not for hot paths).
    /// </summary>
    public Reporting.SpaceReport ReportSpace()
    {
        using var read = BeginRead();
        return read.ReportSpace(Pager.NumberOfPages);
    }

    /// <summary>
    /// Takes the data file's pages out of the process's resident memory, for an environment that has gone quiet: a
    /// mapped page stays resident until the file closes, so a server holding many small databases open would otherwise
    /// keep every page any of them ever read. Nothing read changes and open read transactions go on; the operating
    /// system keeps the pages cached, and the next read maps them back without a disk read. Does nothing once closing.
    /// </summary>
    public void ReleaseResidentPages() => ReleaseResidentPages(smallFileBytes: 0);

    /// <summary>
    /// <see cref="ReleaseResidentPages()"/> for a data file of at most <paramref name="smallFileBytes"/>, which also
    /// leaves the file's pages out of the operating system's cache and its mapping without read-ahead: the kernel maps
    /// every cached neighbour of a page read, up to 64 KB around it, so a small database read for one document kept
    /// 64 KB of its file resident where the read touched 16 (measured on Linux 6.18). Each first read of a page is then
    /// a disk read. A larger file is only released as <see cref="ReleaseResidentPages()"/> does.
    /// </summary>
    public void ReleaseResidentPages(long smallFileBytes)
    {
        if (Volatile.Read(ref _lifecycle) != Lifecycle.Open)
            return;
        if (Pager.NumberOfPages * (long)StorageLimits.PageSize <= smallFileBytes)
            Pager.ReleaseResidentAndCachedPages();
        else
            Pager.ReleaseResidentPages();
    }

    /// <summary>Counts and sizes, for stats endpoints and tests.</summary>
    public StorageStats GetStats() => new()
    {
        LastCommittedTransactionId = _state.TransactionId,
        LastFlushedTransactionId = Volatile.Read(ref _lastFlushed),
        DataFilePages = Pager.NumberOfPages,
        AllocatedPages = _state.NextPage,
        FreePages = SumFree(_state.FreeCounts),
        JournalFiles = _journal.FileCount,
        JournalBytesWritten = _journal.BytesWritten,
        JournalSyncs = _journal.Syncs,
        JournalCompressionAcceleration = _journal.CompressionAcceleration,
        UnflushedPageVersions = PageTable.Count,
        PooledPageBuffers = PageBuffers.Count,
        RetiredPageBuffers = _reclaimer.RetiredBuffers,
        ActiveReaders = _readers.ActiveCount(),
        Compaction = _compaction,
    };

    private static long SumFree(int[] counts)
    {
        long total = 0;
        foreach (var count in counts)
            total += count;
        return total;
    }

    /// <summary>
    /// Stops the background work and applies what the journal holds to the data file, then closes the
    /// files. Read transactions still open keep their snapshot readable: the files are released (and
    /// <see cref="Closed"/> completes) when the last of them ends, never under a reader. New reads and
    /// writes throw <see cref="ObjectDisposedException"/> from the start of the call.
    /// </summary>
    public void Dispose()
    {
        if (Interlocked.CompareExchange(ref _lifecycle, Lifecycle.Closing, Lifecycle.Open) != Lifecycle.Open)
            return;
        CancelCompaction();
        if (_merger.IsValueCreated)
            _merger.Value.Dispose();
        _writeLock.Wait();
        try
        {
            StopFlusher();
            if (_failure is null)
            {
                try
                {
                    // Applies commits up to the oldest snapshot still read; the journal keeps the rest.
                    FlushToDataFile();
                    // The data file and its header (synced) now hold every commit, so a later open needs
                    // no journal: leaving the last one would keep up to a journal's worth of disk in use.
                    if (Volatile.Read(ref _lastFlushed) == _state.TransactionId)
                    {
                        _journal.DeleteAll();
                        Pager.TrimOnDisposeTo = _state.NextPage;
                    }
                }
                catch (Exception e) when (e is IOException or StorageException)
                {
                    // The journal still holds every commit; the next open replays it.
                }
            }
        }
        finally
        {
            _writeLock.Release();
        }
        ReleaseFilesWhenUnread();
    }

    /// <summary>
    /// Closes the files the way a crash would: nothing pending is applied, the journal is left as it
    /// is. What a later open finds is exactly what a kill -9 at this moment would leave.
    /// </summary>
    internal void SimulateCrash()
    {
        if (Interlocked.CompareExchange(ref _lifecycle, Lifecycle.Closing, Lifecycle.Open) != Lifecycle.Open)
            return;
        Fail(new ObjectDisposedException(nameof(StorageEnvironment), "The environment was abandoned as if it crashed."));
        if (_merger.IsValueCreated)
            _merger.Value.Dispose();
        StopFlusher();
        ReleaseFilesWhenUnread();
    }

    /// <summary>Called by a read transaction's seat once it is free again: the last reader of a closing environment closes its files.</summary>
    internal void ReaderLeft()
    {
        if (Volatile.Read(ref _lifecycle) == Lifecycle.Unmapping)
            TryReleaseFiles();
    }

    private void ReleaseFilesWhenUnread()
    {
        // Full fence before the scan, paired with the one a seat's release takes before ReaderLeft reads
        // the state: either this scan sees the seat free, or that reader sees the state and closes.
        Interlocked.Exchange(ref _lifecycle, Lifecycle.Unmapping);
        TryReleaseFiles();
    }

    private void TryReleaseFiles()
    {
        if (_readers.AnyTaken())
            return;
        if (Interlocked.CompareExchange(ref _lifecycle, Lifecycle.Closed, Lifecycle.Unmapping) != Lifecycle.Unmapping)
            return;
        // This runs on whichever reader ended last, whose work is done and must not fail for it; and the
        // directory may be gone by now (a dropped index's is renamed and deleted), so the spare journals'
        // cleanup by path can fail while the handles still close. What failed goes to Closed.
        Exception? failure = null;
        Release(_journal, ref failure);
        Release(Pager, ref failure);
        ReleaseRetiredPagers(ref failure);
        Release(_directoryLock, ref failure);
        if (failure is null)
            _closed.TrySetResult();
        else
            _closed.TrySetException(failure);
    }

    private static void Release(IDisposable resource, ref Exception? failure)
    {
        try
        {
            resource.Dispose();
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            failure ??= e;
        }
    }

    private void ThrowIfClosing()
    {
        if (Volatile.Read(ref _lifecycle) != Lifecycle.Open)
            throw Disposed();
    }

    private ObjectDisposedException Disposed() =>
        new(nameof(StorageEnvironment), $"The storage environment in {_fileSystem.Description} is closed or closing (its database or index was deleted, replaced or shut down).");

    /// <summary>Where an environment is between open and its files released.</summary>
    private static class Lifecycle
    {
        public const int Open = 0;

        /// <summary>Refusing new transactions; background work stopping, the journal being applied.</summary>
        public const int Closing = 1;

        /// <summary>Ready to release the files once no read transaction is open.</summary>
        public const int Unmapping = 2;

        public const int Closed = 3;
    }

    /// <summary>
    /// Builds a new data file under a temporary name and renames it into place once it is complete
    /// and durable. A crash while creating it then leaves no data file, and the next open starts
    /// over, instead of a grown file without a valid header that no open could ever read.
    /// </summary>
    private static void Create(IStorageFileSystem fileSystem)
    {
        fileSystem.Delete(NewDataFileName);
        using (var pager = fileSystem.OpenPager(NewDataFileName, StorageLimits.PageSize))
            Initialize(pager);
        fileSystem.Rename(NewDataFileName, DataFileName);
        fileSystem.FlushDirectory();
    }

    private static void Initialize(Pager pager)
    {
        const long bitmapPage = 3, rootLeaf = 4;
        pager.EnsureCapacity(5);
        var page = new byte[StorageLimits.PageSize];

        var root = new TreeHeader { RootPage = rootLeaf, Depth = 1, LeafPages = 1, Kind = TreeKind.Regular };
        PageHeader.Initialize(page, EnvironmentState.StatePageNumber, PageFlags.State);
        EnvironmentState.Write(page, root, nextPage: 5, [bitmapPage]);
        pager.Write(EnvironmentState.StatePageNumber, page);

        page.AsSpan().Clear();
        PageHeader.Initialize(page, bitmapPage, PageFlags.FreeSpaceBitmap);
        pager.Write(bitmapPage, page);

        page.AsSpan().Clear();
        PageHeader.Initialize(page, rootLeaf, PageFlags.Leaf);
        pager.Write(rootLeaf, page);
        pager.Sync();

        new FileHeader(FileHeader.CurrentFormatVersion, StorageLimits.PageSize, 0, 1).WriteTo(page, 1);
        pager.Write(1, page);
        pager.Sync();
    }

    private EnvironmentState LoadState()
    {
        var (root, nextPage, bitmaps) = EnvironmentState.Read(Pager.Read(EnvironmentState.StatePageNumber, 1));
        var bootstrap = new EnvironmentState
        {
            TransactionId = _lastFlushed,
            Pages = _pages,
            Root = root,
            NextPage = nextPage,
            BitmapPages = bitmaps,
            FreeCounts = new int[bitmaps.Length],
        };
        var reader = new PageTransaction(this, write: false);
        reader.Begin(bootstrap);
        var counts = PageTransaction.CountFree(reader, bitmaps);
        reader.End();
        return new EnvironmentState
        {
            TransactionId = _lastFlushed,
            Pages = _pages,
            Root = root,
            NextPage = nextPage,
            BitmapPages = bitmaps,
            FreeCounts = counts,
        };
    }
}
