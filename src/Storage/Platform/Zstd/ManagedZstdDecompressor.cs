using ZstdSharp;

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

    public override int Decompress(ReadOnlySpan<byte> source, Span<byte> destination)
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

    protected override void Dispose(bool disposing)
    {
        if (disposing)
            _decompressor.Dispose();
    }
}
