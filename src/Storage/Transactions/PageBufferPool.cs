namespace Folio.Storage.Transactions;

/// <summary>
/// Single-page buffers for the writer's page copies, reused instead of allocated: a fresh 8 KB array
/// per changed page costs the GC, the zeroing and the page faults of new heap memory on every commit.
/// Buffers come back from rolled-back transactions and, through <see cref="PageReclaimer"/>, from page
/// versions the flusher applied once no transaction can still be reading them. The pool holds at most
/// its capacity; <see cref="Trim"/> lets go of what sat unused, so memory falls back after a burst.
/// </summary>
internal sealed class PageBufferPool
{
    private readonly Lock _lock = new();
    private readonly int _capacity;
    private byte[]?[] _buffers = [];
    private int _count;
    private int _lowWater;

    public PageBufferPool(int capacity)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(capacity);
        _capacity = capacity;
    }

    public int Capacity => _capacity;

    public int Count => Volatile.Read(ref _count);

    /// <summary>A page-sized buffer with undefined contents.</summary>
    public byte[] Rent()
    {
        lock (_lock)
        {
            if (_count > 0)
            {
                var buffer = _buffers[--_count]!;
                _buffers[_count] = null;
                if (_count < _lowWater)
                    _lowWater = _count;
                return buffer;
            }
        }
        return GC.AllocateUninitializedArray<byte>(StorageLimits.PageSize);
    }

    public byte[] RentZeroed()
    {
        var buffer = Rent();
        buffer.AsSpan().Clear();
        return buffer;
    }

    /// <summary>Takes back a buffer nobody uses any more; runs of several pages and buffers beyond the capacity go to the GC.</summary>
    public void Return(byte[] buffer)
    {
        if (buffer.Length != StorageLimits.PageSize)
            return;
        lock (_lock)
        {
            if (_count < _capacity)
                Slots(_count + 1)[_count++] = buffer;
        }
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
    /// Drops the buffers that stayed in the pool since the previous call (no rent reached down to
    /// them), so a pool filled by a burst empties over two calls once the writes stop.
    /// </summary>
    public void Trim()
    {
        lock (_lock)
        {
            var unused = Math.Min(_lowWater, _count);
            Array.Clear(_buffers, _count - unused, unused);
            _count -= unused;
            _lowWater = _count;
            if (_count == 0)
                _buffers = [];
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
