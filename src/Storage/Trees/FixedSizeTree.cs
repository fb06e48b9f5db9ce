using System.Buffers.Binary;

namespace Folio.Storage.Trees;

/// <summary>
/// Int64 keys to values of one fixed size, the shape of "documents by etag". Keys are stored
/// big-endian with the sign bit flipped, so byte order is numeric order, negatives first.
/// </summary>
public sealed class FixedSizeTree
{
    /// <summary>The largest fixed value size a tree may declare.</summary>
    public const int MaxValueSize = 1024;

    private readonly Tree _tree;
    private readonly byte[] _key = new byte[sizeof(long)];

    internal FixedSizeTree(Tree tree) => _tree = tree;

    /// <summary>The tree's name.</summary>
    public string Name => _tree.Name;

    /// <summary>The number of entries.</summary>
    public long Count => _tree.Count;

    /// <summary>The size every value has.</summary>
    public int ValueSize => _tree.Header.FixedValueSize;

    /// <summary>Stores <paramref name="value"/> (exactly <see cref="ValueSize"/> bytes) under <paramref name="key"/>.</summary>
    public void Put(long key, ReadOnlySpan<byte> value)
    {
        if (value.Length != ValueSize)
            throw new ArgumentException($"Tree '{Name}' holds values of {ValueSize} bytes; got {value.Length}.", nameof(value));
        _tree.Put(Encode(key, _key), value);
    }

    /// <summary>Reads the value under <paramref name="key"/>.</summary>
    public bool TryGet(long key, out ReadOnlySpan<byte> value) => _tree.TryGet(Encode(key, _key), out value);

    /// <summary>Removes <paramref name="key"/>; returns whether it was there.</summary>
    public bool Delete(long key) => _tree.Delete(Encode(key, _key));

    /// <summary>A cursor in key order.</summary>
    public FixedSizeCursor CreateCursor() => new(_tree.CreateCursor());

    internal static Span<byte> Encode(long key, Span<byte> buffer)
    {
        BinaryPrimitives.WriteUInt64BigEndian(buffer, (ulong)key ^ 0x8000_0000_0000_0000UL);
        return buffer[..sizeof(long)];
    }

    internal static long Decode(ReadOnlySpan<byte> key) => (long)(BinaryPrimitives.ReadUInt64BigEndian(key) ^ 0x8000_0000_0000_0000UL);
}
