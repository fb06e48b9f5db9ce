namespace Folio.Storage.Platform.Zstd;

/// <summary>A libzstd decompression context (ZSTD_DCtx), freed on dispose or, if forgotten, by the finalizer.</summary>
internal sealed unsafe class NativeZstdDecompressor : ZstdDecompressor
{
    private readonly NativeZstdLibrary _library;
    private nint _context;

    public NativeZstdDecompressor(NativeZstdLibrary library)
    {
        _library = library;
        _context = library.CreateDCtx();
        if (_context == 0)
            throw new OutOfMemoryException("libzstd could not allocate a decompression context.");
    }

    ~NativeZstdDecompressor() => Dispose(false);

    /// <summary>Loads a dictionary (copied by libzstd) that every following frame is read with.</summary>
    public void LoadDictionary(ReadOnlySpan<byte> dictionary)
    {
        fixed (byte* bytes = dictionary)
            _library.Check(_library.LoadDDictionary(_context, bytes, (nuint)dictionary.Length));
    }

    protected override int Decompress(ReadOnlySpan<byte> source, Span<byte> destination)
    {
        ObjectDisposedException.ThrowIf(_context == 0, this);
        nuint result;
        fixed (byte* from = source)
        fixed (byte* to = destination)
            result = _library.DecompressDCtx(_context, to, (nuint)destination.Length, from, (nuint)source.Length);
        return (int)_library.Check(result);
    }

    protected override void SetMagicless(bool magicless)
    {
        ObjectDisposedException.ThrowIf(_context == 0, this);
        _library.Check(_library.SetDParameter(_context, NativeZstdLibrary.FormatParameter, magicless ? 1 : 0));
    }

    protected override void Dispose(bool disposing)
    {
        var context = Interlocked.Exchange(ref _context, 0);
        if (context != 0)
            _library.FreeDCtx(context);
    }
}
