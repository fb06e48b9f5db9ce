using ZstdSharp;
using ZstdSharp.Unsafe;

namespace Folio.Storage.Documents.Compression;

/// <summary>
/// One version of a collection's Zstd dictionary (or, as version 0, none): immutable once stored, so bodies
/// compressed with it stay readable after the collection moves on to a newer one.
/// </summary>
internal sealed class CompressionDictionary : IDisposable
{
    private readonly byte[] _bytes;
    private readonly int _level;
    private readonly ContextPool<Decompressor> _decompressors;
    private Compressor? _compressor;

    public CompressionDictionary(int id, string collectionKey, byte[] bytes, int level)
    {
        Id = id;
        CollectionKey = collectionKey;
        _bytes = bytes;
        _level = level;
        _decompressors = new ContextPool<Decompressor>(CreateDecompressor);
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
    /// Compresses <paramref name="json"/> into <paramref name="destination"/>; false when it would not come out
    /// smaller than <paramref name="limit"/> bytes. Only the write transaction's thread compresses.
    /// </summary>
    public bool TryCompress(ReadOnlySpan<byte> json, Span<byte> destination, int limit, out int written)
    {
        var compressor = _compressor ??= CreateCompressor();
        if (!compressor.TryWrap(json, destination[..Math.Min(limit, destination.Length)], out written))
            return false;
        return written < limit;
    }

    /// <summary>Decompresses a body into <paramref name="destination"/>, which must hold its exact length; any thread.</summary>
    public int Decompress(ReadOnlySpan<byte> compressed, Span<byte> destination)
    {
        var decompressor = _decompressors.Rent();
        try
        {
            return decompressor.Unwrap(compressed, destination);
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

    private Compressor CreateCompressor()
    {
        var compressor = new Compressor(_level);
        // The record keeps the length and the version itself; the frame needs neither, nor a checksum (pages have theirs).
        compressor.SetParameter(ZSTD_cParameter.ZSTD_c_contentSizeFlag, 0);
        compressor.SetParameter(ZSTD_cParameter.ZSTD_c_checksumFlag, 0);
        compressor.SetParameter(ZSTD_cParameter.ZSTD_c_dictIDFlag, 0);
        if (_bytes.Length > 0)
            compressor.LoadDictionary(_bytes);
        return compressor;
    }

    private Decompressor CreateDecompressor()
    {
        var decompressor = new Decompressor();
        if (_bytes.Length > 0)
            decompressor.LoadDictionary(_bytes);
        return decompressor;
    }
}
