using ZstdSharp;
using ZstdSharp.Unsafe;

namespace Folio.Storage.Platform.Zstd;

/// <summary>ZstdSharp: Zstd ported to C#, for machines without a usable libzstd.</summary>
internal sealed class ManagedZstdLibrary : ZstdLibrary
{
    public override string Description => "ZstdSharp (managed)";

    public override ZstdCompressor CreateCompressor(int level, ReadOnlySpan<byte> dictionary) => new ManagedZstdCompressor(level, dictionary);

    public override ZstdDecompressor CreateDecompressor(ReadOnlySpan<byte> dictionary) => new ManagedZstdDecompressor(dictionary);

    public override byte[] TrainFastCover(IReadOnlyList<byte[]> samples, int capacity, int level, uint segmentBytes, uint dmerBytes)
    {
        try
        {
            return DictBuilder.TrainFromBufferFastCover(samples, new ZDICT_fastCover_params_t
            {
                k = segmentBytes,
                d = dmerBytes,
                zParams = new ZDICT_params_t { compressionLevel = level },
            }, capacity).ToArray();
        }
        catch (ZstdException e)
        {
            throw new ZstdFailureException(e.Message, e);
        }
    }
}
