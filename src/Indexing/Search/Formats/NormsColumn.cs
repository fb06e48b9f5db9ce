using System.Buffers.Binary;
using System.Numerics;
using Folio.Storage.Trees;

namespace Folio.Indexing.Search;

/// <summary>
/// A full-text field's lengths (tokens per entry) for BM25, stored densely: one tree value per block
/// of <see cref="BlockSize"/> entries. A scorer walks entries in id order, so it reads one block per
/// 2,048 ids instead of descending a tree per hit; a batch loads each block it touches once and writes
/// it back once at commit.
/// </summary>
/// <remarks>
/// A stored block is a width byte (1–16), then each entry's length (0 = none, capped at 65,535) in that
/// many bits, packed little-endian one after another, then three bytes of padding so a length is read with
/// one four-byte read. Lengths as a ushort each made a block of 4 KB, over a leaf's inline limit, so each
/// took an 8 KB page; texts of about thirty words need 5 bits, and 2,048 of those stay inline in 1.3 KB
/// (4.0 → 0.8 MB at 1M benchmark records). A reader keeps the stored block as it is and reads a length
/// from it; a batch decodes the blocks it changes.
/// </remarks>
internal sealed class NormsColumn(Tree tree, byte[] cache)
{
    /// <summary>The entries per block.</summary>
    public const int BlockSize = 2048;

    /// <summary>The size of the block cache a column needs: the largest stored block.</summary>
    public const int CacheBytes = 1 + BlockSize * MaxWidth / 8 + Padding;

    // A batch's decoded blocks: a ushort per entry.
    private const int DecodedBytes = BlockSize * 2;

    private const int MaxWidth = 16;
    private const int Padding = 3;

    private readonly byte[] _cached = cache.Length >= CacheBytes ? cache : throw new ArgumentException("The cache is smaller than a block.", nameof(cache));
    private Dictionary<long, byte[]>? _changed;
    private long _cachedBlock = -1;
    // Whether the cached block exists (an entry with no stored block has no length).
    private bool _cachedPresent;

    /// <summary>A column with a block cache of its own (for a batch, which lives long and writes).</summary>
    public NormsColumn(Tree tree)
        : this(tree, new byte[CacheBytes])
    {
    }

    /// <summary>The entry's length, or 0 when it has none.</summary>
    public int Get(long entryId)
    {
        var number = entryId / BlockSize;
        if (_changed is not null && _changed.TryGetValue(number, out var changed))
            return BinaryPrimitives.ReadUInt16LittleEndian(changed.AsSpan(Offset(entryId) * 2));
        if (number != _cachedBlock)
        {
            Span<byte> key = stackalloc byte[8];
            BinaryPrimitives.WriteInt64BigEndian(key, number);
            _cachedPresent = tree.TryGet(key, out var stored);
            if (_cachedPresent)
                Checked(stored).CopyTo(_cached);
            _cachedBlock = number;
        }
        return _cachedPresent ? ReadLength(_cached, Offset(entryId)) : 0;
    }

    /// <summary>The tree the lengths are kept in.</summary>
    public Tree Tree => tree;

    /// <summary>
    /// The stored block of lengths numbered <paramref name="number"/> (entries number × <see cref="BlockSize"/>
    /// onwards), read in place from the snapshot's pages, for <see cref="ReadLength"/>; empty when no entry of
    /// the block has a length.
    /// </summary>
    public ReadOnlySpan<byte> StoredBlock(long number)
    {
        if (_changed is { Count: > 0 })
            throw new InvalidOperationException("A column with unflushed changes has no stored blocks to read.");
        Span<byte> key = stackalloc byte[8];
        BinaryPrimitives.WriteInt64BigEndian(key, number);
        return tree.TryGet(key, out var stored) ? Checked(stored) : default;
    }

    /// <summary>The length of the entry at <paramref name="offset"/> in a stored block (<see cref="StoredBlock"/>, not empty).</summary>
    public static int ReadLength(ReadOnlySpan<byte> block, int offset)
    {
        var width = block[0];
        var bit = offset * width;
        var window = BinaryPrimitives.ReadUInt32LittleEndian(block[(1 + (bit >> 3))..]);
        return (int)(window >> (bit & 7)) & ((1 << width) - 1);
    }

    /// <summary>Sets the entry's length (capped at 65,535; 0 clears it). Written at <see cref="Flush"/>.</summary>
    public void Set(long entryId, int length) =>
        BinaryPrimitives.WriteUInt16LittleEndian(BlockForWrite(entryId).AsSpan(Offset(entryId) * 2), (ushort)Math.Min(length, ushort.MaxValue));

    /// <summary>Writes the blocks changed since the last flush; a block left without lengths is removed.</summary>
    public void Flush()
    {
        if (_changed is null)
            return;
        Span<byte> key = stackalloc byte[8];
        foreach (var (number, block) in _changed)
        {
            BinaryPrimitives.WriteInt64BigEndian(key, number);
            var largest = 0;
            for (var i = 0; i < BlockSize; i++)
                largest = Math.Max(largest, BinaryPrimitives.ReadUInt16LittleEndian(block.AsSpan(i * 2)));
            if (largest == 0)
            {
                tree.Delete(key);
                continue;
            }
            var width = 32 - BitOperations.LeadingZeroCount((uint)largest);
            var stored = tree.Reserve(key, StoredSize(width));
            stored.Clear();
            stored[0] = (byte)width;
            for (var i = 0; i < BlockSize; i++)
            {
                var bit = i * width;
                var start = 1 + (bit >> 3);
                var code = BinaryPrimitives.ReadUInt16LittleEndian(block.AsSpan(i * 2)) << (bit & 7);
                stored[start] |= (byte)code;
                stored[start + 1] |= (byte)(code >> 8);
                stored[start + 2] |= (byte)(code >> 16);
            }
        }
        _changed.Clear();
    }

    private static int StoredSize(int width) => 1 + (BlockSize * width + 7) / 8 + Padding;

    private ReadOnlySpan<byte> Checked(ReadOnlySpan<byte> stored)
    {
        if (stored.IsEmpty || stored[0] is 0 or > MaxWidth || stored.Length != StoredSize(stored[0]))
            throw new Folio.Storage.CorruptionException($"A block of the lengths in '{tree.Name}' has {stored.Length} bytes, which does not fit its header.");
        return stored;
    }

    /// <summary>Decodes a stored block's lengths into <paramref name="lengths"/> (a ushort each).</summary>
    private void Decode(ReadOnlySpan<byte> stored, byte[] lengths)
    {
        Checked(stored);
        for (var i = 0; i < BlockSize; i++)
            BinaryPrimitives.WriteUInt16LittleEndian(lengths.AsSpan(i * 2), (ushort)ReadLength(stored, i));
    }

    /// <summary>The decoded block holding the entry, for a change; loaded once per batch.</summary>
    private byte[] BlockForWrite(long entryId)
    {
        var number = entryId / BlockSize;
        if (_changed is not null && _changed.TryGetValue(number, out var changed))
            return changed;
        Span<byte> key = stackalloc byte[8];
        BinaryPrimitives.WriteInt64BigEndian(key, number);
        var block = new byte[DecodedBytes];
        if (tree.TryGet(key, out var existing))
            Decode(existing, block);
        (_changed ??= []).Add(number, block);
        if (number == _cachedBlock)
            _cachedBlock = -1;
        return block;
    }

    private static int Offset(long entryId) => (int)(entryId % BlockSize);
}
