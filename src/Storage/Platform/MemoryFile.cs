namespace Folio.Storage.Platform;

/// <summary>A file held in memory; what an in-memory environment and the fault-injection tests write to.</summary>
internal sealed class MemoryFile : IStorageFile
{
    private readonly Lock _lock = new();
    private byte[] _data = [];
    private long _length;

    public long Length
    {
        get
        {
            lock (_lock)
                return _length;
        }
    }

    public void SetLength(long length)
    {
        lock (_lock)
        {
            EnsureCapacity(length);
            if (length < _length)
                Array.Clear(_data, (int)length, (int)(_length - length));
            _length = length;
        }
    }

    public void Write(long offset, ReadOnlySpan<byte> data)
    {
        lock (_lock)
        {
            EnsureCapacity(offset + data.Length);
            data.CopyTo(_data.AsSpan((int)offset));
            _length = Math.Max(_length, offset + data.Length);
        }
    }

    public int Read(long offset, Span<byte> buffer)
    {
        lock (_lock)
        {
            if (offset >= _length)
                return 0;
            var count = (int)Math.Min(buffer.Length, _length - offset);
            _data.AsSpan((int)offset, count).CopyTo(buffer);
            return count;
        }
    }

    public void Flush()
    {
    }

    /// <summary>A copy of the whole content, for tests that build a crashed disk image.</summary>
    public byte[] ToArray()
    {
        lock (_lock)
            return _data.AsSpan(0, (int)_length).ToArray();
    }

    public void Dispose()
    {
    }

    private void EnsureCapacity(long size)
    {
        if (size > Array.MaxLength)
            throw new IOException("An in-memory file cannot grow beyond 2 GB.");
        if (size <= _data.Length)
            return;
        var capacity = Math.Max(size, Math.Min(Array.MaxLength, Math.Max(4096L, (long)_data.Length * 2)));
        Array.Resize(ref _data, (int)capacity);
    }
}
