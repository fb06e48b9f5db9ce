using ZstdSharp;
using ZstdSharp.Unsafe;

namespace Folio.Storage.Platform.Zstd;

/// <summary>A ZstdSharp compression context.</summary>
internal sealed class ManagedZstdCompressor : ZstdCompressor
{
    private readonly Compressor _compressor;

    public ManagedZstdCompressor(int level, ReadOnlySpan<byte> dictionary)
    {
        _compressor = new Compressor(level);
        try
        {
            _compressor.SetParameter(ZSTD_cParameter.ZSTD_c_contentSizeFlag, 0);
            _compressor.SetParameter(ZSTD_cParameter.ZSTD_c_checksumFlag, 0);
            _compressor.SetParameter(ZSTD_cParameter.ZSTD_c_dictIDFlag, 0);
            _compressor.SetParameter(ZSTD_cParameter.ZSTD_c_experimentalParam2, 1);
            if (!dictionary.IsEmpty)
                _compressor.LoadDictionary(dictionary);
        }
        catch (ZstdException e)
        {
            _compressor.Dispose();
            throw new ZstdFailureException(e.Message, e);
        }
    }

    public override bool TryCompress(ReadOnlySpan<byte> source, Span<byte> destination, out int written)
    {
        try
        {
            return _compressor.TryWrap(source, destination, out written);
        }
        catch (ZstdException e)
        {
            throw new ZstdFailureException(e.Message, e);
        }
    }

    protected override void Dispose(bool disposing)
    {
        if (disposing)
            _compressor.Dispose();
    }
}
