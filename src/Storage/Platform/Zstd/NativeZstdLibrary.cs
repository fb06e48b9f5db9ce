using System.Runtime.InteropServices;

namespace Folio.Storage.Platform.Zstd;

/// <summary>
/// The system's libzstd, called through function pointers resolved once. Debian and Ubuntu install it with apt
/// itself; on Windows or a machine without it the process uses <see cref="ManagedZstdLibrary"/>.
/// </summary>
internal sealed unsafe class NativeZstdLibrary : ZstdLibrary
{
    /// <summary>ZSTD_c_compressionLevel, ZSTD_c_contentSizeFlag, ZSTD_c_checksumFlag, ZSTD_c_dictIDFlag and ZSTD_c_format (experimental) of zstd.h.</summary>
    private const int CompressionLevel = 100, ContentSizeFlag = 200, ChecksumFlag = 201, DictIdFlag = 202, CompressionFormat = 10;

    /// <summary>ZSTD_d_format of zstd.h (experimental; its value 1, ZSTD_f_zstd1_magicless, reads frames without the magic number).</summary>
    internal const int FormatParameter = 1000;

    /// <summary>ZSTD_error_dstSize_tooSmall of zstd_errors.h.</summary>
    private const int DestinationTooSmall = 70;

    /// <summary>ZSTD_compress2 and ZSTD_CCtx_setParameter came with 1.4.0.</summary>
    private const uint MinimumVersion = 10400;

    private static readonly string[] Names = ["libzstd.so.1", "libzstd.so", "libzstd.1.dylib", "libzstd.dylib", "libzstd.dll", "zstd.dll"];

    private static readonly Lazy<NativeZstdLibrary?> Loaded = new(Load);

    internal delegate* unmanaged<nint> CreateCCtx;
    internal delegate* unmanaged<nint, nuint> FreeCCtx;
    internal delegate* unmanaged<nint, int, int, nuint> SetCParameter;
    internal delegate* unmanaged<nint, byte*, nuint, nuint> LoadCDictionary;
    internal delegate* unmanaged<nint, byte*, nuint, byte*, nuint, nuint> Compress2;
    internal delegate* unmanaged<nint> CreateDCtx;
    internal delegate* unmanaged<nint, nuint> FreeDCtx;
    internal delegate* unmanaged<nint, byte*, nuint, nuint> LoadDDictionary;
    internal delegate* unmanaged<nint, int, int, nuint> SetDParameter;
    internal delegate* unmanaged<nint, byte*, nuint, byte*, nuint, nuint> DecompressDCtx;
    private delegate* unmanaged<nuint, uint> _isError;
    private delegate* unmanaged<nuint, int> _getErrorCode;
    private delegate* unmanaged<nuint, byte*> _getErrorName;
    private delegate* unmanaged<byte*, nuint, byte*, nuint*, uint, FastCoverParameters, nuint> _trainFastCover;
    private readonly string _description;

    private NativeZstdLibrary(uint version) =>
        _description = $"libzstd {version / 10000}.{version / 100 % 100}.{version % 100} (native)";

    /// <summary>The loaded library, or null.</summary>
    public static NativeZstdLibrary? Instance => Loaded.Value;

    public override string Description => _description;

    public override ZstdCompressor CreateCompressor(int level, ReadOnlySpan<byte> dictionary)
    {
        var compressor = new NativeZstdCompressor(this);
        try
        {
            compressor.Set(CompressionLevel, level);
            compressor.Set(ContentSizeFlag, 0);
            compressor.Set(ChecksumFlag, 0);
            compressor.Set(DictIdFlag, 0);
            compressor.Set(CompressionFormat, 1);
            if (!dictionary.IsEmpty)
                compressor.LoadDictionary(dictionary);
            return compressor;
        }
        catch
        {
            compressor.Dispose();
            throw;
        }
    }

    public override ZstdDecompressor CreateDecompressor(ReadOnlySpan<byte> dictionary)
    {
        var decompressor = new NativeZstdDecompressor(this);
        try
        {
            if (!dictionary.IsEmpty)
                decompressor.LoadDictionary(dictionary);
            return decompressor;
        }
        catch
        {
            decompressor.Dispose();
            throw;
        }
    }

    public override byte[] TrainFastCover(IReadOnlyList<byte[]> samples, int capacity, int level, uint segmentBytes, uint dmerBytes)
    {
        var total = 0;
        for (var i = 0; i < samples.Count; i++)
            total += samples[i].Length;
        var joined = new byte[total];
        var sizes = new nuint[samples.Count];
        var at = 0;
        for (var i = 0; i < samples.Count; i++)
        {
            samples[i].CopyTo(joined, at);
            at += samples[i].Length;
            sizes[i] = (nuint)samples[i].Length;
        }
        var dictionary = new byte[capacity];
        var parameters = new FastCoverParameters { SegmentBytes = segmentBytes, DmerBytes = dmerBytes, CompressionLevel = level };
        nuint result;
        fixed (byte* to = dictionary)
        fixed (byte* from = joined)
        fixed (nuint* lengths = sizes)
            result = _trainFastCover(to, (nuint)capacity, from, lengths, (uint)samples.Count, parameters);
        Check(result);
        return dictionary.AsSpan(0, (int)result).ToArray();
    }

    /// <summary>Whether a returned size is an error code whose error is "destination too small".</summary>
    internal bool IsDestinationTooSmall(nuint result) => _isError(result) != 0 && _getErrorCode(result) == DestinationTooSmall;

    /// <summary>Returns a size result, or throws Zstd's message when it is an error code.</summary>
    internal nuint Check(nuint result)
    {
        if (_isError(result) == 0)
            return result;
        throw new ZstdFailureException(Marshal.PtrToStringUTF8((nint)_getErrorName(result)) ?? $"Zstd error {_getErrorCode(result)}");
    }

    private static NativeZstdLibrary? Load()
    {
        foreach (var name in Names)
        {
            if (!NativeLibrary.TryLoad(name, typeof(NativeZstdLibrary).Assembly, DllImportSearchPath.SafeDirectories | DllImportSearchPath.System32, out var handle))
                continue;
            if (Bind(handle) is { } library)
                return library;
            NativeLibrary.Free(handle);
        }
        return null;
    }

    private static NativeZstdLibrary? Bind(nint handle)
    {
        if (!NativeLibrary.TryGetExport(handle, "ZSTD_versionNumber", out var versionExport))
            return null;
        var version = ((delegate* unmanaged<uint>)versionExport)();
        if (version < MinimumVersion)
            return null;
        var library = new NativeZstdLibrary(version);
        if (!TryGet(handle, "ZSTD_createCCtx", out var createCCtx) || !TryGet(handle, "ZSTD_freeCCtx", out var freeCCtx)
            || !TryGet(handle, "ZSTD_CCtx_setParameter", out var setParameter) || !TryGet(handle, "ZSTD_CCtx_loadDictionary", out var loadCDictionary)
            || !TryGet(handle, "ZSTD_compress2", out var compress2) || !TryGet(handle, "ZSTD_createDCtx", out var createDCtx)
            || !TryGet(handle, "ZSTD_freeDCtx", out var freeDCtx) || !TryGet(handle, "ZSTD_DCtx_loadDictionary", out var loadDDictionary)
            || !TryGet(handle, "ZSTD_decompressDCtx", out var decompress) || !TryGet(handle, "ZSTD_isError", out var isError)
            || !TryGet(handle, "ZSTD_getErrorCode", out var getErrorCode) || !TryGet(handle, "ZSTD_getErrorName", out var getErrorName)
            || !TryGet(handle, "ZDICT_trainFromBuffer_fastCover", out var train) || !TryGet(handle, "ZSTD_DCtx_setParameter", out var setDParameter))
            return null;
        library.CreateCCtx = (delegate* unmanaged<nint>)createCCtx;
        library.FreeCCtx = (delegate* unmanaged<nint, nuint>)freeCCtx;
        library.SetCParameter = (delegate* unmanaged<nint, int, int, nuint>)setParameter;
        library.LoadCDictionary = (delegate* unmanaged<nint, byte*, nuint, nuint>)loadCDictionary;
        library.Compress2 = (delegate* unmanaged<nint, byte*, nuint, byte*, nuint, nuint>)compress2;
        library.CreateDCtx = (delegate* unmanaged<nint>)createDCtx;
        library.FreeDCtx = (delegate* unmanaged<nint, nuint>)freeDCtx;
        library.LoadDDictionary = (delegate* unmanaged<nint, byte*, nuint, nuint>)loadDDictionary;
        library.DecompressDCtx = (delegate* unmanaged<nint, byte*, nuint, byte*, nuint, nuint>)decompress;
        library.SetDParameter = (delegate* unmanaged<nint, int, int, nuint>)setDParameter;
        library._isError = (delegate* unmanaged<nuint, uint>)isError;
        library._getErrorCode = (delegate* unmanaged<nuint, int>)getErrorCode;
        library._getErrorName = (delegate* unmanaged<nuint, byte*>)getErrorName;
        library._trainFastCover = (delegate* unmanaged<byte*, nuint, byte*, nuint*, uint, FastCoverParameters, nuint>)train;
        return library;
    }

    private static bool TryGet(nint handle, string name, out nint address) => NativeLibrary.TryGetExport(handle, name, out address);

    /// <summary>ZDICT_fastCover_params_t of zdict.h, field for field; zeros ask for Zstd's defaults.</summary>
    [StructLayout(LayoutKind.Sequential)]
    private struct FastCoverParameters
    {
        public uint SegmentBytes;
        public uint DmerBytes;
        public uint FrequencyLog;
        public uint Steps;
        public uint Threads;
        public double SplitPoint;
        public uint Acceleration;
        public uint ShrinkDictionary;
        public uint ShrinkMaxRegression;
        public int CompressionLevel;
        public uint NotificationLevel;
        public uint DictionaryId;
    }
}
