using System.Numerics;

namespace Folio.Indexing.Postings;

/// <summary>
/// Encodes one section of a block (the 127 id gaps or the 128 frequencies) either bit-packed with
/// patched exceptions (PFOR) or as varints, whichever the plan found better.
/// </summary>
/// <remarks>
/// Section layout: a header byte. Bit 7 set: the values follow as varints and the other bits are
/// zero. Bit 7 clear: bits 0-5 are the packed width, bit 6 says an exception count byte follows;
/// then the values' low <c>width</c> bits, bit-packed; then per exception its index (a byte) and
/// the bits above the width (a varint), which the reader ORs back in. Exceptions let one large gap
/// (a burst of deletions, a rare term's sparse stretch) cost a few bytes instead of widening all
/// 127 values.
/// </remarks>
internal static class BlockCodec
{
    /// <summary>Lucene's PFOR bound: with more outliers than this a wider packing is as good.</summary>
    public const int MaxExceptions = 7;

    /// <summary>The largest section <see cref="Plan"/> can produce for <paramref name="count"/> values
    /// below 2^63: a varint section of 9-byte varints, which the plan never exceeds.</summary>
    public static int MaxLength(int count) => 1 + count * 9;

    private const int VarintFlag = 0x80;
    private const int ExceptionsFlag = 0x40;
    private const int WidthMask = 0x3F;

    /// <summary>How one section will be written, computed before writing so the exact size is known.</summary>
    public readonly record struct SectionPlan(bool IsVarint, int Width, int ExceptionCount, int Length);

    public static SectionPlan Plan(ReadOnlySpan<ulong> values, BlockEncodingPolicy policy)
    {
        Span<int> histogram = stackalloc int[65];
        foreach (var v in values)
        {
            histogram[64 - BitOperations.LeadingZeroCount(v)]++;
        }

        var maxBits = 64;
        while (maxBits > 0 && histogram[maxBits] == 0)
        {
            maxBits--;
        }

        var varintLength = 1 + histogram[0];
        for (var k = 1; k <= maxBits; k++)
        {
            varintLength += histogram[k] * ((k + 6) / 7);
        }

        var varint = new SectionPlan(true, 0, 0, varintLength);
        if (policy == BlockEncodingPolicy.VarintOnly)
        {
            return varint;
        }

        var best = new SectionPlan(false, maxBits, 0, 1 + BitPacking.PackedLength(values.Length, maxBits));
        if (policy == BlockEncodingPolicy.Auto)
        {
            for (var width = maxBits - 1; width >= 0; width--)
            {
                var exceptions = 0;
                var exceptionBytes = 0;
                for (var k = width + 1; k <= maxBits; k++)
                {
                    exceptions += histogram[k];
                    exceptionBytes += histogram[k] * (1 + (k - width + 6) / 7);
                }

                if (exceptions > MaxExceptions)
                {
                    break;
                }

                var length = 2 + BitPacking.PackedLength(values.Length, width) + exceptionBytes;
                if (length < best.Length)
                {
                    best = new SectionPlan(false, width, exceptions, length);
                }
            }
        }

        return policy == BlockEncodingPolicy.Auto && PreferVarint(varint.Length, best.Length) ? varint : best;
    }

    /// <summary>
    /// Varint only when it is smaller. Measured (tests/Benchmarks/Postings/README.md): packed
    /// blocks are 3.3x smaller on dense gaps and 1.5x on sparse ones; one-byte varints decoded
    /// dense gaps about 1.3x faster and sparse gaps decoded at the same speed either way. Bytes
    /// win because lists live in the memory map and in leaf pages, so no speed margin applies.
    /// </summary>
    private static bool PreferVarint(int varintLength, int packedLength) => varintLength < packedLength;

    public static int Write(ReadOnlySpan<ulong> values, SectionPlan plan, Span<byte> destination, int position)
    {
        if (plan.IsVarint)
        {
            destination[position++] = VarintFlag;
            foreach (var v in values)
            {
                position = Varint.Write(destination, position, v);
            }

            return position;
        }

        var width = plan.Width;
        if (plan.ExceptionCount == 0)
        {
            destination[position++] = (byte)width;
        }
        else
        {
            destination[position++] = (byte)(width | ExceptionsFlag);
            destination[position++] = (byte)plan.ExceptionCount;
        }

        var packedLength = BitPacking.PackedLength(values.Length, width);
        BitPacking.Pack(values, width, destination.Slice(position, packedLength));
        position += packedLength;
        if (plan.ExceptionCount != 0)
        {
            for (var i = 0; i < values.Length; i++)
            {
                var high = values[i] >> width;
                if (high != 0)
                {
                    destination[position++] = (byte)i;
                    position = Varint.Write(destination, position, high);
                }
            }
        }

        return position;
    }

    /// <summary>Reads a section of <paramref name="destination"/>.Length values, checking every
    /// length against <paramref name="source"/>.</summary>
    /// <returns>A value with every bit set that any decoded value has (a bound on all of them), so
    /// callers can skip per-value overflow checks when the values are small.</returns>
    public static ulong Read(ReadOnlySpan<byte> source, ref int position, Span<ulong> destination)
    {
        var pos = position;
        if ((uint)pos >= (uint)source.Length)
        {
            PostingsFormat.ThrowTruncated();
        }

        int header = source[pos++];
        if ((header & VarintFlag) != 0)
        {
            if (header != VarintFlag)
            {
                PostingsFormat.ThrowCorrupt("unknown block section header");
            }

            ulong any = 0;
            for (var i = 0; i < destination.Length; i++)
            {
                var v = Varint.Read(source, ref pos);
                any |= v;
                destination[i] = v;
            }

            position = pos;
            return any;
        }

        var width = header & WidthMask;
        var exceptions = 0;
        if ((header & ExceptionsFlag) != 0)
        {
            if (pos >= source.Length)
            {
                PostingsFormat.ThrowTruncated();
            }

            exceptions = source[pos++];
            if (exceptions == 0 || exceptions > destination.Length)
            {
                PostingsFormat.ThrowCorrupt("bad exception count in a block");
            }
        }

        var packedLength = BitPacking.PackedLength(destination.Length, width);
        if (packedLength > source.Length - pos)
        {
            PostingsFormat.ThrowTruncated();
        }

        BitPacking.Unpack(source.Slice(pos, packedLength), width, destination);
        pos += packedLength;
        var bound = width == 0 ? 0 : ulong.MaxValue >> (64 - width);
        for (var e = 0; e < exceptions; e++)
        {
            if (pos >= source.Length)
            {
                PostingsFormat.ThrowTruncated();
            }

            int index = source[pos++];
            var high = Varint.Read(source, ref pos);
            if (index >= destination.Length || 64 - BitOperations.LeadingZeroCount(high) + width > 64)
            {
                PostingsFormat.ThrowCorrupt("bad exception in a block");
            }

            destination[index] |= high << width;
            bound |= high << width;
        }

        position = pos;
        return bound;
    }
}
