namespace Folio.Indexing.Postings;

/// <summary>LEB128 (7 bits per byte, low groups first) reading and writing with bounds checks.</summary>
internal static class Varint
{
    public static int Length(ulong value) =>
        // Each byte carries 7 bits; zero still needs one byte.
        (70 - System.Numerics.BitOperations.LeadingZeroCount(value | 1)) / 7;

    public static int Write(Span<byte> destination, int position, ulong value)
    {
        while (value >= 0x80)
        {
            destination[position++] = (byte)(value | 0x80);
            value >>= 7;
        }

        destination[position++] = (byte)value;
        return position;
    }

    public static ulong Read(ReadOnlySpan<byte> source, ref int position)
    {
        var pos = position;
        if ((uint)pos >= (uint)source.Length)
        {
            PostingsFormat.ThrowTruncated();
        }

        ulong b = source[pos++];
        if (b < 0x80)
        {
            position = pos;
            return b;
        }

        var result = b & 0x7F;
        var shift = 7;
        while (true)
        {
            if ((uint)pos >= (uint)source.Length)
            {
                PostingsFormat.ThrowTruncated();
            }

            b = source[pos++];
            if (shift == 63 && b > 1)
            {
                PostingsFormat.ThrowCorrupt("a varint overflows 64 bits");
            }

            result |= (b & 0x7F) << shift;
            if (b < 0x80)
            {
                position = pos;
                return result;
            }

            // The check above ends every varint at its tenth byte, so the shift never passes 63.
            shift += 7;
        }
    }
}
