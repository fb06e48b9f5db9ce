using Folio.Indexing.Postings;
using Folio.Storage;
using Folio.Storage.Trees;

namespace Folio.Indexing.Search;

/// <summary>
/// One full-text term's positions in the entries a phrase asks about, in ascending order of entry: the posting list (an
/// inline list or a chunk) holding the entry is decoded and kept for the entries after it, and its positions
/// (<see cref="PositionLists"/>) are decoded only up to the entry asked about, going on from there for a later one.
/// </summary>
internal sealed class TermPositions
{
    private readonly Tree _terms;
    private readonly Tree? _sealed;
    private readonly PositionTrees _positions;
    private readonly byte[] _termKey;
    private readonly bool _chunked;
    private readonly byte[] _sealKey = new byte[8];
    private readonly byte[] _chunkKey;
    private TreeCursor? _cursor;
    private long[] _ids = [];
    private int[] _frequencies = [];
    private int _count;
    // The loaded list's positions as stored (copied: a cursor's move may take the page away), and how far they are read:
    // the ids before _decodedIds have theirs in _decoded, each from _starts[i]; the stream goes on at bit _bits.
    private byte[] _encoded = [];
    private int _encodedLength;
    private int[] _starts = [0];
    private int[] _decoded = [];
    private int _decodedIds;
    private long _bits;

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
        if (_chunked && (_count == 0 || entryId < _ids[0] || entryId > _ids[_count - 1]))
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
        var index = _ids.AsSpan(0, _count).BinarySearch(entryId);
        if (index < 0)
            return;
        if (index >= _decodedIds)
            DecodeThrough(index);
        for (var i = _starts[index]; i < _starts[index + 1]; i++)
            into.Add(_decoded[i]);
    }

    /// <summary>
    /// Decodes <paramref name="list"/> and finds its positions, kept under <paramref name="key"/> or, when the list is a
    /// sealed chunk, under its sequence number (which <see cref="PostingStore.Chunk"/> left in the seal key).
    /// </summary>
    private void Load(ReadOnlySpan<byte> list, ReadOnlySpan<byte> key, bool isSealed)
    {
        var count = PostingsDecoder.GetCount(list);
        if (_ids.Length < count)
        {
            _ids = new long[count];
            _frequencies = new int[count];
            _starts = new int[count + 1];
        }
        _count = PostingsDecoder.Decode(list, _ids, _frequencies);
        var found = isSealed ? _positions.Sealed.TryGet(_sealKey, out var encoded) : _positions.Lists.TryGet(key, out encoded);
        if (!found)
            throw new CorruptionException("A posting list of a full-text field has no positions.");
        if (_encoded.Length < encoded.Length)
            _encoded = new byte[Math.Max(encoded.Length, _encoded.Length * 2)];
        encoded.CopyTo(_encoded);
        _encodedLength = encoded.Length;
        _decodedIds = 0;
        _bits = 0;
    }

    /// <summary>Decodes the positions of the loaded list's ids from the first not yet decoded through <paramref name="index"/>.</summary>
    private void DecodeThrough(int index)
    {
        var total = _starts[_decodedIds];
        for (var i = _decodedIds; i <= index; i++)
        {
            _starts[i] = total;
            total = checked(total + _frequencies[i]);
        }
        _starts[index + 1] = total;
        if (_decoded.Length < total)
            Array.Resize(ref _decoded, Math.Max(total, _decoded.Length * 2));
        var from = _starts[_decodedIds];
        PositionLists.DecodeNext(_encoded.AsSpan(0, _encodedLength), ref _bits, _frequencies.AsSpan(_decodedIds, index + 1 - _decodedIds), _decoded.AsSpan(from, total - from));
        _decodedIds = index + 1;
    }
}
