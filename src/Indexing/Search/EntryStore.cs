using System.Buffers.Binary;
using System.Numerics;
using System.Runtime.InteropServices;
using Folio.Indexing.Postings;
using Folio.Storage.Trees;

namespace Folio.Indexing.Search;

/// <summary>
/// The entry records of an index (<see cref="EntryRecord"/>) in blocks of up to <see cref="BlockSpan"/>
/// consecutive entry ids and at most <see cref="MaxBlockBytes"/> bytes, one tree entry per block keyed by
/// <see cref="SearchIndex.EntryKey(long)"/> of the block's first id. A block holds a bit per id from its first
/// (little-endian, bit i for first id + i) telling which have a record, then each present record,
/// length-prefixed, in id order; a block with no record left is deleted. The block holding an id is the one
/// with the greatest first id at or before it, when its bit is set.
/// </summary>
/// <remarks>
/// A tree entry costs 11 bytes besides its value (its key, the leaf entry's header and its slot); with records
/// of about 45 bytes that was a fifth of the entries tree at 1M benchmark records. Entry ids are handed out in
/// increasing order, so records are only ever appended to the last block, which a batch keeps in memory until
/// it is full or the batch commits; a delete rewrites the block it hits at once, and a block only shrinks after
/// it is closed. The byte limit keeps a block inline in its leaf: a block past a leaf's limit would take a page
/// of its own, more than its records took as separate entries.
/// </remarks>
internal sealed class EntryStore(Tree tree)
{
    /// <summary>The most consecutive ids a block covers.</summary>
    public const int BlockSpan = 16;

    /// <summary>The most bytes a block takes after its first record (which may be larger alone).</summary>
    public const int MaxBlockBytes = 1_900;

    private const int MaskSize = 2;

    private readonly byte[] _key = new byte[SearchIndex.MaxEntryKeySize];
    // One cursor for every lookup of the batch; each use positions it again after the tree changed.
    private TreeCursor? _cursor;
    private readonly List<byte> _scratch = new(MaxBlockBytes);
    // The last block, kept decoded while records are appended to it.
    private readonly List<byte> _tail = new(MaxBlockBytes);
    private long _tailFirst = -1;
    // The highest id the store has had (records removed since included): new ids must be above it.
    private long _highestId = -1;
    private ushort _tailMask;
    private bool _tailLoaded;
    private bool _tailChanged;

    /// <summary>Adds the record of entry <paramref name="id"/>, which must be above every id the store has.</summary>
    public void Add(long id, ReadOnlySpan<byte> record)
    {
        LoadTail();
        if (id <= _highestId)
            throw new InvalidOperationException($"Entry {id} is not above the entries the store has had.");
        _highestId = id;
        var bytes = Varint.Length((ulong)record.Length) + record.Length;
        if (_tailFirst < 0 || id - _tailFirst >= BlockSpan || (_tailMask != 0 && MaskSize + _tail.Count + bytes > MaxBlockBytes))
        {
            WriteTail();
            _tailFirst = id;
            _tailMask = 0;
            _tail.Clear();
        }
        ByteCoding.WriteVarint(_tail, (ulong)record.Length);
        _tail.AddRange(record);
        _tailMask |= (ushort)(1 << (int)(id - _tailFirst));
        _tailChanged = true;
    }

    /// <summary>The record of entry <paramref name="id"/> as this batch left it; false when there is none.</summary>
    public bool TryGet(long id, out ReadOnlySpan<byte> record)
    {
        LoadTail();
        if (InTail(id))
            return Find(_tailMask, CollectionsMarshal.AsSpan(_tail), (int)(id - _tailFirst), out record, out _, out _);
        return TryGet(Cursor, id, _key, out record);
    }

    /// <summary>Removes the record of entry <paramref name="id"/>; false when there was none.</summary>
    public bool Remove(long id)
    {
        LoadTail();
        if (InTail(id))
        {
            var slot = (int)(id - _tailFirst);
            if (!Find(_tailMask, CollectionsMarshal.AsSpan(_tail), slot, out _, out var start, out var end))
                return false;
            _tail.RemoveRange(start, end - start);
            _tailMask &= (ushort)~(1 << slot);
            _tailChanged = true;
            return true;
        }

        var cursor = Cursor;
        if (!cursor.SeekLastAtOrBefore(SearchIndex.EntryKey(id, _key)))
            return false;
        var first = SearchIndex.EntryIdOf(cursor.Key);
        if (id - first >= BlockSpan)
            return false;
        var stored = cursor.Value;
        var mask = Mask(stored);
        var slotOfId = (int)(id - first);
        if (!Find(mask, stored[MaskSize..], slotOfId, out _, out var from, out var to))
            return false;
        mask &= (ushort)~(1 << slotOfId);
        var key = SearchIndex.EntryKey(first, _key);
        if (mask == 0)
        {
            tree.Delete(key);
            return true;
        }
        _scratch.Clear();
        _scratch.AddRange(stored[MaskSize..(MaskSize + from)]);
        _scratch.AddRange(stored[(MaskSize + to)..]);
        Write(key, mask, _scratch);
        return true;
    }

    /// <summary>Writes the last block back to the tree if it changed.</summary>
    public void Flush() => WriteTail();

    /// <summary>
    /// The stored record of entry <paramref name="id"/> in the entries tree <paramref name="cursor"/> walks (a
    /// searcher reuses one for every hit); <paramref name="key"/> is scratch for the seek key.
    /// </summary>
    public static bool TryGet(TreeCursor cursor, long id, Span<byte> key, out ReadOnlySpan<byte> record)
    {
        record = default;
        if (!cursor.SeekLastAtOrBefore(SearchIndex.EntryKey(id, key)))
            return false;
        var offset = id - SearchIndex.EntryIdOf(cursor.Key);
        if (offset >= BlockSpan)
            return false;
        var stored = cursor.Value;
        return Find(Mask(stored), stored[MaskSize..], (int)offset, out record, out _, out _);
    }

    /// <summary>Which ids of a stored block have a record (bit i for the block's first id + i).</summary>
    public static ushort Mask(ReadOnlySpan<byte> stored)
    {
        if (stored.Length < MaskSize)
            throw new Folio.Storage.CorruptionException($"An entry block has {stored.Length} bytes.");
        return BinaryPrimitives.ReadUInt16LittleEndian(stored);
    }

    private TreeCursor Cursor => _cursor ??= tree.CreateCursor();

    private static int HighestSlot(ushort mask) => 31 - BitOperations.LeadingZeroCount((uint)mask);

    private bool InTail(long id) => _tailFirst >= 0 && id >= _tailFirst && id - _tailFirst < BlockSpan;

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

    /// <summary>Takes the tree's last block as the one to append to, once per batch.</summary>
    private void LoadTail()
    {
        if (_tailLoaded)
            return;
        _tailLoaded = true;
        var cursor = Cursor;
        if (!cursor.Last())
            return;
        _tailFirst = SearchIndex.EntryIdOf(cursor.Key);
        _tailMask = Mask(cursor.Value);
        _highestId = _tailFirst + HighestSlot(_tailMask);
        _tail.AddRange(cursor.Value[MaskSize..]);
    }

    private void WriteTail()
    {
        if (!_tailChanged)
            return;
        _tailChanged = false;
        var key = SearchIndex.EntryKey(_tailFirst, _key);
        if (_tailMask == 0)
            tree.Delete(key);
        else
            Write(key, _tailMask, _tail);
    }

    private void Write(ReadOnlySpan<byte> key, ushort mask, List<byte> records)
    {
        var value = tree.Reserve(key, MaskSize + records.Count);
        BinaryPrimitives.WriteUInt16LittleEndian(value, mask);
        CollectionsMarshal.AsSpan(records).CopyTo(value[MaskSize..]);
    }
}
