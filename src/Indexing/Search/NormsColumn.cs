using System.Buffers.Binary;
using Folio.Storage.Trees;

namespace Folio.Indexing.Search;

/// <summary>
/// A full-text field's lengths (tokens per entry) for BM25, stored densely: one tree value per block
/// of <see cref="BlockSize"/> entries holding a ushort per entry (0 = no length). A scorer walks
/// entries in id order, so it reads one block per 2,048 hits instead of descending a tree per hit;
/// a batch loads each block it touches once and writes it back once at commit.
/// </summary>
internal sealed class NormsColumn(Tree tree, byte[] cache)
{
    public const int BlockSize = 2048;

    /// <summary>The size of the block cache a column needs.</summary>
    public const int CacheBytes = BlockSize * 2;

    private readonly byte[] _cached = cache.Length >= CacheBytes ? cache : throw new ArgumentException("The cache is smaller than a block.", nameof(cache));
    private Dictionary<long, byte[]>? _changed;
    private long _cachedBlock = -1;

    /// <summary>A column with a block cache of its own (for a batch, which lives long and writes).</summary>
    public NormsColumn(Tree tree)
        : this(tree, new byte[CacheBytes])
    {
    }

    /// <summary>The entry's length, or 0 when it has none.</summary>
    public int Get(long entryId)
    {
        var block = Block(entryId, forWrite: false);
        return block is null ? 0 : BinaryPrimitives.ReadUInt16LittleEndian(block.AsSpan(Offset(entryId)));
    }

    /// <summary>The tree the lengths are kept in.</summary>
    public Tree Tree => tree;

    /// <summary>
    /// The stored block of lengths numbered <paramref name="number"/> (entries number × <see cref="BlockSize"/>
    /// onwards), read in place from the snapshot's pages; empty when no entry of the block has a length.
    /// </summary>
    public ReadOnlySpan<byte> StoredBlock(long number)
    {
        if (_changed is { Count: > 0 })
            throw new InvalidOperationException("A column with unflushed changes has no stored blocks to read.");
        Span<byte> key = stackalloc byte[8];
        BinaryPrimitives.WriteInt64BigEndian(key, number);
        return tree.TryGet(key, out var stored) ? stored : default;
    }

    /// <summary>Sets the entry's length (capped at 65,535; 0 clears it). Written at <see cref="Flush"/>.</summary>
    public void Set(long entryId, int length) =>
        BinaryPrimitives.WriteUInt16LittleEndian(Block(entryId, forWrite: true)!.AsSpan(Offset(entryId)), (ushort)Math.Min(length, ushort.MaxValue));

    /// <summary>Writes the blocks changed since the last flush.</summary>
    public void Flush()
    {
        if (_changed is null)
            return;
        Span<byte> key = stackalloc byte[8];
        foreach (var (number, block) in _changed)
        {
            BinaryPrimitives.WriteInt64BigEndian(key, number);
            tree.Put(key, block);
        }
        _changed.Clear();
    }

    private byte[]? Block(long entryId, bool forWrite)
    {
        var number = entryId / BlockSize;
        if (_changed is not null && _changed.TryGetValue(number, out var changed))
            return changed;
        Span<byte> key = stackalloc byte[8];
        BinaryPrimitives.WriteInt64BigEndian(key, number);
        if (!forWrite)
        {
            if (number == _cachedBlock)
                return _cached;
            if (!tree.TryGet(key, out var stored))
                return null;
            stored.CopyTo(_cached);
            _cachedBlock = number;
            return _cached;
        }
        var block = new byte[CacheBytes];
        if (tree.TryGet(key, out var existing))
            existing.CopyTo(block);
        (_changed ??= []).Add(number, block);
        if (number == _cachedBlock)
            _cachedBlock = -1;
        return block;
    }

    private static int Offset(long entryId) => (int)(entryId % BlockSize) * 2;
}
