using Folio.Storage.Platform.Zstd;

namespace Folio.Storage.Documents.Compression;

/// <summary>
/// Trains a collection's Zstd dictionary in one fastCover pass with fixed parameters, finalized at the level bodies
/// are written with. Zstd's default training searches five segment sizes and finalizes and tests each candidate at
/// level 3, compressing the samples again and again through a block compressor the writes never use, all of it managed
/// code the runtime first runs unoptimized. In two profiled bulk inserts that was 0.56 and 0.71 s of CPU a training, on
/// the two cores the writes share (docs/benchmarks.md, "Documents compression: where bulk insert's extra CPU goes").
/// </summary>
internal static class DictionaryTrainer
{
    /// <summary>
    /// The fastCover segment size: on generated orders (dictionary-cost, 2,000 samples, 64 KB) it gives bodies of
    /// 0.158× against 0.159× for Zstd's searched default, at 29 against 125 ms of CPU once compiled; smaller segments
    /// gave worse ratios (0.166× at 200, 0.200× at 50).
    /// </summary>
    public const uint SegmentBytes = 1000;

    /// <summary>The dmer size Zstd's own default training fixes.</summary>
    private const uint DmerBytes = 8;

    /// <summary>Trains a dictionary of at most <paramref name="capacity"/> bytes on <paramref name="samples"/>; throws <see cref="ZstdFailureException"/> when Zstd cannot.</summary>
    /// <param name="samples">Bodies of the collection.</param>
    /// <param name="capacity">The dictionary's cap in bytes.</param>
    /// <param name="level">The Zstd level bodies are compressed with (the entropy tables are fitted at it).</param>
    /// <param name="segmentBytes">The fastCover segment size (k).</param>
    public static byte[] Train(List<byte[]> samples, int capacity, int level, uint segmentBytes = SegmentBytes) =>
        ZstdLibrary.Default.TrainFastCover(samples, capacity, level, segmentBytes, DmerBytes);
}
