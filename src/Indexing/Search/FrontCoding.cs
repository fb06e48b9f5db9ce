using Folio.Indexing.Postings;

namespace Folio.Indexing.Search;

/// <summary>
/// The head of a front-coded key (<see cref="KeyStore"/>, <see cref="EntryStore"/>): how many bytes it shares
/// with the key before it and how many follow. Both fit one byte (shared in the high four bits, up to 14, the
/// rest in the low four) for neighbouring keys of ids numbered in order ("123456" after "123455" shares 5 and
/// adds 1); otherwise the byte's high bits are all ones and two varints follow. Two varints took two bytes
/// for almost every key (1M benchmark keys: 1 MB in each store).
/// </summary>
internal static class FrontCoding
{
    private const int Escape = 0xF0;
    private const int MaxPackedShared = 14;
    private const int MaxPackedSuffix = 15;

    /// <summary>The bytes <see cref="Write"/> takes.</summary>
    public static int Length(int shared, int suffix) =>
        shared <= MaxPackedShared && suffix <= MaxPackedSuffix ? 1 : 1 + Varint.Length((ulong)shared) + Varint.Length((ulong)suffix);

    public static void Write(List<byte> output, int shared, int suffix)
    {
        if (shared <= MaxPackedShared && suffix <= MaxPackedSuffix)
        {
            output.Add((byte)((shared << 4) | suffix));
            return;
        }
        output.Add(Escape);
        ByteCoding.WriteVarint(output, (ulong)shared);
        ByteCoding.WriteVarint(output, (ulong)suffix);
    }

    /// <summary>Reads a head at <paramref name="position"/>; a cut-off head or a number past <see cref="int.MaxValue"/> is corruption.</summary>
    public static void Read(ReadOnlySpan<byte> data, scoped ref int position, out int shared, out int suffix)
    {
        if (position >= data.Length)
            throw new Folio.Storage.CorruptionException($"A front-coded block of {data.Length} bytes ends before a key.");
        var head = data[position++];
        if (head < Escape)
        {
            shared = head >> 4;
            suffix = head & 0x0F;
            return;
        }
        if (head != Escape)
            throw new Folio.Storage.CorruptionException($"A front-coded key starts with byte {head}.");
        shared = ReadNumber(data, ref position);
        suffix = ReadNumber(data, ref position);
    }

    private static int ReadNumber(ReadOnlySpan<byte> data, scoped ref int position)
    {
        ulong value;
        try
        {
            value = Varint.Read(data, ref position);
        }
        catch (InvalidDataException)
        {
            throw new Folio.Storage.CorruptionException($"A front-coded block of {data.Length} bytes ends inside a number at byte {position}.");
        }
        return value > int.MaxValue ? throw new Folio.Storage.CorruptionException($"A front-coded block gives a length of {value}.") : (int)value;
    }
}
