using Folio.Indexing.Postings;
using Folio.Storage;
using Folio.Storage.Trees;

namespace Folio.Indexing.Search;

/// <summary>
/// One full-text term's positions in the entries a phrase asks about: the posting list (an inline list or a chunk) holding
/// an entry is kept for the entries after it, but only the block of ids holding the entry is decoded, and its positions
/// (<see cref="PositionLists"/>) from the block's start up to the entry, going on from there for a later one in the block.
/// </summary>
internal sealed class TermPositions
{
    private const int BlockSize = PositionLists.BlockSize;

    private readonly Tree _terms;
    private readonly Tree? _sealed;
    private readonly PositionTrees _positions;
    private readonly byte[] _termKey;
    private readonly bool _chunked;
    private readonly byte[] _sealKey = new byte[8];
    private readonly byte[] _chunkKey;
    private TreeCursor? _cursor;
    // The loaded list, copied (a cursor's move may take the page away), with its header and last id.
    private byte[] _list = [];
    private int _listLength;
    private PostingsHeader _header;
    private long _listLast = -1;
    // Its positions, copied, with where each block starts in their bit stream.
    private byte[] _encoded = [];
    private int _encodedLength;
    private long[] _blockStarts = [0];
    private int _streamStart;
    private int _width;
    // The decoded ids: one block of the list (_loaded < the block count), or its trailing stream (_loaded = the block count).
    private long[] _ids = new long[BlockSize];
    private int[] _frequencies = new int[BlockSize];
    private readonly ulong[] _scratch = new ulong[BlockSize];
    private int _idsFrom;
    private int _idsCount;
    private int _loaded = -1;
    // The positions of the block of positions being read: ids from its start up to _decodedIds have theirs in _decoded,
    // from _starts[id − block start]; the bit stream goes on at _bits.
    private int _positionsBlock = -1;
    private int _decodedIds;
    private long _bits;
    private readonly int[] _starts = new int[BlockSize + 1];
    private int[] _decoded = new int[BlockSize];

    /// <summary>Reads the term with key <paramref name="termKey"/> and header <paramref name="header"/> of a field's trees.</summary>
    public TermPositions(Tree terms, Tree? sealedChunks, PositionTrees positions, byte[] termKey, ReadOnlySpan<byte> header)
    {
        _terms = terms;
        _sealed = sealedChunks;
        _positions = positions;
        _termKey = termKey;
        _chunkKey = new byte[termKey.Length + 8];
        termKey.CopyTo(_chunkKey, 0);
        _chunked = PostingStore.IsChunked(header);
        if (!_chunked)
            Load(header, termKey, isSealed: false);
    }

    /// <summary>Fills <paramref name="into"/> with the term's positions in entry <paramref name="entryId"/> (none when the entry lacks the term).</summary>
    public void Read(long entryId, List<int> into)
    {
        into.Clear();
        if (_chunked && (_listLast < 0 || entryId < _header.FirstId || entryId > _listLast))
        {
            var cursor = _cursor ??= _terms.CreateCursor();
            System.Buffers.Binary.BinaryPrimitives.WriteInt64BigEndian(_chunkKey.AsSpan(_termKey.Length), entryId);
            if (!cursor.SeekLastAtOrBefore(_chunkKey) || !PostingStore.IsChunkOf(cursor.Key, _termKey))
                return;
            var stored = cursor.Value;
            // The chunk's own key, which its open positions are kept under (the cursor's key is gone once the trees are read again).
            cursor.Key.CopyTo(_chunkKey);
            Load(PostingStore.Chunk(_sealed, stored, _sealKey), _chunkKey, PostingStore.IsSealed(stored));
        }
        if (entryId > _listLast)
            return;
        LoadIdsOf(entryId);
        var local = _ids.AsSpan(0, _idsCount).BinarySearch(entryId);
        if (local < 0)
            return;
        var index = _idsFrom + local;
        var block = index / BlockSize;
        if (block != _positionsBlock)
            StartPositionsBlock(block);
        var inBlock = index - block * BlockSize;
        if (inBlock >= _decodedIds)
            DecodePositionsThrough(inBlock);
        for (var i = _starts[inBlock]; i < _starts[inBlock + 1]; i++)
            into.Add(_decoded[i]);
    }

    /// <summary>
    /// Keeps <paramref name="list"/> and finds its positions, kept under <paramref name="key"/> or, when the list is a
    /// sealed chunk, under its sequence number (which <see cref="PostingStore.Chunk"/> left in the seal key).
    /// </summary>
    private void Load(ReadOnlySpan<byte> list, ReadOnlySpan<byte> key, bool isSealed)
    {
        if (_list.Length < list.Length)
            _list = new byte[Math.Max(list.Length, _list.Length * 2)];
        list.CopyTo(_list);
        _listLength = list.Length;
        _header = PostingsHeader.Read(list);
        if (!_header.HasFrequencies || _header.Count == 0)
            throw new CorruptionException("A posting list of a full-text field has no frequencies or no ids.");
        var found = isSealed ? _positions.Sealed.TryGet(_sealKey, out var encoded) : _positions.Lists.TryGet(key, out encoded);
        if (!found)
            throw new CorruptionException("A posting list of a full-text field has no positions.");
        if (_encoded.Length < encoded.Length)
            _encoded = new byte[Math.Max(encoded.Length, _encoded.Length * 2)];
        encoded.CopyTo(_encoded);
        _encodedLength = encoded.Length;
        _streamStart = PositionLists.ReadTable(encoded, ref _blockStarts, out _width, out var blockCount);
        if (blockCount != Math.Max(1, (_header.Count + BlockSize - 1) / BlockSize))
            throw new CorruptionException("A posting list's positions name another number of blocks than it has.");
        _loaded = -1;
        _positionsBlock = -1;
        // The last id: the last block's, or the stream's after it (decoded here, where a later read takes it from).
        if (_header.StreamCount > 0)
            LoadStream();
        else
            _listLast = _header.ReadBlockLast(_list.AsSpan(0, _listLength), _header.BlockCount - 1);
    }

    /// <summary>Decodes the block of the loaded list's ids that would hold <paramref name="entryId"/> (at most its last id).</summary>
    private void LoadIdsOf(long entryId)
    {
        var data = _list.AsSpan(0, _listLength);
        var low = _header.BlockHolding(data, entryId);
        if (low == _header.BlockCount)
        {
            if (_loaded != low)
                LoadStream();
            return;
        }
        if (_loaded == low)
            return;
        _header.DecodeBlock(data, low, low == 0 ? -1 : _header.ReadBlockLast(data, low - 1), _ids, _frequencies, _scratch);
        _idsFrom = low * BlockSize;
        _idsCount = BlockSize;
        _loaded = low;
    }

    /// <summary>Decodes the ids after the loaded list's blocks (all of an inline-layout list's).</summary>
    private void LoadStream()
    {
        var count = _header.StreamCount;
        if (_ids.Length < count)
        {
            _ids = new long[count];
            _frequencies = new int[count];
        }
        var data = _list.AsSpan(0, _listLength);
        var position = _header.StreamStart;
        _header.DecodeStream(data, ref position, _header.StreamBase(data), _ids.AsSpan(0, count), _frequencies.AsSpan(0, count));
        _idsFrom = _header.BlockCount * BlockSize;
        _idsCount = count;
        _loaded = _header.BlockCount;
        _listLast = _ids[count - 1];
    }

    private void StartPositionsBlock(int block)
    {
        _positionsBlock = block;
        _bits = _blockStarts[block];
        _decodedIds = 0;
        _starts[0] = 0;
    }

    /// <summary>Decodes the positions of the block's ids from the first not yet decoded through <paramref name="inBlock"/>.</summary>
    private void DecodePositionsThrough(int inBlock)
    {
        var first = _positionsBlock * BlockSize - _idsFrom;
        var total = _starts[_decodedIds];
        for (var i = _decodedIds; i <= inBlock; i++)
        {
            _starts[i] = total;
            total = checked(total + _frequencies[first + i]);
        }
        _starts[inBlock + 1] = total;
        if (_decoded.Length < total)
            Array.Resize(ref _decoded, Math.Max(total, _decoded.Length * 2));
        var from = _starts[_decodedIds];
        PositionLists.DecodeNext(_encoded.AsSpan(0, _encodedLength), _streamStart, _width, ref _bits,
            _frequencies.AsSpan(first + _decodedIds, inBlock + 1 - _decodedIds), _decoded.AsSpan(from, total - from));
        _decodedIds = inBlock + 1;
    }
}
