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
    private readonly Dictionary<string, Tree>? _openTrees;
    private EnvironmentState _state = null!;
    private int _generation;
    private bool _active;

    public PageTransaction(StorageEnvironment environment, bool write)
    {
        _environment = environment;
        IsWrite = write;
        if (write)
        {
            _dirty = [];
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

    /// <summary>A page-sized buffer for compaction and splits; one per transaction object, reused.</summary>
    public byte[] Scratch { get; } = new byte[StorageLimits.PageSize];

    internal Dictionary<long, byte[]> DirtyPages => _dirty ?? throw new InvalidOperationException("A read transaction has no dirty pages.");

    internal Dictionary<string, Tree> OpenTrees => _openTrees ?? throw new InvalidOperationException("A read transaction does not track trees.");

    public void Begin(EnvironmentState state)
    {
        _state = state;
        Root = state.Root;
        _active = true;
        if (IsWrite)
            BeginAllocation(state);
    }

    /// <summary>Ends the transaction; every handle taken from it stops working.</summary>
    public void End()
    {
        _active = false;
        Interlocked.Increment(ref _generation);
        if (IsWrite)
        {
            _dirty!.Clear();
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
        if (_environment.PageTable.TryGet(pageNumber, _state.TransactionId, out var version))
            return version;
        var page = _environment.Pager.Read(pageNumber, 1);
        if (PageHeader.Flags(page) == PageFlags.Overflow)
        {
            var count = PageHeader.OverflowPageCount(page);
            if (count > 1)
                return _environment.Pager.Read(pageNumber, count);
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
        copy = GC.AllocateUninitializedArray<byte>(current.Length);
        current.CopyTo(copy);
        dirty[pageNumber] = copy;
        return copy;
    }

    /// <summary>A fresh zeroed page (or run of <paramref name="count"/> pages) with its header initialized.</summary>
    public Span<byte> AllocatePage(int count, PageFlags flags, out long pageNumber)
    {
        pageNumber = AllocatePageNumbers(count);
        var buffer = new byte[count * StorageLimits.PageSize];
        PageHeader.Initialize(buffer, pageNumber, flags);
        DirtyPages[pageNumber] = buffer;
        return buffer;
    }

    public void FreePage(long pageNumber, int count)
    {
        DirtyPages.Remove(pageNumber);
        FreePageNumbers(pageNumber, count);
    }
}
