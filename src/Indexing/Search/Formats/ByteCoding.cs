namespace Folio.Indexing.Search;

/// <summary>Varint and length-prefixed bytes for the small records the index keeps (entries, positions, doc values).</summary>
internal static class ByteCoding
{
    public static void WriteVarint(List<byte> output, ulong value)
    {
        while (value >= 0x80)
        {
            output.Add((byte)(value | 0x80));
            value >>= 7;
        }
        output.Add((byte)value);
    }

    public static ulong ReadVarint(ReadOnlySpan<byte> input, ref int position) => Postings.Varint.Read(input, ref position);

    public static void WriteBytes(List<byte> output, ReadOnlySpan<byte> bytes)
    {
        WriteVarint(output, (ulong)bytes.Length);
        foreach (var b in bytes)
            output.Add(b);
    }

    public static ReadOnlySpan<byte> ReadBytes(ReadOnlySpan<byte> input, scoped ref int position)
    {
        var length = (int)ReadVarint(input, ref position);
        if (length < 0 || position + length > input.Length)
            throw new InvalidDataException("A byte string in an index record is truncated.");
        var bytes = input.Slice(position, length);
        position += length;
        return bytes;
    }
}
