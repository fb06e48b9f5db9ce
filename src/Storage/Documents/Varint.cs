namespace Folio.Storage.Documents;

/// <summary>
/// LEB128 numbers (seven bits a byte, low groups first, the high bit set on all bytes but the last), as the collection
/// etag index writes its collection numbers and its entries. No varint is a prefix of another, so keys that start with
/// one sort each number's range apart.
/// </summary>
internal static class Varint
{
    /// <summary>Writes <paramref name="value"/> at <paramref name="offset"/>; returns the offset after it.</summary>
    public static int Write(Span<byte> destination, int offset, ulong value)
    {
        while (value >= 0x80)
        {
            destination[offset++] = (byte)(value | 0x80);
            value >>= 7;
        }
        destination[offset++] = (byte)value;
        return offset;
    }

    /// <summary>The bytes <see cref="Write"/> takes for <paramref name="value"/>.</summary>
    public static int Length(ulong value) => (70 - System.Numerics.BitOperations.LeadingZeroCount(value | 1)) / 7;

    /// <summary>Reads the number at <paramref name="offset"/> and moves past it; false when the bytes end inside it or it passes 64 bits.</summary>
    public static bool TryRead(ReadOnlySpan<byte> source, ref int offset, out ulong value)
    {
        value = 0;
        for (int at = offset, shift = 0; at < source.Length && shift < 64; at++, shift += 7)
        {
            var b = source[at];
            value |= (ulong)(b & 0x7F) << shift;
            if (b < 0x80)
            {
                offset = at + 1;
                return true;
            }
        }
        return false;
    }
}
