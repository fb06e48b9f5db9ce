using System.Buffers;
using Folio.Storage.Platform.Zstd;

namespace Folio.Storage.Documents.Compression;

/// <summary>
/// One version of a collection's Zstd dictionary (or, as version 0, none): immutable once stored, so bodies
/// compressed with it stay readable after the collection moves on to a newer one.
/// </summary>
internal sealed class CompressionDictionary : IDisposable
{
    /// <summary>Bare frames up to this size are put back together on the stack, larger ones in a rented array.</summary>
    private const int StackFrameBytes = 1024;

    private readonly byte[] _bytes;
    private readonly int _level;
    private readonly ContextPool<ZstdDecompressor> _decompressors;
    private ZstdCompressor? _compressor;

    public CompressionDictionary(int id, string collectionKey, byte[] bytes, int level)
    {
        Id = id;
        CollectionKey = collectionKey;
        _bytes = bytes;
        _level = level;
        _decompressors = new ContextPool<ZstdDecompressor>(CreateDecompressor);
    }

    /// <summary>The version bodies reference; 0 is plain Zstd without a dictionary.</summary>
    public int Id { get; }

    /// <summary>The lower-cased collection it was trained on (empty for version 0).</summary>
    public string CollectionKey { get; }

    /// <summary>The dictionary's size in bytes.</summary>
    public int Length => _bytes.Length;

    /// <summary>The dictionary itself.</summary>
    public ReadOnlySpan<byte> Bytes => _bytes;

    /// <summary>
    /// Compresses <paramref name="json"/> into <paramref name="destination"/> as a magicless frame, made bare
    /// (<see cref="BareFrame"/>) when it can be; false when it would not come out smaller than <paramref name="limit"/>
    /// bytes or does not fit <paramref name="destination"/>. Only the write transaction's thread compresses.
    /// </summary>
    public bool TryCompress(ReadOnlySpan<byte> json, Span<byte> destination, int limit, out int written, out bool bare)
    {
        bare = false;
        var compressor = _compressor ??= CreateCompressor();
        // Zstd is given the whole destination, not just the limit: with only a few bytes to spare it gives up on
        // frames that would have fit (a compaction recompressing with the same dictionary has four).
        if (!compressor.TryCompress(json, destination, out written))
            return false;
        written = BareFrame.TryStrip(destination, written, out bare);
        return written < limit;
    }

    /// <summary>
    /// Decompresses a body into <paramref name="destination"/>, which must hold at least its length; returns that
    /// length; any thread. <paramref name="magicless"/>: the frame lacks the magic number, as
    /// <see cref="TryCompress"/> writes them (earlier builds kept it). <paramref name="bare"/>: the frame is stored bare.
    /// </summary>
    public int Decompress(ReadOnlySpan<byte> compressed, Span<byte> destination, bool magicless, bool bare)
    {
        if (!bare)
            return Decompress(compressed, destination, magicless);
        var frameLength = BareFrame.FrameLength(compressed);
        byte[]? rented = null;
        var frame = frameLength <= StackFrameBytes ? stackalloc byte[frameLength] : (rented = ArrayPool<byte>.Shared.Rent(frameLength));
        try
        {
            BareFrame.Rebuild(compressed, frame);
            return Decompress(frame[..frameLength], destination, magicless: true);
        }
        finally
        {
            if (rented is not null)
                ArrayPool<byte>.Shared.Return(rented);
        }
    }

    private int Decompress(ReadOnlySpan<byte> frame, Span<byte> destination, bool magicless)
    {
        var decompressor = _decompressors.Rent();
        try
        {
            return decompressor.Decompress(frame, destination, magicless);
        }
        finally
        {
            _decompressors.Return(decompressor);
        }
    }

    public void Dispose()
    {
        _compressor?.Dispose();
        _decompressors.Dispose();
    }

    private ZstdCompressor CreateCompressor() => ZstdLibrary.Default.CreateCompressor(_level, _bytes);

    private ZstdDecompressor CreateDecompressor() => ZstdLibrary.Default.CreateDecompressor(_bytes);
}
