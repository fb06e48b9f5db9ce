using Folio.Indexing.Postings;

namespace Folio.Indexing.Search;

/// <summary>
/// The head of a front-coded key (<see cref="KeyStore"/>, <see cref="EntryStore"/>): how many bytes it shares
/// with the key before it and how many follow. Both fit one byte (shared in the high four bits, up to 14, the
/// rest in the low four) for neighbouring keys of ids numbered in order ("123456" after "123455" shares 5 and
/// adds 1); otherwise the byte's high bits are all ones and two varints follow. Two varints took two bytes
/// for almost every key (at 1M benchmark records the one byte saved 0.9 MB in the keys tree and 1.5 MB in the
/// entry blocks).
/// </summary>
internal static class FrontCoding
{
    private const int Escape = 0xF0;
    private const int MaxPackedShared = 14;
    private const int MaxPackedSuffix = 15;

    /// <summary>The bytes <see cref="Write"/> takes.</summary>
    public static int Length(int shared, int suffix) =>
        shared <= MaxPackedShared && suffix <= MaxPackedSuffix ? 1 : 1 + Varint.Length((ulong)shared) + Varint.Length((ulong)suffix);

    /// <summary>The bytes <see cref="WriteKey"/> takes for a key of <paramref name="keyLength"/> bytes sharing <paramref name="shared"/>.</summary>
    public static int KeySize(int shared, int keyLength) => Length(shared, keyLength - shared) + keyLength - shared;

    /// <summary>Writes the head of a key that shares <paramref name="shared"/> bytes with the one before and adds <paramref name="suffix"/>.</summary>
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

    /// <summary>Writes <paramref name="key"/> as its head and the bytes after the <paramref name="shared"/> it shares with the key before.</summary>
    public static void WriteKey(List<byte> output, ReadOnlySpan<byte> key, int shared)
    {
        Write(output, shared, key.Length - shared);
        output.AddRange(key[shared..]);
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
        shared = ReadLength(data, ref position);
        suffix = ReadLength(data, ref position);
    }

    /// <summary>
    /// Reads the key at <paramref name="position"/> into <paramref name="key"/>, which holds the key before it
    /// (<paramref name="keyLength"/> bytes, then the key's); an empty <paramref name="key"/> only follows the lengths.
    /// A key that shares more than the one before has, has no bytes, is longer than an entry key may be, or runs
    /// past the block is corruption.
    /// </summary>
    public static void ReadKey(ReadOnlySpan<byte> data, scoped ref int position, scoped Span<byte> key, scoped ref int keyLength)
    {
        Read(data, ref position, out var shared, out var suffix);
        if (shared > keyLength || suffix > data.Length - position || shared + suffix == 0 || shared + suffix > SearchIndex.MaxKeyBytes)
            throw new Folio.Storage.CorruptionException($"A front-coded block gives a key of {shared} shared and {suffix} new bytes after one of {keyLength}, where {data.Length - position} bytes are left.");
        if (!key.IsEmpty)
            data.Slice(position, suffix).CopyTo(key[shared..]);
        position += suffix;
        keyLength = shared + suffix;
    }

    /// <summary>Reads a varint of a front-coded block; one cut off or too long is corruption.</summary>
    public static ulong ReadVarint(ReadOnlySpan<byte> data, scoped ref int position)
    {
        if (position >= data.Length)
            throw new Folio.Storage.CorruptionException($"A front-coded block of {data.Length} bytes ends before a number.");
        try
        {
            return Varint.Read(data, ref position);
        }
        catch (InvalidDataException)
        {
            throw new Folio.Storage.CorruptionException($"A front-coded block of {data.Length} bytes ends inside a number at byte {position}.");
        }
    }

    /// <summary>Reads a varint length of a front-coded block (at most <see cref="int.MaxValue"/>).</summary>
    public static int ReadLength(ReadOnlySpan<byte> data, scoped ref int position)
    {
        var value = ReadVarint(data, ref position);
        return value > int.MaxValue ? throw new Folio.Storage.CorruptionException($"A front-coded block gives a length of {value}.") : (int)value;
    }
}
