namespace Folio.Storage.Platform.Zstd;

/// <summary>A Zstd decompression context with its dictionary loaded; one thread at a time.</summary>
internal abstract class ZstdDecompressor : IDisposable
{
    /// <summary>Decompresses one frame into <paramref name="destination"/>; the bytes written.</summary>
    /// <exception cref="ZstdFailureException">The frame is damaged, needs another dictionary, or does not fit.</exception>
    public abstract int Decompress(ReadOnlySpan<byte> source, Span<byte> destination);

    /// <inheritdoc />
    public void Dispose()
    {
        Dispose(true);
        GC.SuppressFinalize(this);
    }

    /// <summary>Frees the context.</summary>
    protected abstract void Dispose(bool disposing);
}
