using System.Buffers.Binary;
using System.Runtime.InteropServices;
using Folio.Indexing.Postings;
using Folio.Storage.Trees;

namespace Folio.Indexing.Search;

/// <summary>
/// The key → entry id map of an index, in blocks of keys in key order, each key stored as the bytes it
/// shares with the key before it and the rest (front coding). One tree entry per block, keyed by
/// <see cref="TreeKey"/> of the block's first key; the block holding a key is the one with the greatest
/// first key at or before it. A batch's changes wait in memory and are merged into the blocks they fall
/// in at <see cref="Flush"/>, each block decoded and written once per batch.
/// </summary>
/// <remarks>
/// Keys are ordered by length, then bytes: keys numbered in increasing order ("9", "10", "11") then
/// arrive in order and only the last block grows. A key as its own tree entry cost 17 bytes at 1M benchmark
/// records ("123456" takes 7 with its length, the id 3, the leaf entry's header and slot 7); in a block a
/// neighbour of its key costs about three (the shared and new byte counts in one byte, one byte of suffix,
/// the id as a difference from the id before it).
/// <para>A stored block is a sequence of: the shared byte count and the suffix length (<see cref="FrontCoding"/>),
/// the suffix, and the entry id less the previous one's (zigzag varint; the first key's is from 0). The key
/// before the first is the block's first key itself, taken from the tree key, so the first shares all of
/// it and a key is stored once even when it is as long as keys may be.</para>
/// </remarks>
internal sealed class KeyStore(Tree tree)
{
    /// <summary>The most keys a block holds, which bounds a lookup's scan.</summary>
    public const int MaxBlockKeys = 64;

    /// <summary>
    /// The most bytes a block's tree key and value take together, unless it holds one key: well within a
    /// leaf's inline limit, so no block takes a page of its own (a key alone takes at most 1,024 + 14).
    /// </summary>
    public const int MaxBlockBytes = 1_024;

    // Stands for a key this batch removed, among the pending ids.
    private const long Removed = -1;

    // The batch's changes: each key's new id, or Removed. The arrays are the batch's own (IndexBatch encodes each key once).
    private readonly Dictionary<byte[], long> _pending = new(ByteArrayComparer.Instance);
    private readonly byte[] _treeKey = new byte[TreeKeyLength(SearchIndex.MaxKeyBytes)];
    private readonly byte[] _current = new byte[SearchIndex.MaxKeyBytes];
    // The tree's greatest key, read at the batch's first lookup (the tree only changes at Flush): a key
    // above it is new without a scan of the last block, which is every key of an append-style load.
    private readonly byte[] _lastKey = new byte[SearchIndex.MaxKeyBytes];
    private int _lastKeyLength = LastKeyUnread;
    private const int LastKeyUnread = -2;
    // Flush's work: a block's keys decoded into one buffer, then merged with the pending keys, then encoded.
    private readonly List<byte> _decodedBytes = new(MaxBlockBytes * 2);
    private readonly List<(int Offset, int Length, long Id)> _decoded = new(MaxBlockKeys * 2);
    private readonly List<(int Offset, int Length, long Id)> _merged = new(MaxBlockKeys * 2);
    private readonly List<byte> _block = new(MaxBlockBytes * 2);
    private readonly byte[] _boundary = new byte[SearchIndex.MaxKeyBytes];
    private TreeCursor? _cursor;

    /// <summary>The entry id of <paramref name="key"/> as this batch left it; false when it has none.</summary>
    public bool TryGet(byte[] key, out long id)
    {
        if (_pending.TryGetValue(key, out id))
            return id != Removed;
        if (_lastKeyLength == LastKeyUnread)
            _lastKeyLength = ReadLastKey();
        if (_lastKeyLength < 0 || Compare(key, _lastKey.AsSpan(0, _lastKeyLength)) > 0)
            return false;
        return TryGet(_cursor ??= tree.CreateCursor(), key, _treeKey, _current, out id);
    }

    /// <summary>Maps <paramref name="key"/> (an array the store may keep until <see cref="Flush"/>) to <paramref name="id"/>.</summary>
    public void Put(byte[] key, long id)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(id);
        _pending[key] = id;
    }

    /// <summary>Removes <paramref name="key"/>'s mapping (there need not be one).</summary>
    public void Remove(byte[] key) => _pending[key] = Removed;

    /// <summary>
    /// The stored entry id of <paramref name="key"/> in the keys tree <paramref name="cursor"/> walks;
    /// <paramref name="seekKey"/> holds the seek key (<see cref="TreeKeyLength"/> of the key's length) and
    /// <paramref name="current"/> the keys read (<see cref="SearchIndex.MaxKeyBytes"/>).
    /// </summary>
    public static bool TryGet(TreeCursor cursor, ReadOnlySpan<byte> key, Span<byte> seekKey, Span<byte> current, out long id)
    {
        id = 0;
        if (!cursor.SeekLastAtOrBefore(TreeKey(key, seekKey)))
            return false;
        var block = cursor.Value;
        var length = FirstKey(cursor.Key, block, current);
        var position = 0;
        while (position < block.Length)
        {
            ReadEntry(block, ref position, current, ref length, ref id);
            var order = Compare(current[..length], key);
            if (order == 0)
                return true;
            if (order > 0)
                return false;
        }
        return false;
    }

    /// <summary>Puts a block's first key, from its tree key, into <paramref name="current"/> as the key before its first entry; returns its length.</summary>
    public static int FirstKey(ReadOnlySpan<byte> treeKey, ReadOnlySpan<byte> block, Span<byte> current)
    {
        if (treeKey.Length < 3 || BinaryPrimitives.ReadUInt16BigEndian(treeKey) != treeKey.Length - 2 || treeKey.Length - 2 > current.Length || block.IsEmpty)
            throw new Folio.Storage.CorruptionException($"A keys block has a tree key of {treeKey.Length} bytes and {block.Length} bytes of keys.");
        treeKey[2..].CopyTo(current);
        return treeKey.Length - 2;
    }

    /// <summary>Merges the batch's changes into the blocks they fall in.</summary>
    public void Flush()
    {
        if (_pending.Count == 0)
            return;
        _lastKeyLength = LastKeyUnread;
        var keys = new byte[_pending.Count][];
        _pending.Keys.CopyTo(keys, 0);
        Array.Sort(keys, KeyOrder.Instance);
        var cursor = _cursor ??= tree.CreateCursor();
        var next = 0;
        while (next < keys.Length)
        {
            // The block the next pending key falls in: the last starting at or before it, else the first.
            var found = cursor.SeekLastAtOrBefore(TreeKey(keys[next], _treeKey)) || cursor.First();
            _decodedBytes.Clear();
            _decoded.Clear();
            var hasBoundary = false;
            var boundaryLength = 0;
            if (found)
            {
                DecodeBlock(cursor.Key, cursor.Value);
                cursor.Key.CopyTo(_treeKey);
                var blockKeyLength = cursor.Key.Length;
                if (cursor.MoveNext())
                {
                    boundaryLength = cursor.Key.Length - 2;
                    cursor.Key[2..].CopyTo(_boundary);
                    hasBoundary = true;
                }
                tree.Delete(_treeKey.AsSpan(0, blockKeyLength));
            }
            var end = next;
            while (end < keys.Length && (!hasBoundary || Compare(keys[end], _boundary.AsSpan(0, boundaryLength)) < 0))
                end++;
            Merge(keys.AsSpan(next, end - next));
            WriteBlocks(fillFull: !hasBoundary);
            next = end;
        }
        _pending.Clear();
    }

    /// <summary>The order of keys in the store: by length, then bytes (the order of their <see cref="TreeKey"/>s).</summary>
    public static int Compare(ReadOnlySpan<byte> a, ReadOnlySpan<byte> b) =>
        a.Length != b.Length ? a.Length.CompareTo(b.Length) : a.SequenceCompareTo(b);

    /// <summary>The bytes of a key's tree key.</summary>
    public static int TreeKeyLength(int keyLength) => 2 + keyLength;

    /// <summary>A block's tree key for its first key: the length (two bytes, big-endian) and the bytes, so the tree orders blocks as <see cref="Compare"/> orders keys.</summary>
    public static ReadOnlySpan<byte> TreeKey(ReadOnlySpan<byte> key, Span<byte> destination)
    {
        BinaryPrimitives.WriteUInt16BigEndian(destination, (ushort)key.Length);
        key.CopyTo(destination[2..]);
        return destination[..TreeKeyLength(key.Length)];
    }

    /// <summary>Reads one stored key into <paramref name="current"/> (which holds the key before it, <paramref name="length"/> bytes) and its id after <paramref name="id"/>.</summary>
    public static void ReadEntry(ReadOnlySpan<byte> block, ref int position, Span<byte> current, ref int length, ref long id)
    {
        FrontCoding.ReadKey(block, ref position, current, ref length);
        var delta = FrontCoding.ReadVarint(block, ref position);
        id += (long)(delta >> 1) ^ -(long)(delta & 1);
        if (id < 0)
            throw new Folio.Storage.CorruptionException($"A keys block gives a negative entry id ({id}).");
    }

    /// <summary>The length of the tree's greatest key, read into <see cref="_lastKey"/>; -1 when the tree is empty.</summary>
    private int ReadLastKey()
    {
        var cursor = _cursor ??= tree.CreateCursor();
        if (!cursor.Last())
            return -1;
        var block = cursor.Value;
        var length = FirstKey(cursor.Key, block, _lastKey);
        long id = 0;
        var position = 0;
        while (position < block.Length)
            ReadEntry(block, ref position, _lastKey, ref length, ref id);
        return length;
    }

    /// <summary>Decodes a block, checking what a merge relies on: its first key is its tree key's and its keys increase.</summary>
    private void DecodeBlock(ReadOnlySpan<byte> treeKey, ReadOnlySpan<byte> block)
    {
        Span<byte> current = _current;
        var length = FirstKey(treeKey, block, current);
        long id = 0;
        var position = 0;
        while (position < block.Length)
        {
            ReadEntry(block, ref position, current, ref length, ref id);
            var key = current[..length];
            if (_decoded.Count == 0 ? !key.SequenceEqual(treeKey[2..]) : Compare(key, Bytes(CollectionsMarshal.AsSpan(_decodedBytes), _decoded[^1])) <= 0)
                throw new Folio.Storage.CorruptionException($"A keys block's keys are out of order (key {_decoded.Count} of the block with a tree key of {treeKey.Length} bytes).");
            _decoded.Add((_decodedBytes.Count, length, id));
            _decodedBytes.AddRange(key);
        }
    }

    /// <summary>The decoded block's keys with the pending ones (sorted, all within the block's range) applied: replaced, added or removed.</summary>
    private void Merge(ReadOnlySpan<byte[]> pending)
    {
        _merged.Clear();
        var stored = CollectionsMarshal.AsSpan(_decodedBytes);
        var s = 0;
        foreach (var key in pending)
        {
            var order = 1;
            while (s < _decoded.Count && (order = Compare(Bytes(stored, _decoded[s]), key)) < 0)
                _merged.Add(_decoded[s++]);
            if (order == 0)
                s++;
            var id = _pending[key];
            if (id == Removed)
                continue;
            _merged.Add((_decodedBytes.Count, key.Length, id));
            _decodedBytes.AddRange(key);
            stored = CollectionsMarshal.AsSpan(_decodedBytes);
        }
        while (s < _decoded.Count)
            _merged.Add(_decoded[s++]);
    }

    /// <summary>
    /// Writes the merged keys as blocks. The last block of the tree is cut into full ones (keys numbered in
    /// increasing order only ever extend it, however few a batch adds); any other is cut into blocks of about
    /// equal size, so one grown past a limit by a key or two splits in halves instead of leaving a block of one key.
    /// </summary>
    private void WriteBlocks(bool fillFull)
    {
        var bytes = CollectionsMarshal.AsSpan(_decodedBytes);
        var count = _merged.Count;
        if (count == 0)
            return;
        var total = 0;
        for (var i = 0; i < count; i++)
            total += EntrySize(bytes, i, i == 0 ? -1 : i - 1);
        var blocks = fillFull ? int.MaxValue : Math.Max((count + MaxBlockKeys - 1) / MaxBlockKeys, (total + MaxBlockBytes - 1) / MaxBlockBytes);
        var start = 0;
        while (start < count)
        {
            var perBlock = fillFull ? MaxBlockKeys : Math.Min(MaxBlockKeys, (count - start + blocks - 1) / blocks);
            blocks = Math.Max(1, blocks - 1);
            var first = Bytes(bytes, _merged[start]);
            var size = TreeKeyLength(first.Length);
            _block.Clear();
            var end = start;
            while (end < count && end - start < perBlock)
            {
                var before = end == start ? -1 : end - 1;
                if (end > start && size + _block.Count + EntrySize(bytes, end, before) > MaxBlockBytes)
                    break;
                var (shared, delta) = Coded(bytes, end, before);
                FrontCoding.WriteKey(_block, Bytes(bytes, _merged[end]), shared);
                ByteCoding.WriteVarint(_block, delta);
                end++;
            }
            CollectionsMarshal.AsSpan(_block).CopyTo(tree.Reserve(TreeKey(first, _treeKey), _block.Count));
            start = end;
        }
    }

    /// <summary>The bytes merged key <paramref name="index"/> takes stored after merged key <paramref name="before"/>.</summary>
    private int EntrySize(ReadOnlySpan<byte> bytes, int index, int before)
    {
        var (shared, delta) = Coded(bytes, index, before);
        return FrontCoding.KeySize(shared, _merged[index].Length) + Varint.Length(delta);
    }

    /// <summary>
    /// How merged key <paramref name="index"/> is stored after merged key <paramref name="before"/> (-1: first in its
    /// block, which shares all of itself): the bytes it shares, and its id's zigzag difference.
    /// </summary>
    private (int Shared, ulong Delta) Coded(ReadOnlySpan<byte> bytes, int index, int before)
    {
        var entry = _merged[index];
        if (before < 0)
            return (entry.Length, ZigZag(entry.Id));
        return (Bytes(bytes, entry).CommonPrefixLength(Bytes(bytes, _merged[before])), ZigZag(entry.Id - _merged[before].Id));
    }

    private static ulong ZigZag(long value) => (ulong)((value << 1) ^ (value >> 63));

    private static ReadOnlySpan<byte> Bytes(ReadOnlySpan<byte> buffer, (int Offset, int Length, long Id) entry) =>
        buffer.Slice(entry.Offset, entry.Length);

    private sealed class KeyOrder : IComparer<byte[]>
    {
        public static KeyOrder Instance { get; } = new();

        public int Compare(byte[]? x, byte[]? y) => KeyStore.Compare(x, y);
    }
}
