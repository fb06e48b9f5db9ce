using System.Buffers.Binary;
using System.Numerics;
using System.Runtime.InteropServices;
using Folio.Indexing.Postings;
using Folio.Storage.Trees;

namespace Folio.Indexing.Search;

/// <summary>
/// The entry records of an index (<see cref="EntryRecord"/>) in blocks of <see cref="BlockSize"/> consecutive
/// entry ids, one tree entry per block keyed by <see cref="SearchIndex.EntryKey(long)"/> of the block's number.
/// A block holds a bit per id (little-endian, bit i for the block's i-th id) telling which have a record, then
/// each present record, length-prefixed, in id order; a block with no record left is deleted.
/// </summary>
/// <remarks>
/// A tree entry costs 11 bytes besides its value (its key, the leaf entry's header and its slot); with a record
/// of about 45 bytes per entry that was a fifth of the entries tree at 1M benchmark records. Entry ids are
/// handed out in increasing order, so a batch fills blocks from the front; an update or delete rewrites the one
/// block it hits. A batch keeps the blocks it changes decoded and writes them back when it commits, or when it
/// has more than <see cref="MaxOpenBlocks"/> open.
/// </remarks>
internal sealed class EntryStore(Tree tree)
{
    /// <summary>How many consecutive entry ids share a block.</summary>
    public const int BlockSize = 16;

    private const int BlockShift = 4;
    private const int MaskSize = 2;
    private const int MaxOpenBlocks = 64;

    private readonly Dictionary<long, Block> _open = [];
    private readonly Stack<Block> _spare = new();
    private readonly byte[] _key = new byte[SearchIndex.MaxEntryKeySize];

    /// <summary>Adds the record of entry <paramref name="id"/>, which must be above every id its block has.</summary>
    public void Add(long id, ReadOnlySpan<byte> record)
    {
        var block = Open(id >> BlockShift);
        var slot = (int)(id & (BlockSize - 1));
        if (block.Mask >> slot != 0)
            throw new InvalidOperationException($"Entry {id} is not above the entries its block already has.");
        var data = block.Data;
        ByteCoding.WriteVarint(data, (ulong)record.Length);
        data.AddRange(record);
        block.Mask |= (ushort)(1 << slot);
    }

    /// <summary>The record of entry <paramref name="id"/>, as this batch left it; false when there is none.</summary>
    public bool TryGet(long id, out ReadOnlySpan<byte> record)
    {
        if (_open.TryGetValue(id >> BlockShift, out var block))
            return Find(block.Mask, CollectionsMarshal.AsSpan(block.Data), (int)(id & (BlockSize - 1)), out record, out _, out _);
        return TryGet(tree, id, _key, out record);
    }

    /// <summary>Removes the record of entry <paramref name="id"/>; false when there was none.</summary>
    public bool Remove(long id)
    {
        var block = Open(id >> BlockShift);
        var slot = (int)(id & (BlockSize - 1));
        if (!Find(block.Mask, CollectionsMarshal.AsSpan(block.Data), slot, out _, out var start, out var end))
            return false;
        block.Data.RemoveRange(start, end - start);
        block.Mask &= (ushort)~(1 << slot);
        return true;
    }

    /// <summary>Writes every changed block back to the tree.</summary>
    public void Flush()
    {
        foreach (var (number, block) in _open)
        {
            var key = SearchIndex.EntryKey(number, _key);
            if (block.Mask == 0)
            {
                if (block.Stored)
                    tree.Delete(key);
            }
            else
            {
                var value = tree.Reserve(key, MaskSize + block.Data.Count);
                BinaryPrimitives.WriteUInt16LittleEndian(value, block.Mask);
                CollectionsMarshal.AsSpan(block.Data).CopyTo(value[MaskSize..]);
            }
            _spare.Push(block);
        }
        _open.Clear();
    }

    /// <summary>The stored record of entry <paramref name="id"/> in <paramref name="tree"/>; <paramref name="key"/> is scratch for the block's key.</summary>
    public static bool TryGet(Tree tree, long id, Span<byte> key, out ReadOnlySpan<byte> record)
    {
        if (!tree.TryGet(SearchIndex.EntryKey(id >> BlockShift, key), out var stored))
        {
            record = default;
            return false;
        }
        return Find(Mask(stored), stored[MaskSize..], (int)(id & (BlockSize - 1)), out record, out _, out _);
    }

    /// <summary>Which ids of a stored block have a record (bit i for the block's i-th id).</summary>
    public static ushort Mask(ReadOnlySpan<byte> stored)
    {
        if (stored.Length < MaskSize)
            throw new Folio.Storage.CorruptionException($"An entry block has {stored.Length} bytes.");
        return BinaryPrimitives.ReadUInt16LittleEndian(stored);
    }

    /// <summary>The first entry id of block <paramref name="number"/>.</summary>
    public static long FirstIdOf(long number) => number << BlockShift;

    /// <summary>The number of the block holding entry <paramref name="id"/>.</summary>
    public static long BlockOf(long id) => id >> BlockShift;

    /// <summary>Finds a slot's record in a block's records (<paramref name="data"/>, after the mask), with the bytes its length prefix and record span.</summary>
    private static bool Find(ushort mask, ReadOnlySpan<byte> data, int slot, out ReadOnlySpan<byte> record, out int start, out int end)
    {
        record = default;
        start = end = 0;
        if ((mask & (1 << slot)) == 0)
            return false;
        var position = 0;
        var before = BitOperations.PopCount((uint)(mask & ((1 << slot) - 1)));
        for (var i = 0; i <= before; i++)
        {
            start = position;
            var length = (int)Varint.Read(data, ref position);
            if (length < 0 || length > data.Length - position)
                throw new Folio.Storage.CorruptionException($"An entry block gives a record {length} bytes where {data.Length - position} are left.");
            record = data.Slice(position, length);
            position += length;
        }
        end = position;
        return true;
    }

    private Block Open(long number)
    {
        if (_open.TryGetValue(number, out var block))
            return block;
        if (_open.Count >= MaxOpenBlocks)
            Flush();
        block = _spare.Count > 0 ? _spare.Pop() : new Block();
        block.Data.Clear();
        block.Mask = 0;
        block.Stored = tree.TryGet(SearchIndex.EntryKey(number, _key), out var stored);
        if (block.Stored)
        {
            block.Mask = Mask(stored);
            block.Data.AddRange(stored[MaskSize..]);
        }
        _open.Add(number, block);
        return block;
    }

    private sealed class Block
    {
        public ushort Mask { get; set; }

        public bool Stored { get; set; }

        public List<byte> Data { get; } = new(1024);
    }
}
