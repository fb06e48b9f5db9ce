namespace Folio.Storage.Platform.Zstd;

/// <summary>A Zstd compression context with its level and dictionary set; one thread at a time.</summary>
internal abstract class ZstdCompressor : IDisposable
{
    /// <summary>Compresses <paramref name="source"/> as one frame; false when it does not fit in <paramref name="destination"/>.</summary>
    /// <exception cref="ZstdFailureException">Zstd failed for another reason.</exception>
    public abstract bool TryCompress(ReadOnlySpan<byte> source, Span<byte> destination, out int written);

    /// <inheritdoc />
    public void Dispose()
    {
        Dispose(true);
        GC.SuppressFinalize(this);
    }

    /// <summary>Frees the context.</summary>
    protected abstract void Dispose(bool disposing);
}
