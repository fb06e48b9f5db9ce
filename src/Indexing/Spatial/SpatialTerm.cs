namespace Folio.Indexing.Spatial;

/// <summary>
/// The term a point is indexed as: its cell on a Z-order (Morton) curve, then its exact latitude and longitude, each as
/// 16 lower-case hex digits (48 ASCII characters). Terms sort by cell, and a quadtree cell at any depth is one contiguous
/// range of cells, so a shape's covering cells are term ranges any engine can walk; the exact coordinates in the term let
/// the walk test each point against the shape without reading anything else. Lower-case hex survives the case folding of
/// exact fields, and the term is the same bytes on every engine.
/// </summary>
public static class SpatialTerm
{
    /// <summary>The length of a term in characters (and UTF-8 bytes).</summary>
    public const int Length = 48;

    private const int CellDigits = 16;

    /// <summary>The term of a valid point (<see cref="GeoMath.IsValid"/>).</summary>
    public static string Encode(double lat, double lng)
    {
        Span<char> text = stackalloc char[Length];
        WriteHex(Cell(lat, lng), text[..CellDigits]);
        WriteHex((ulong)BitConverter.DoubleToInt64Bits(lat), text.Slice(CellDigits, 16));
        WriteHex((ulong)BitConverter.DoubleToInt64Bits(lng), text.Slice(CellDigits + 16, 16));
        return new string(text);
    }

    /// <summary>The text of the smallest term in <paramref name="cell"/> or after it (a prefix of 16 digits).</summary>
    public static string CellPrefix(ulong cell)
    {
        Span<char> text = stackalloc char[CellDigits];
        WriteHex(cell, text);
        return new string(text);
    }

    /// <summary>Reads a term's cell and point; false when the bytes are not a spatial term.</summary>
    public static bool TryDecode(ReadOnlySpan<byte> term, out ulong cell, out double lat, out double lng)
    {
        cell = 0;
        lat = lng = 0;
        if (term.Length != Length || !TryReadHex(term[..CellDigits], out cell)
            || !TryReadHex(term.Slice(CellDigits, 16), out var latBits) || !TryReadHex(term.Slice(CellDigits + 16, 16), out var lngBits))
        {
            return false;
        }
        lat = BitConverter.Int64BitsToDouble((long)latBits);
        lng = BitConverter.Int64BitsToDouble((long)lngBits);
        return true;
    }

    /// <summary>Reads the point of a term kept as text (a doc value); false when it is not a spatial term.</summary>
    public static bool TryDecode(string term, out double lat, out double lng)
    {
        Span<byte> bytes = stackalloc byte[Length];
        lat = lng = 0;
        if (term.Length != Length)
            return false;
        for (var i = 0; i < Length; i++)
        {
            if (term[i] > 0x7F)
                return false;
            bytes[i] = (byte)term[i];
        }
        return TryDecode(bytes, out _, out lat, out lng);
    }

    /// <summary>Reads the cell of a term; false when the bytes are too short to hold one.</summary>
    public static bool TryReadCell(ReadOnlySpan<byte> term, out ulong cell)
    {
        cell = 0;
        return term.Length >= CellDigits && TryReadHex(term[..CellDigits], out cell);
    }

    /// <summary>The Morton cell of a point: longitude and latitude quantized to 32 bits each, interleaved (latitude's bit above longitude's).</summary>
    public static ulong Cell(double lat, double lng) => Interleave(QuantizeLng(lng), QuantizeLat(lat));

    /// <summary>A longitude's 32-bit grid column (−180 is 0, +180 the last).</summary>
    public static uint QuantizeLng(double lng) => Quantize((lng + 180) / 360);

    /// <summary>A latitude's 32-bit grid row (−90 is 0, +90 the last).</summary>
    public static uint QuantizeLat(double lat) => Quantize((lat + 90) / 180);

    /// <summary>The Morton code of a column and a row.</summary>
    public static ulong Interleave(uint x, uint y) => Spread(x) | (Spread(y) << 1);

    private static uint Quantize(double fraction)
    {
        var scaled = Math.Floor(fraction * 4294967296.0);
        return scaled <= 0 ? 0 : scaled >= uint.MaxValue ? uint.MaxValue : (uint)scaled;
    }

    private static ulong Spread(uint value)
    {
        ulong v = value;
        v = (v | (v << 16)) & 0x0000FFFF0000FFFFUL;
        v = (v | (v << 8)) & 0x00FF00FF00FF00FFUL;
        v = (v | (v << 4)) & 0x0F0F0F0F0F0F0F0FUL;
        v = (v | (v << 2)) & 0x3333333333333333UL;
        v = (v | (v << 1)) & 0x5555555555555555UL;
        return v;
    }

    private static void WriteHex(ulong value, Span<char> into)
    {
        for (var i = into.Length - 1; i >= 0; i--)
        {
            var digit = (int)(value & 0xF);
            into[i] = (char)(digit < 10 ? '0' + digit : 'a' + digit - 10);
            value >>= 4;
        }
    }

    private static bool TryReadHex(ReadOnlySpan<byte> digits, out ulong value)
    {
        value = 0;
        foreach (var c in digits)
        {
            int digit;
            if (c is >= (byte)'0' and <= (byte)'9')
                digit = c - '0';
            else if (c is >= (byte)'a' and <= (byte)'f')
                digit = c - 'a' + 10;
            else
                return false;
            value = (value << 4) | (uint)digit;
        }
        return true;
    }
}
