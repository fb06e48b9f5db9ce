using System.Buffers.Binary;
using System.Numerics;
using System.Runtime.InteropServices;
using Folio.Indexing.Postings;
using Folio.Storage.Trees;

namespace Folio.Indexing.Search;

/// <summary>
/// The entry records of an index (<see cref="EntryRecord"/>) in blocks of up to <see cref="BlockSpan"/>
/// consecutive entry ids and at most <see cref="MaxBlockBytes"/> bytes, one tree entry per block keyed by
/// <see cref="SearchIndex.EntryKey(long, Span{byte})"/> of the block's first id. A block holds a bit per id from its first
/// (little-endian, bit i for first id + i) telling which have a record, then each present record in id order:
/// the entry's key as the bytes it shares with the key of the record before it in the block and the length of
/// the rest (<see cref="FrontCoding"/>), the rest, then the record's other bytes (varint length, bytes). A block with no record
/// left is deleted. The block holding an id is the one with the greatest first id at or before it, when its
/// bit is set.
/// </summary>
/// <remarks>
/// A tree entry costs 11 bytes besides its value (its key, the leaf entry's header and its slot); with records
/// of about 45 bytes that was a fifth of the entries tree at 1M benchmark records. Entry ids are handed out in
/// increasing order, so records are only ever appended to the last block, which a batch keeps in memory until
/// it is full or the batch commits; a delete rewrites the block it hits at once, and a block only shrinks after
/// it is closed. The byte limit keeps a block inline in its leaf: a block past a leaf's limit would take a page
/// of its own, more than its records took as separate entries. Keys are front-coded because consecutive
/// entries mostly have keys that differ in their last characters ("orders/1041", "orders/1042"): a benchmark
/// key of six digits took seven bytes, and takes about two.
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
    // The last block, kept encoded while records are appended to it, with its last record's key.
    private readonly List<byte> _tail = new(MaxBlockBytes);
    private readonly byte[] _tailLastKey = new byte[SearchIndex.MaxKeyBytes];
    private int _tailLastKeyLength;
    // A rewrite's walk: the key of the record read and the key of the last record kept.
    private readonly byte[] _walkKey = new byte[SearchIndex.MaxKeyBytes];
    private readonly byte[] _keptKey = new byte[SearchIndex.MaxKeyBytes];
    private long _tailFirst = -1;
    // The highest id the store has had (records removed since included): new ids must be above it.
    private long _highestId = -1;
    private ushort _tailMask;
    private bool _tailLoaded;
    private bool _tailChanged;

    /// <summary>Adds the record of entry <paramref name="id"/> (its key, and the rest), which must be above every id the store has.</summary>
    public void Add(long id, ReadOnlySpan<byte> key, ReadOnlySpan<byte> rest)
    {
        LoadTail();
        if (id <= _highestId)
            throw new InvalidOperationException($"Entry {id} is not above the entries the store has had.");
        if (key.IsEmpty || key.Length > SearchIndex.MaxKeyBytes)
            throw new ArgumentException($"An entry key must have 1 to {SearchIndex.MaxKeyBytes} bytes.", nameof(key));
        _highestId = id;
        var shared = _tailMask == 0 ? 0 : key.CommonPrefixLength(_tailLastKey.AsSpan(0, _tailLastKeyLength));
        if (_tailFirst < 0 || id - _tailFirst >= BlockSpan || (_tailMask != 0 && MaskSize + _tail.Count + RecordSize(shared, key.Length, rest.Length) > MaxBlockBytes))
        {
            WriteTail();
            _tailFirst = id;
            _tailMask = 0;
            _tail.Clear();
            shared = 0;
        }
        WriteRecord(_tail, shared, key, rest);
        key.CopyTo(_tailLastKey);
        _tailLastKeyLength = key.Length;
        _tailMask |= (ushort)(1 << (int)(id - _tailFirst));
        _tailChanged = true;
    }

    /// <summary>The record of entry <paramref name="id"/> as this batch left it, less its key; false when there is none.</summary>
    public bool TryGet(long id, out ReadOnlySpan<byte> rest)
    {
        LoadTail();
        if (InTail(id))
            return Find(_tailMask, CollectionsMarshal.AsSpan(_tail), (int)(id - _tailFirst), [], out _, out rest);
        return TryGet(Cursor, id, _key, out rest);
    }

    /// <summary>Removes the record of entry <paramref name="id"/>; false when there was none.</summary>
    public bool Remove(long id)
    {
        LoadTail();
        if (InTail(id))
        {
            var slot = (int)(id - _tailFirst);
            if ((_tailMask & (1 << slot)) == 0)
                return false;
            _tailLastKeyLength = Rewrite(_tailMask, CollectionsMarshal.AsSpan(_tail), slot, _scratch);
            _keptKey.AsSpan(0, _tailLastKeyLength).CopyTo(_tailLastKey);
            _tail.Clear();
            _tail.AddRange(CollectionsMarshal.AsSpan(_scratch));
            _tailMask &= (ushort)~(1 << slot);
            _tailChanged = true;
            return true;
        }

        var cursor = Cursor;
        if (!Seek(cursor, id, _key, out var slotOfId))
            return false;
        var stored = cursor.Value;
        var mask = Mask(stored);
        if ((mask & (1 << slotOfId)) == 0)
            return false;
        Rewrite(mask, stored[MaskSize..], slotOfId, _scratch);
        mask &= (ushort)~(1 << slotOfId);
        var key = SearchIndex.EntryKey(id - slotOfId, _key);
        if (mask == 0)
        {
            tree.Delete(key);
            return true;
        }
        Write(key, mask, _scratch);
        return true;
    }

    /// <summary>Writes the last block back to the tree if it changed.</summary>
    public void Flush() => WriteTail();

    /// <summary>
    /// The stored record of entry <paramref name="id"/>, less its key, in the entries tree <paramref name="cursor"/>
    /// walks (a searcher reuses one for every hit); <paramref name="seekKey"/> is scratch for the seek key.
    /// </summary>
    public static bool TryGet(TreeCursor cursor, long id, Span<byte> seekKey, out ReadOnlySpan<byte> rest)
    {
        rest = default;
        if (!Seek(cursor, id, seekKey, out var offset))
            return false;
        var stored = cursor.Value;
        return Find(Mask(stored), stored[MaskSize..], offset, [], out _, out rest);
    }

    /// <summary>
    /// The key of entry <paramref name="id"/>, written into <paramref name="key"/> (<see cref="SearchIndex.MaxKeyBytes"/>)
    /// with its length in <paramref name="keyLength"/>; false when the entry has no record.
    /// </summary>
    public static bool TryGetKey(TreeCursor cursor, long id, Span<byte> seekKey, Span<byte> key, out int keyLength)
    {
        keyLength = 0;
        if (!Seek(cursor, id, seekKey, out var offset))
            return false;
        var stored = cursor.Value;
        return Find(Mask(stored), stored[MaskSize..], offset, key, out keyLength, out _);
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

    /// <summary>Puts the cursor on the block that would hold <paramref name="id"/>, with the id's offset in it.</summary>
    private static bool Seek(TreeCursor cursor, long id, Span<byte> seekKey, out int offset)
    {
        offset = 0;
        if (!cursor.SeekLastAtOrBefore(SearchIndex.EntryKey(id, seekKey)))
            return false;
        var distance = id - SearchIndex.EntryIdOf(cursor.Key);
        if (distance >= BlockSpan)
            return false;
        offset = (int)distance;
        return true;
    }

    private static int RecordSize(int shared, int keyLength, int restLength) =>
        FrontCoding.KeySize(shared, keyLength) + Varint.Length((ulong)restLength) + restLength;

    private static void WriteRecord(List<byte> output, int shared, ReadOnlySpan<byte> key, ReadOnlySpan<byte> rest)
    {
        FrontCoding.WriteKey(output, key, shared);
        ByteCoding.WriteBytes(output, rest);
    }

    /// <summary>
    /// Reads one record at <paramref name="position"/>: its key's suffix goes into <paramref name="key"/> after
    /// the bytes it shares with the key before it (whose length <paramref name="keyLength"/> holds, and then the
    /// record's); an empty <paramref name="key"/> only follows the lengths.
    /// </summary>
    private static ReadOnlySpan<byte> ReadRecord(ReadOnlySpan<byte> data, scoped ref int position, scoped Span<byte> key, scoped ref int keyLength)
    {
        FrontCoding.ReadKey(data, ref position, key, ref keyLength);
        var length = FrontCoding.ReadLength(data, ref position);
        if (length > data.Length - position)
            throw new Folio.Storage.CorruptionException($"An entry block gives a record {length} bytes where {data.Length - position} are left.");
        var rest = data.Slice(position, length);
        position += length;
        return rest;
    }

    /// <summary>Finds a slot's record in a block's records (<paramref name="data"/>, after the mask): its key (when <paramref name="key"/> has room) and the rest.</summary>
    private static bool Find(ushort mask, ReadOnlySpan<byte> data, int slot, Span<byte> key, out int keyLength, out ReadOnlySpan<byte> rest)
    {
        rest = default;
        keyLength = 0;
        if ((mask & (1 << slot)) == 0)
            return false;
        var position = 0;
        var before = BitOperations.PopCount((uint)(mask & ((1 << slot) - 1)));
        for (var i = 0; i <= before; i++)
            rest = ReadRecord(data, ref position, key, ref keyLength);
        return true;
    }

    /// <summary>
    /// Encodes a block's records (<paramref name="data"/>, after the mask) less slot <paramref name="removed"/>'s into
    /// <paramref name="output"/>, each key coded against the kept one before it; returns the length of the last
    /// kept key, which is left in <see cref="_keptKey"/>.
    /// </summary>
    private int Rewrite(ushort mask, ReadOnlySpan<byte> data, int removed, List<byte> output)
    {
        output.Clear();
        var position = 0;
        var walkLength = 0;
        var keptLength = 0;
        for (var slot = 0; slot < BlockSpan; slot++)
        {
            if ((mask & (1 << slot)) == 0)
                continue;
            var rest = ReadRecord(data, ref position, _walkKey, ref walkLength);
            if (slot == removed)
                continue;
            var walked = _walkKey.AsSpan(0, walkLength);
            var shared = keptLength == 0 ? 0 : walked.CommonPrefixLength(_keptKey.AsSpan(0, keptLength));
            WriteRecord(output, shared, walked, rest);
            walked.CopyTo(_keptKey);
            keptLength = walkLength;
        }
        return keptLength;
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
        if (_tailMask == 0)
            throw new Folio.Storage.CorruptionException($"The entry block of {_tailFirst} has no record.");
        _highestId = _tailFirst + HighestSlot(_tailMask);
        _tail.AddRange(cursor.Value[MaskSize..]);
        Find(_tailMask, cursor.Value[MaskSize..], HighestSlot(_tailMask), _tailLastKey, out _tailLastKeyLength, out _);
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
