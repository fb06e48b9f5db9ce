namespace Folio.Storage.Platform.Zstd;

/// <summary>
/// The Zstd implementation documents are compressed with: the system's libzstd when it loads (precompiled, so fast
/// from the first body), otherwise ZstdSharp (managed, which the runtime first runs unoptimized: on two busy cores
/// that phase made bulk insert with compression a quarter slower, docs/benchmarks.md). Both write and read the same
/// frame format, so a database written with one is read by the other.
/// </summary>
internal abstract class ZstdLibrary
{
    /// <summary>Set to <c>managed</c> to skip the system library, or <c>native</c> to require it.</summary>
    public const string ChoiceVariable = "FOLIO_ZSTD";

    private static readonly Lazy<ZstdLibrary> Chosen = new(Choose);

    /// <summary>The implementation this process uses.</summary>
    public static ZstdLibrary Default => Chosen.Value;

    /// <summary>What it is, for logs and stats (for example <c>libzstd 1.5.4</c>).</summary>
    public abstract string Description { get; }

    /// <summary>
    /// A compressor at <paramref name="level"/> that writes frames without the magic number, content size, checksum
    /// or dictionary id (the record keeps what it needs; a small document's frame is a hundred bytes or so, and those
    /// fields took up to ten of them).
    /// </summary>
    public abstract ZstdCompressor CreateCompressor(int level, ReadOnlySpan<byte> dictionary);

    /// <summary>A decompressor for frames written with <paramref name="dictionary"/> (empty: none).</summary>
    public abstract ZstdDecompressor CreateDecompressor(ReadOnlySpan<byte> dictionary);

    /// <summary>
    /// Trains a dictionary of at most <paramref name="capacity"/> bytes in one fastCover pass with segment size
    /// <paramref name="segmentBytes"/> and dmer size <paramref name="dmerBytes"/>, its entropy tables fitted at <paramref name="level"/>.
    /// </summary>
    /// <exception cref="ZstdFailureException">Zstd could not train one (too few or too uniform samples).</exception>
    public abstract byte[] TrainFastCover(IReadOnlyList<byte[]> samples, int capacity, int level, uint segmentBytes, uint dmerBytes);

    /// <summary>The managed implementation, whatever the process chose.</summary>
    public static ZstdLibrary Managed { get; } = new ManagedZstdLibrary();

    /// <summary>The system library, or null when it cannot be loaded or is older than 1.4 (the first with the parameter API).</summary>
    public static ZstdLibrary? Native => NativeZstdLibrary.Instance;

    private static ZstdLibrary Choose()
    {
        var choice = System.Environment.GetEnvironmentVariable(ChoiceVariable);
        if (string.Equals(choice, "managed", StringComparison.OrdinalIgnoreCase))
            return Managed;
        if (Native is { } native)
            return native;
        if (string.Equals(choice, "native", StringComparison.OrdinalIgnoreCase))
            throw new InvalidOperationException($"{ChoiceVariable}=native, but no libzstd of version 1.4 or later could be loaded.");
        return Managed;
    }
}
