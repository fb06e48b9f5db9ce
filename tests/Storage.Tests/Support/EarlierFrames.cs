namespace Folio.Storage.Tests.Support;

/// <summary>Zstd frames as builds before documents format 3 wrote them: with the magic number, without content size, checksum or dictionary id.</summary>
internal static class EarlierFrames
{
    /// <summary>The 4 bytes every such frame starts with (0xFD2FB528, little-endian).</summary>
    public static ReadOnlySpan<byte> Magic => [0x28, 0xB5, 0x2F, 0xFD];

    /// <summary>Compresses <paramref name="body"/> at level 1 with <paramref name="dictionary"/> (empty: none).</summary>
    public static byte[] Compress(ReadOnlySpan<byte> body, ReadOnlySpan<byte> dictionary)
    {
        using var compressor = new ZstdSharp.Compressor(1);
        compressor.SetParameter(ZstdSharp.Unsafe.ZSTD_cParameter.ZSTD_c_contentSizeFlag, 0);
        compressor.SetParameter(ZstdSharp.Unsafe.ZSTD_cParameter.ZSTD_c_checksumFlag, 0);
        compressor.SetParameter(ZstdSharp.Unsafe.ZSTD_cParameter.ZSTD_c_dictIDFlag, 0);
        if (!dictionary.IsEmpty)
            compressor.LoadDictionary(dictionary);
        return compressor.Wrap(body).ToArray();
    }
}
