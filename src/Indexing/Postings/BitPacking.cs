using System.Buffers.Binary;

namespace Folio.Indexing.Postings;

/// <summary>
/// Packs unsigned values of a fixed bit width into a little-endian bit stream (value i occupies
/// bits <c>i * width</c> to <c>(i + 1) * width - 1</c>) and unpacks them.
/// </summary>
/// <remarks>
/// A plain bit stream rather than Lucene's interleaved SIMD layout: a block holds 127 or 128 values
/// of up to 63 bits, and the unpack loop reads each value with one unaligned 64-bit load, which
/// measured at about 1 ns per value; the prefix sum that follows is the larger cost anyway.
/// </remarks>
internal static class BitPacking
{
    public const int MaxWidth = 63;

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

        var mask = (1UL << width) - 1;
        var count = destination.Length;
        var i = 0;
        if (width <= 56)
        {
            // A value starts at most 7 bits into its first byte, so 8 bytes always hold it whole;
            // the loop stops where fewer than 8 bytes remain and the careful path finishes.
            var lastFast = source.Length - 8;
            for (var bitPos = 0; i < count; i++, bitPos += width)
            {
                var byteIndex = bitPos >> 3;
                if (byteIndex > lastFast)
                {
                    break;
                }

                destination[i] = (BinaryPrimitives.ReadUInt64LittleEndian(source.Slice(byteIndex)) >> (bitPos & 7)) & mask;
            }
        }

        for (; i < count; i++)
        {
            destination[i] = ReadSlow(source, i * width, width, mask);
        }
    }

    private static ulong ReadSlow(ReadOnlySpan<byte> source, int bitPos, int width, ulong mask)
    {
        var byteIndex = bitPos >> 3;
        var shift = bitPos & 7;
        var v = (ulong)source[byteIndex++] >> shift;
        var got = 8 - shift;
        while (got < width)
        {
            v |= (ulong)source[byteIndex++] << got;
            got += 8;
        }

        return v & mask;
    }
}
