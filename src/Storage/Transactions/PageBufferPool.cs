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
    private readonly byte[]?[] _buffers;
    private int _count;
    private int _lowWater;

    public PageBufferPool(int capacity)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(capacity);
        _buffers = new byte[]?[capacity];
    }

    public int Capacity => _buffers.Length;

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
            if (_count < _buffers.Length)
                _buffers[_count++] = buffer;
        }
    }

    public void Return(List<byte[]> buffers)
    {
        if (buffers.Count == 0)
            return;
        lock (_lock)
        {
            foreach (var buffer in buffers)
            {
                if (_count == _buffers.Length)
                    break;
                if (buffer.Length == StorageLimits.PageSize)
                    _buffers[_count++] = buffer;
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
        }
    }
}
