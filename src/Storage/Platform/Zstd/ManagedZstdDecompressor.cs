using ZstdSharp;
using ZstdSharp.Unsafe;

namespace Folio.Storage.Platform.Zstd;

/// <summary>A ZstdSharp decompression context.</summary>
internal sealed class ManagedZstdDecompressor : ZstdDecompressor
{
    private readonly Decompressor _decompressor;

    public ManagedZstdDecompressor(ReadOnlySpan<byte> dictionary)
    {
        _decompressor = new Decompressor();
        try
        {
            if (!dictionary.IsEmpty)
                _decompressor.LoadDictionary(dictionary);
        }
        catch (ZstdException e)
        {
            _decompressor.Dispose();
            throw new ZstdFailureException(e.Message, e);
        }
    }

    protected override int Decompress(ReadOnlySpan<byte> source, Span<byte> destination)
    {
        try
        {
            return _decompressor.Unwrap(source, destination);
        }
        catch (ZstdException e)
        {
            throw new ZstdFailureException(e.Message, e);
        }
    }

    protected override void SetMagicless(bool magicless)
    {
        try
        {
            _decompressor.SetParameter(ZSTD_dParameter.ZSTD_d_experimentalParam1, magicless ? 1 : 0);
        }
        catch (ZstdException e)
        {
            throw new ZstdFailureException(e.Message, e);
        }
    }

    protected override void Dispose(bool disposing)
    {
        if (disposing)
            _decompressor.Dispose();
    }
}
