using Folio.Indexing.Postings;
using Folio.Storage;
using Folio.Storage.Trees;

namespace Folio.Indexing.Search;

/// <summary>
/// One full-text term's positions in the entries a phrase asks about, in ascending order of entry: the posting list (an
/// inline list or a chunk) holding the entry is decoded with its positions (<see cref="PositionLists"/>) and kept for the
/// entries after it, so a phrase over frequent terms decodes each chunk once.
/// </summary>
internal sealed class TermPositions
{
    private readonly Tree _terms;
    private readonly Tree? _sealed;
    private readonly PositionTrees _positions;
    private readonly byte[] _termKey;
    private readonly bool _chunked;
    private readonly byte[] _sealKey = new byte[8];
    private TreeCursor? _cursor;
    private long[] _ids = [];
    private int[] _frequencies = [];
    // Where each loaded id's positions start in _loaded (one more than the ids, for the last one's end).
    private int[] _starts = [1];
    private int[] _loaded = [];
    private int _count;

    /// <summary>Reads the term with key <paramref name="termKey"/> and header <paramref name="header"/> of a field's trees.</summary>
    public TermPositions(Tree terms, Tree? sealedChunks, PositionTrees positions, byte[] termKey, ReadOnlySpan<byte> header)
    {
        _terms = terms;
        _sealed = sealedChunks;
        _positions = positions;
        _termKey = termKey;
        _chunked = PostingStore.IsChunked(header);
        if (!_chunked)
            Load(header, termKey, -1);
    }

    /// <summary>Fills <paramref name="into"/> with the term's positions in entry <paramref name="entryId"/> (none when the entry lacks the term).</summary>
    public void Read(long entryId, List<int> into)
    {
        into.Clear();
        if (_chunked && (_count == 0 || entryId < _ids[0] || entryId > _ids[_count - 1]))
        {
            var cursor = _cursor ??= _terms.CreateCursor();
            if (!cursor.SeekLastAtOrBefore(TermEncoding.ChunkKey(_termKey, entryId)) || !PostingStore.IsChunkOf(cursor.Key, _termKey))
                return;
            var key = cursor.Key.ToArray();
            var stored = cursor.Value;
            Load(PostingStore.Chunk(_sealed, stored, _sealKey), key, PostingStore.IsSealed(stored) ? PostingStore.SealOf(stored) : -1);
        }
        var index = _ids.AsSpan(0, _count).BinarySearch(entryId);
        if (index < 0)
            return;
        for (var i = _starts[index]; i < _starts[index + 1]; i++)
            into.Add(_loaded[i]);
    }

    /// <summary>Decodes <paramref name="list"/> and its positions, kept under <paramref name="key"/> or, when it is sealed chunk <paramref name="seal"/>, under that.</summary>
    private void Load(ReadOnlySpan<byte> list, byte[] key, long seal)
    {
        var count = PostingsDecoder.GetCount(list);
        if (_ids.Length < count)
        {
            _ids = new long[count];
            _frequencies = new int[count];
            _starts = new int[count + 1];
        }
        _count = PostingsDecoder.Decode(list, _ids, _frequencies);
        var total = 0;
        for (var i = 0; i < _count; i++)
        {
            _starts[i] = total;
            total = checked(total + _frequencies[i]);
        }
        _starts[_count] = total;
        if (_loaded.Length < total)
            _loaded = new int[total];
        var found = seal < 0 ? _positions.Lists.TryGet(key, out var encoded) : _positions.Sealed.TryGet(PostingStore.SealKey(seal), out encoded);
        if (!found)
            throw new CorruptionException("A posting list of a full-text field has no positions.");
        PositionLists.Decode(encoded, _frequencies.AsSpan(0, _count), _loaded.AsSpan(0, total));
    }
}
