using System.Buffers.Binary;
using System.Runtime.InteropServices;

namespace Folio.Indexing.Postings;

/// <summary>
/// Packs unsigned values of a fixed bit width into a little-endian bit stream (value i occupies
/// bits <c>i * width</c> to <c>(i + 1) * width - 1</c>) and unpacks them.
/// </summary>
/// <remarks>
/// A plain bit stream rather than Lucene's interleaved SIMD layout, because gaps here are up to 63
/// bits wide (Lucene's are 32) and one scalar layout covers every width. PostingsBenchmarks shows
/// the scalar unpack no faster than one-byte varints, so a vectorized unpack for narrow widths is
/// the next optimization (tests/Benchmarks/Postings/README.md).
/// </remarks>
internal static class BitPacking
{
    public static int PackedLength(int count, int width) => (count * width + 7) >> 3;

    public static void Pack(ReadOnlySpan<ulong> values, int width, Span<byte> destination)
    {
        if (width == 0)
        {
            return;
        }

        var mask = (1UL << width) - 1;
        ulong acc = 0;
        var accBits = 0;
        var o = 0;
        foreach (var raw in values)
        {
            var v = raw & mask;
            acc |= v << accBits;
            accBits += width;
            if (accBits >= 64)
            {
                BinaryPrimitives.WriteUInt64LittleEndian(destination.Slice(o), acc);
                o += 8;
                accBits -= 64;
                // accBits was at least 1 before adding a width of at most 63, so the shift is below 64.
                acc = accBits == 0 ? 0 : v >> (width - accBits);
            }
        }

        while (accBits > 0)
        {
            destination[o++] = (byte)acc;
            acc >>= 8;
            accBits -= 8;
        }
    }

    /// <summary>Unpacks <paramref name="destination"/>.Length values; <paramref name="source"/> must be
    /// exactly <see cref="PackedLength"/> bytes long (the caller checked it against the data).</summary>
    public static void Unpack(ReadOnlySpan<byte> source, int width, Span<ulong> destination)
    {
        if (width == 0)
        {
            destination.Clear();
            return;
        }

        // Copying the section into whole words (plus one spare, so the straddling read below never
        // needs a bounds branch) is cheaper than slicing the byte span once per value.
        Span<ulong> words = stackalloc ulong[(source.Length >> 3) + 2];
        source.CopyTo(MemoryMarshal.AsBytes(words));
        var mask = (1UL << width) - 1;
        var bitPos = 0;
        for (var i = 0; i < destination.Length; i++, bitPos += width)
        {
            var word = bitPos >> 6;
            var shift = bitPos & 63;

            // The high part comes from the next word; shifting by 1 then 63 - shift keeps a
            // zero shift from wrapping around to a 64-bit shift, which C# would treat as zero.
            destination[i] = ((words[word] >> shift) | ((words[word + 1] << 1) << (63 - shift))) & mask;
        }
    }
}
