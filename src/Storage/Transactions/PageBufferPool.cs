namespace Folio.Storage.Transactions;

/// <summary>
/// Single-page buffers for the writer's page copies, reused instead of allocated: a fresh 8 KB array
/// per changed page costs the GC, the zeroing and the page faults of new heap memory on every commit.
/// Buffers come back from rolled-back transactions and, through <see cref="PageReclaimer"/>, from page
/// versions the flusher applied once no transaction can still be reading them. The pool holds at most
/// its capacity; <see cref="Trim"/> lets go of what sat unused, so memory falls back after a burst.
/// An environment's pool lets go into a spare pool shared by every environment in the process and rents from it
/// before allocating: a database written once (created, say) then quiet would otherwise leave its copies to the GC
/// while the next database allocates its own, about 60 pages (500 KB) per database with three indexes, garbage that
/// a server creating databases keeps resident until a collection comes.
/// </summary>
internal sealed class PageBufferPool
{
    private readonly Lock _lock = new();
    private readonly int _capacity;
    private readonly PageBufferPool? _spare;
    private byte[]?[] _buffers = [];
    private int _count;
    private int _lowWater;
    private bool _rented;

    /// <summary>A pool of at most <paramref name="capacity"/> buffers that rents from and lets go into <paramref name="spare"/>.</summary>
    public PageBufferPool(int capacity, PageBufferPool? spare = null)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(capacity);
        _capacity = capacity;
        _spare = spare;
    }

    /// <summary>
    /// The process's spare buffers, which environments' pools let go into and rent from. It only carries buffers
    /// from environments gone quiet to those written meanwhile: <see cref="Flushing.FlushScheduler"/> trims it every
    /// second, and as environments take from it through <c>TryRent</c>, which does not mark it rented, each trim lets
    /// go of all it holds. Its capacity (32 MB) bounds it between two trims.
    /// </summary>
    public static PageBufferPool Spare { get; } = new(4096);

    public int Capacity => _capacity;

    public int Count => Volatile.Read(ref _count);

    /// <summary>A page-sized buffer with undefined contents.</summary>
    public byte[] Rent()
    {
        lock (_lock)
        {
            _rented = true;
            if (PopLocked() is { } buffer)
                return buffer;
        }
        return _spare?.TryRent() ?? GC.AllocateUninitializedArray<byte>(StorageLimits.PageSize);
    }

    // Not marked rented: the spare pool lets go of all it holds at each trim.
    private byte[]? TryRent()
    {
        lock (_lock)
            return PopLocked();
    }

    private byte[]? PopLocked()
    {
        if (_count == 0)
            return null;
        var buffer = _buffers[--_count]!;
        _buffers[_count] = null;
        if (_count < _lowWater)
            _lowWater = _count;
        return buffer;
    }

    public byte[] RentZeroed()
    {
        var buffer = Rent();
        buffer.AsSpan().Clear();
        return buffer;
    }

    /// <summary>Takes back a buffer nobody uses any more; runs of several pages go to the GC, buffers beyond the capacity to the spare pool.</summary>
    public void Return(byte[] buffer)
    {
        if (buffer.Length != StorageLimits.PageSize)
            return;
        lock (_lock)
        {
            if (_count < _capacity)
            {
                Slots(_count + 1)[_count++] = buffer;
                return;
            }
        }
        _spare?.Return(buffer);
    }

    public void Return(List<byte[]> buffers)
    {
        if (buffers.Count == 0)
            return;
        lock (_lock)
        {
            var slots = Slots(Math.Min(_capacity, _count + buffers.Count));
            foreach (var buffer in buffers)
            {
                if (_count == slots.Length)
                    break;
                if (buffer.Length == StorageLimits.PageSize)
                    slots[_count++] = buffer;
            }
        }
    }

    /// <summary>
    /// Lets go of the buffers that stayed in the pool since the previous call (no rent reached down to
    /// them), so a pool filled by a burst empties over two calls once the writes stop; of every buffer
    /// when nothing was rented since that call, so the copies of an environment written once and then
    /// quiet leave it at the first call after they come back. Into the spare pool, else to the GC.
    /// </summary>
    public void Trim()
    {
        lock (_lock)
        {
            var unused = _rented ? Math.Min(_lowWater, _count) : _count;
            _rented = false;
            _spare?.Take(_buffers, _count - unused, unused);
            Array.Clear(_buffers, _count - unused, unused);
            _count -= unused;
            _lowWater = _count;
            if (_count == 0)
                _buffers = [];
        }
    }

    /// <summary>Takes what fits of <paramref name="count"/> buffers from <paramref name="from"/> at <paramref name="start"/>; the caller clears its slots.</summary>
    private void Take(byte[]?[] from, int start, int count)
    {
        if (count == 0)
            return;
        lock (_lock)
        {
            var slots = Slots(Math.Min(_capacity, _count + count));
            var taken = Math.Min(count, slots.Length - _count);
            Array.Copy(from, start, slots, _count, taken);
            _count += taken;
        }
    }

    /// <summary>
    /// The slots, grown to hold at least <paramref name="needed"/> (never past the capacity); under the lock. They grow
    /// as buffers come back instead of being allocated at the full capacity, and go once the pool empties: a process
    /// with thousands of environments that rarely write would otherwise hold a capacity's worth of slots for each.
    /// </summary>
    private byte[]?[] Slots(int needed)
    {
        if (needed > _buffers.Length)
        {
            var grown = new byte[]?[Math.Min(_capacity, Math.Max(needed, Math.Max(64, _buffers.Length * 2)))];
            Array.Copy(_buffers, grown, _count);
            _buffers = grown;
        }

        return _buffers;
    }
}
