namespace Folio.Storage.Platform.Zstd;

/// <summary>A libzstd compression context (ZSTD_CCtx), freed on dispose or, if forgotten, by the finalizer.</summary>
internal sealed unsafe class NativeZstdCompressor : ZstdCompressor
{
    private readonly NativeZstdLibrary _library;
    private nint _context;

    public NativeZstdCompressor(NativeZstdLibrary library)
    {
        _library = library;
        _context = library.CreateCCtx();
        if (_context == 0)
            throw new OutOfMemoryException("libzstd could not allocate a compression context.");
    }

    ~NativeZstdCompressor() => Dispose(false);

    /// <summary>Sets one ZSTD_cParameter.</summary>
    public void Set(int parameter, int value) => _library.Check(_library.SetCParameter(_context, parameter, value));

    /// <summary>Loads a dictionary (copied by libzstd) that every following frame uses.</summary>
    public void LoadDictionary(ReadOnlySpan<byte> dictionary)
    {
        fixed (byte* bytes = dictionary)
            _library.Check(_library.LoadCDictionary(_context, bytes, (nuint)dictionary.Length));
    }

    public override bool TryCompress(ReadOnlySpan<byte> source, Span<byte> destination, out int written)
    {
        ObjectDisposedException.ThrowIf(_context == 0, this);
        nuint result;
        fixed (byte* from = source)
        fixed (byte* to = destination)
            result = _library.Compress2(_context, to, (nuint)destination.Length, from, (nuint)source.Length);
        if (_library.IsDestinationTooSmall(result))
        {
            written = 0;
            return false;
        }
        written = (int)_library.Check(result);
        return true;
    }

    protected override void Dispose(bool disposing)
    {
        var context = Interlocked.Exchange(ref _context, 0);
        if (context != 0)
            _library.FreeCCtx(context);
    }
}
