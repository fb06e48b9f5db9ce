using System.Buffers.Binary;
using System.Text;

namespace Folio.Storage.Documents.Compression;

/// <summary>
/// How dictionaries are kept: in the <c>doc-dictionaries</c> tree under their version (4 bytes, big-endian),
/// as the collection key's length (2 bytes), the key, the dictionary's CRC-32C (4 bytes, so a damaged
/// dictionary is an error rather than garbage bodies) and the dictionary; the meta tree names each
/// collection's current version under <c>dictionary/current/{collection}</c> and the last version used.
/// </summary>
internal static class DictionaryRecord
{
    public const string Tree = "doc-dictionaries";

    /// <summary>Versions fit the two bytes a body header has for them.</summary>
    public const int MaxVersion = ushort.MaxValue;

    public static ReadOnlySpan<byte> LastVersionKey => "dictionary/last"u8;

    public static byte[] CurrentKey(string collectionKey) => Encoding.UTF8.GetBytes("dictionary/current/" + collectionKey);

    public static ReadOnlySpan<byte> CurrentPrefix => "dictionary/current/"u8;

    public static byte[] VersionKey(int version)
    {
        var key = new byte[4];
        BinaryPrimitives.WriteInt32BigEndian(key, version);
        return key;
    }

    public static byte[] Encode(string collectionKey, ReadOnlySpan<byte> dictionary)
    {
        var name = Encoding.UTF8.GetBytes(collectionKey);
        var value = new byte[2 + name.Length + 4 + dictionary.Length];
        BinaryPrimitives.WriteUInt16LittleEndian(value, (ushort)name.Length);
        name.CopyTo(value, 2);
        BinaryPrimitives.WriteUInt32LittleEndian(value.AsSpan(2 + name.Length), Platform.Crc32C.Compute(dictionary));
        dictionary.CopyTo(value.AsSpan(2 + name.Length + 4));
        return value;
    }

    /// <summary>Reads a stored dictionary; null when the value is not one or its checksum does not match.</summary>
    public static (string CollectionKey, byte[] Dictionary)? Decode(ReadOnlySpan<byte> value)
    {
        if (value.Length < 2)
            return null;
        var nameLength = BinaryPrimitives.ReadUInt16LittleEndian(value);
        if (value.Length < 2 + nameLength + 4 + 8)
            return null;
        var dictionary = value[(2 + nameLength + 4)..];
        if (Platform.Crc32C.Compute(dictionary) != BinaryPrimitives.ReadUInt32LittleEndian(value[(2 + nameLength)..]))
            return null;
        return (Encoding.UTF8.GetString(value.Slice(2, nameLength)), dictionary.ToArray());
    }
}
