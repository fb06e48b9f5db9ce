using System.Buffers;

namespace Folio.Storage.Documents.Compression;

/// <summary>
/// Where compressed bodies are decompressed to. A reusable buffer (a cursor's) hands out the same memory for
/// each document, so a document read through it lives until the next one; an arena (a reader's loads by id)
/// never hands out the same bytes twice, so its documents live until the reader is disposed. Both rent their
/// memory from the shared pool and give it back on <see cref="Dispose"/>; an arena past its cap allocates
/// instead, so a reader that loads a great many documents holds no more pooled memory than the cap.
/// </summary>
internal sealed class BodyBuffer(bool reusable) : IDisposable
{
    private const int ChunkBytes = 64 * 1024;
    private const long ArenaPooledCap = 16L << 20;

    private byte[]? _current;

    /// <summary>Whether the buffer hands out the same memory for each document (a cursor's) rather than new memory (an arena).</summary>
    public bool Reusable => reusable;

    private int _used;
    private List<byte[]>? _full;
    private long _pooled;

    /// <summary>The position (a cursor's move count) whose body the reusable buffer holds, or -1.</summary>
    public long Tag { get; set; } = -1;

    /// <summary>The length of the body a reusable buffer holds for <see cref="Tag"/>.</summary>
    public int TaggedLength { get; set; }

    /// <summary>The body a reusable buffer holds for <see cref="Tag"/>.</summary>
    public ReadOnlySpan<byte> Tagged => _current.AsSpan(0, TaggedLength);

    /// <summary>Room for a body of <paramref name="length"/> bytes.</summary>
    public Span<byte> Take(int length)
    {
        if (reusable)
        {
            if (_current is null || _current.Length < length)
            {
                if (_current is not null)
                    ArrayPool<byte>.Shared.Return(_current);
                _current = ArrayPool<byte>.Shared.Rent(length);
            }
            Tag = -1;
            return _current.AsSpan(0, length);
        }

        if (_current is not null && _current.Length - _used >= length)
        {
            var room = _current.AsSpan(_used, length);
            _used += length;
            return room;
        }
        if (_pooled + Math.Max(length, ChunkBytes) > ArenaPooledCap)
            return GC.AllocateUninitializedArray<byte>(length);
        if (_current is not null)
            (_full ??= []).Add(_current);
        _current = ArrayPool<byte>.Shared.Rent(Math.Max(length, ChunkBytes));
        _pooled += _current.Length;
        _used = length;
        return _current.AsSpan(0, length);
    }

    public void Dispose()
    {
        if (_current is not null)
            ArrayPool<byte>.Shared.Return(_current);
        _current = null;
        if (_full is not null)
        {
            foreach (var chunk in _full)
                ArrayPool<byte>.Shared.Return(chunk);
            _full.Clear();
        }
        _used = 0;
        _pooled = 0;
        Tag = -1;
    }
}
