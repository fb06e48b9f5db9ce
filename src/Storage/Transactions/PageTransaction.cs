using Folio.Storage.Paging;
using Folio.Storage.Trees;

namespace Folio.Storage.Transactions;

/// <summary>
/// The page-level side of a transaction, shared by readers and the writer. A reader resolves a page
/// through the page table at its snapshot, else the data file. The writer works on private copies of
/// the pages it changes (page numbers never move, so a change does not ripple up to the root); at
/// commit those copies become the new versions.
/// </summary>
internal sealed partial class PageTransaction
{
    private readonly StorageEnvironment _environment;
    private readonly Dictionary<long, byte[]>? _dirty;
    private readonly List<byte[]>? _freed;
    // Value heap runs this writer allocated (journaled whole) and, for the others it changed, the byte range of their
    // values it wrote (journaled with their header and slots alone, HeapRun).
    private readonly HashSet<long>? _freshRuns;
    private readonly Dictionary<long, (int Start, int End)>? _heapRanges;
    private readonly Dictionary<string, Tree>? _openTrees;
    private EnvironmentState _state = null!;
    private int _generation;
    private bool _active;
    private byte[]? _scratch;

    public PageTransaction(StorageEnvironment environment, bool write)
    {
        _environment = environment;
        IsWrite = write;
        if (write)
        {
            _dirty = [];
            _freed = [];
            _freshRuns = [];
            _heapRanges = [];
            _openTrees = new Dictionary<string, Tree>(StringComparer.Ordinal);
        }
    }

    public bool IsWrite { get; }

    public long SnapshotId => _state.TransactionId;

    public EnvironmentState State => _state;

    public int Generation => Volatile.Read(ref _generation);

    public StorageEnvironment Environment => _environment;

    /// <summary>The root tree's header as this transaction sees (and, when writing, changes) it.</summary>
    public TreeHeader Root;

    /// <summary>
    /// A page-sized buffer for compaction and splits; one per transaction object, reused. Made on first use: only
    /// writers change trees, and every environment keeps a pooled read transaction per reader seat, a few dozen per
    /// database with its indexes, which would otherwise each hold a page of memory they never touch.
    /// </summary>
    public byte[] Scratch => _scratch ??= new byte[StorageLimits.PageSize];

    internal Dictionary<long, byte[]> DirtyPages => _dirty ?? throw new InvalidOperationException("A read transaction has no dirty pages.");

    /// <summary>
    /// For each value heap run this writer changed but did not allocate, the bytes of its values it may have written
    /// (start to end; empty when it only freed values): the rest of the values are as the committed run has them.
    /// </summary>
    internal Dictionary<long, (int Start, int End)> HeapRanges => _heapRanges ?? throw new InvalidOperationException("A read transaction writes no heap runs.");

    /// <summary>Notes that the bytes from <paramref name="start"/> to <paramref name="end"/> of heap run <paramref name="run"/> were written.</summary>
    public void MarkHeapBytes(long run, int start, int end)
    {
        if (_freshRuns!.Contains(run))
            return;
        if (_heapRanges!.TryGetValue(run, out var range) && range.End > range.Start)
        {
            if (end <= start)
                return;
            (start, end) = (Math.Min(start, range.Start), Math.Max(end, range.End));
        }
        _heapRanges[run] = (start, end);
    }

    internal Dictionary<string, Tree> OpenTrees => _openTrees ?? throw new InvalidOperationException("A read transaction does not track trees.");

    public void Begin(EnvironmentState state)
    {
        _state = state;
        Root = state.Root;
        _active = true;
        if (IsWrite)
        {
            // The flusher checks IsRunning after removing page versions: this fence makes sure it
            // either sees the writer running or the writer's lookups miss the removed versions.
            Interlocked.MemoryBarrier();
            BeginAllocation(state);
        }
    }

    /// <summary>Whether the writer is between <see cref="Begin"/> and <see cref="End"/>; read by the flusher.</summary>
    public bool IsRunning => Volatile.Read(ref _active);

    /// <summary>
    /// Ends the transaction; every handle taken from it stops working, and so do spans of its pages.
    /// A writer's remaining dirty pages (all of them after a rollback; a commit hands them to the page
    /// table first) and the pages it freed were never seen by anyone else: they go back to the pool.
    /// </summary>
    public void End()
    {
        _active = false;
        Interlocked.Increment(ref _generation);
        if (IsWrite)
        {
            var pool = _environment.PageBuffers;
            foreach (var (_, buffer) in _dirty!)
                pool.Return(buffer);
            pool.Return(_freed!);
            _dirty.Clear();
            _freed!.Clear();
            _freshRuns!.Clear();
            _heapRanges!.Clear();
            _openTrees!.Clear();
        }
    }

    public void EnsureUsable(int generation)
    {
        if (!_active || generation != Volatile.Read(ref _generation))
            throw new ObjectDisposedException("transaction", "The transaction was committed, rolled back or disposed.");
    }

    public void EnsureWritable(int generation)
    {
        EnsureUsable(generation);
        if (!IsWrite)
            throw new InvalidOperationException("This is a read transaction: open a write transaction to change data.");
    }

    /// <summary>A page (or a whole overflow run) as this transaction sees it.</summary>
    public ReadOnlySpan<byte> GetPage(long pageNumber)
    {
        if (_dirty is not null && _dirty.TryGetValue(pageNumber, out var dirty))
            return dirty;
        var source = _state.Pages;
        if (source.PageTable.TryGet(pageNumber, _state.TransactionId, out var version))
            return version;
        var page = source.Pager.Read(pageNumber, 1);
        if (PageHeader.StartsRun(page))
        {
            var count = PageHeader.OverflowPageCount(page);
            if (count > 1)
                return source.Pager.Read(pageNumber, count);
        }
        return page;
    }

    /// <summary>This transaction's own copy of a page, made on first write.</summary>
    public Span<byte> ModifyPage(long pageNumber)
    {
        var dirty = DirtyPages;
        if (dirty.TryGetValue(pageNumber, out var copy))
            return copy;
        var current = GetPage(pageNumber);
        copy = current.Length == StorageLimits.PageSize ? _environment.PageBuffers.Rent() : GC.AllocateUninitializedArray<byte>(current.Length);
        current.CopyTo(copy);
        dirty[pageNumber] = copy;
        return copy;
    }

    /// <summary>A fresh zeroed page (or run of <paramref name="count"/> pages) with its header initialized.</summary>
    public Span<byte> AllocatePage(int count, PageFlags flags, out long pageNumber)
    {
        pageNumber = AllocatePageNumbers(count);
        var buffer = count == 1 ? _environment.PageBuffers.RentZeroed() : new byte[count * StorageLimits.PageSize];
        PageHeader.Initialize(buffer, pageNumber, flags);
        DirtyPages[pageNumber] = buffer;
        if (flags == PageFlags.ValueHeap)
            _freshRuns!.Add(pageNumber);
        return buffer;
    }

    /// <summary>
    /// Frees a page (or run). Its dirty copy, if any, goes back to the pool only at <see cref="End"/>:
    /// until then spans of it may still be in use (a value read from the page being deleted).
    /// </summary>
    public void FreePage(long pageNumber, int count)
    {
        if (DirtyPages.Remove(pageNumber, out var buffer))
            _freed!.Add(buffer);
        _freshRuns!.Remove(pageNumber);
        _heapRanges!.Remove(pageNumber);
        FreePageNumbers(pageNumber, count);
    }
}
