using K4os.Compression.LZ4;
using K4os.Compression.LZ4.Engine;

namespace Folio.Storage.Platform;

/// <summary>One independent LZ4 block, at a chosen acceleration (1 is LZ4's default effort; higher is faster and compresses less).</summary>
internal static unsafe class Lz4Block
{
    /// <summary>Compresses <paramref name="source"/> into <paramref name="target"/>; the bytes written, or 0 when it does not fit.</summary>
    public static int Compress(ReadOnlySpan<byte> source, Span<byte> target, int acceleration)
    {
        if (acceleration <= 1)
            return Math.Max(0, LZ4Codec.Encode(source, target, LZ4Level.L00_FAST));
        // K4os takes an acceleration only through its streaming context; a fresh one per block keeps each block
        // decodable on its own (a reused one would refer back to the previous record's bytes).
        using var context = new Pubternal.FastContext();
        fixed (byte* from = source)
        fixed (byte* to = target)
            return Math.Max(0, Pubternal.CompressFast(context, from, to, source.Length, target.Length, acceleration));
    }
}
