using System.Buffers.Binary;
using Folio.Storage.Trees;

namespace Folio.Storage.Documents;

/// <summary>
/// The number each collection (by lower-cased name) was given with its first document, and the keys of the etag
/// index built on it (<see cref="DocumentStore.CollectionDocsTree"/>): the number as a varint, then the etag big-endian,
/// so one collection's documents are one contiguous range in etag order (of blocks, <see cref="EtagBlock"/>). A number
/// is never reused or dropped: a collection emptied and refilled keeps its own.
/// </summary>
internal static class CollectionNumbers
{
    /// <summary>
    /// The tree of numbers: lower-cased name to the number (4 bytes, little-endian) and, since documents format 6, the
    /// name with the casing the collection's first document gave it (<see cref="CollectionNames"/>).
    /// </summary>
    public const string Tree = "collection-numbers";

    /// <summary>The longest prefix a number takes (a varint of 32 bits).</summary>
    public const int MaxPrefixLength = 5;

    /// <summary>The longest key of the index: the prefix and the etag.</summary>
    public const int MaxKeyLength = MaxPrefixLength + 8;

    /// <summary>The number of the collection with this lower-cased name, if it ever had a document.</summary>
    public static bool TryGet(Tree numbers, ReadOnlySpan<byte> loweredName, out uint number)
    {
        if (numbers.TryGet(loweredName, out var stored))
        {
            number = BinaryPrimitives.ReadUInt32LittleEndian(stored);
            return true;
        }
        number = 0;
        return false;
    }

    /// <summary>
    /// The collection's number, given now (the next after the last given) with <paramref name="name"/> as its name in
    /// the tree and in <paramref name="names"/> if it had none.
    /// </summary>
    public static uint GetOrAdd(Tree numbers, CollectionNames names, ReadOnlySpan<byte> loweredName, ReadOnlySpan<byte> name)
    {
        if (TryGet(numbers, loweredName, out var number))
            return number;
        number = checked((uint)numbers.Count);
        var value = numbers.Reserve(loweredName, 4 + name.Length);
        BinaryPrimitives.WriteUInt32LittleEndian(value, number);
        name.CopyTo(value[4..]);
        names.Set(number, name.ToArray());
        return number;
    }

    /// <summary>Every number given, in no particular order.</summary>
    public static List<uint> All(Tree numbers)
    {
        var all = new List<uint>((int)numbers.Count);
        var cursor = numbers.CreateCursor();
        for (var more = cursor.First(); more; more = cursor.MoveNext())
            all.Add(BinaryPrimitives.ReadUInt32LittleEndian(cursor.Value));
        return all;
    }

    /// <summary>
    /// Writes the number as a varint (seven bits a byte, high bit set on all but the last), which no other number's
    /// varint starts with, so a collection's keys are exactly those that start with it; returns its length.
    /// </summary>
    public static int WritePrefix(uint number, Span<byte> destination) => Varint.Write(destination, 0, number);

    /// <summary>The prefix of a collection's keys, as a new array.</summary>
    public static byte[] Prefix(uint number)
    {
        Span<byte> buffer = stackalloc byte[MaxPrefixLength];
        return buffer[..WritePrefix(number, buffer)].ToArray();
    }

    /// <summary>Writes the index key of a document of the collection at <paramref name="etag"/>; returns its length.</summary>
    public static int WriteKey(uint number, long etag, Span<byte> destination)
    {
        var length = WritePrefix(number, destination);
        BinaryPrimitives.WriteInt64BigEndian(destination[length..], etag);
        return length + 8;
    }

    /// <summary>The collection number an index key starts with.</summary>
    public static uint NumberOf(ReadOnlySpan<byte> key)
    {
        var offset = 0;
        if (!Varint.TryRead(key, ref offset, out var number) || number > uint.MaxValue || offset != key.Length - 8)
            throw new CorruptionException("A key of the collection etag index does not start with a collection number followed by its etag.");
        return (uint)number;
    }

    /// <summary>The etag an index key ends with.</summary>
    public static long EtagOf(ReadOnlySpan<byte> key) => BinaryPrimitives.ReadInt64BigEndian(key[^8..]);
}
