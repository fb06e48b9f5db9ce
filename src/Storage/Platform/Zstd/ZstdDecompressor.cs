namespace Folio.Storage.Platform.Zstd;

/// <summary>A Zstd decompression context with its dictionary loaded; one thread at a time.</summary>
internal abstract class ZstdDecompressor : IDisposable
{
    private bool _magicless;

    /// <summary>
    /// Decompresses one frame into <paramref name="destination"/>; the bytes written. <paramref name="magicless"/>
    /// says the frame was written without Zstd's 4-byte magic number (<see cref="ZstdLibrary.CreateCompressor"/>).
    /// </summary>
    /// <exception cref="ZstdFailureException">The frame is damaged, needs another dictionary, or does not fit.</exception>
    public int Decompress(ReadOnlySpan<byte> source, Span<byte> destination, bool magicless)
    {
        // The format is a sticky parameter of the context; bodies of one kind follow each other, so it rarely changes.
        if (magicless != _magicless)
        {
            SetMagicless(magicless);
            _magicless = magicless;
        }
        return Decompress(source, destination);
    }

    /// <summary>Decompresses one frame of the format last set.</summary>
    protected abstract int Decompress(ReadOnlySpan<byte> source, Span<byte> destination);

    /// <summary>Sets whether the following frames lack the magic number (ZSTD_d_format).</summary>
    protected abstract void SetMagicless(bool magicless);

    /// <inheritdoc />
    public void Dispose()
    {
        Dispose(true);
        GC.SuppressFinalize(this);
    }

    /// <summary>Frees the context.</summary>
    protected abstract void Dispose(bool disposing);
}
