using Folio.Storage.Trees;

namespace Folio.Storage.Documents;

/// <summary>
/// Writes the collection etag index (<see cref="EtagBlock"/>) inside one write transaction. A write's etag is above
/// every etag written before it, so a new document always goes at the end of its collection's last block, or starts a
/// block when that one is full; a removal rewrites the block that holds the etag. The block written last is kept
/// encoded here, so a batch appending to one collection neither finds nor decodes it again for each document. The
/// store keeps one for its writes (they run one transaction at a time), so a write allocates none of its buffers.
/// </summary>
internal sealed class CollectionEtagIndex
{
    private readonly byte[] _key = new byte[CollectionNumbers.MaxKeyLength];
    private readonly byte[] _block = new byte[EtagBlock.MaxBytes + EtagBlock.MaxEntryBytes];
    private byte[] _lastId = new byte[DocumentIds.MaxKeyBytes];
    private byte[] _readId = new byte[DocumentIds.MaxKeyBytes];
    private readonly byte[] _keptId = new byte[DocumentIds.MaxKeyBytes];
    private readonly byte[] _scratch = new byte[EtagBlock.MaxBytes + EtagBlock.MaxEntryBytes];
    private readonly byte[] _scratchKey = new byte[CollectionNumbers.MaxKeyLength];
    private int _keyLength;
    private int _length;
    private int _lastIdLength;
    private long _lastEtag;
    private uint _number;
    private bool _tail;
    private Tree? _tree;
    private TreeCursor? _cursor;

    private Tree Tree => _tree ?? throw new InvalidOperationException("The collection etag index was not given its tree.");

    // One cursor a transaction, positioned afresh by every seek (a write to the tree leaves it unpositioned), so an
    // update or delete does not allocate one.
    private TreeCursor Cursor => _cursor ?? throw new InvalidOperationException("The collection etag index was not given its tree.");

    /// <summary>Writes to <paramref name="tree"/> from now on, forgetting the block written last (which a rolled-back transaction may not hold).</summary>
    public CollectionEtagIndex Use(Tree tree)
    {
        _tree = tree;
        _cursor = tree.CreateCursor();
        _tail = false;
        return this;
    }

    /// <summary>Adds a document of collection <paramref name="number"/> at <paramref name="etag"/>, above every etag the collection holds.</summary>
    public void Add(uint number, long etag, ReadOnlySpan<byte> idKey)
    {
        if (!_tail || _number != number)
            LoadTail(number, etag);
        if (_tail && etag <= _lastEtag)
            throw new InvalidOperationException($"Etag {etag} is not above the last etag ({_lastEtag}) of its collection's index.");
        var count = _tail ? _block[0] : 0;
        var delta = etag - _lastEtag;
        if (!_tail || count >= EtagBlock.MaxEntries || _length + EtagBlock.EntryLength(delta, _lastId.AsSpan(0, _lastIdLength), idKey) > EtagBlock.MaxBytes)
        {
            _keyLength = CollectionNumbers.WriteKey(number, etag, _key);
            _number = number;
            _length = 1;
            _lastIdLength = 0;
            _lastEtag = etag;
            delta = 0;
            count = 0;
            _tail = true;
        }
        _length = EtagBlock.WriteEntry(_block, _length, delta, _lastId.AsSpan(0, _lastIdLength), idKey);
        _block[0] = (byte)(count + 1);
        idKey.CopyTo(_lastId);
        _lastIdLength = idKey.Length;
        _lastEtag = etag;
        Tree.Put(_key.AsSpan(0, _keyLength), _block.AsSpan(0, _length));
    }

    /// <summary>Removes the document of collection <paramref name="number"/> at <paramref name="etag"/>; false when the index does not hold it.</summary>
    public bool Remove(uint number, long etag)
    {
        var keyLength = CollectionNumbers.WriteKey(number, etag, _scratchKey);
        var prefixLength = keyLength - 8;
        var cursor = Cursor;
        if (!cursor.SeekLastAtOrBefore(_scratchKey.AsSpan(0, keyLength)) || !cursor.Key.StartsWith(_scratchKey.AsSpan(0, prefixLength)))
            return false;
        var blockKey = cursor.Key;
        var block = cursor.Value;
        var count = EtagBlock.Count(block);
        var entryEtag = CollectionNumbers.EtagOf(blockKey);
        var previousEtag = entryEtag;
        var idLength = 0;
        var keptIdLength = 0;
        var offset = 1;
        var written = 1;
        var found = false;
        for (var i = 0; i < count; i++)
        {
            offset = EtagBlock.ReadEntry(block, offset, ref entryEtag, ref _readId, ref idLength);
            if (entryEtag == etag && !found)
            {
                found = true;
                continue;
            }
            written = EtagBlock.WriteEntry(_scratch, written, entryEtag - previousEtag, _keptId.AsSpan(0, keptIdLength), _readId.AsSpan(0, idLength));
            _readId.AsSpan(0, idLength).CopyTo(_keptId);
            keptIdLength = idLength;
            previousEtag = entryEtag;
        }
        if (!found)
            return false;
        // When this is the block written last, it is found and decoded again on the next add; a block before it leaves
        // the kept one as it is, so a batch of updates to one collection does not decode its last block for each.
        if (_tail && blockKey.SequenceEqual(_key.AsSpan(0, _keyLength)))
            _tail = false;
        blockKey.CopyTo(_scratchKey);
        var length = blockKey.Length;
        if (count == 1)
        {
            Tree.Delete(_scratchKey.AsSpan(0, length));
            return true;
        }
        _scratch[0] = (byte)(count - 1);
        Tree.Put(_scratchKey.AsSpan(0, length), _scratch.AsSpan(0, written));
        return true;
    }

    /// <summary>Finds the collection's last block and decodes where it ends; none when the collection has no block yet.</summary>
    private void LoadTail(uint number, long etag)
    {
        _tail = false;
        _number = number;
        var keyLength = CollectionNumbers.WriteKey(number, etag, _key);
        var cursor = Cursor;
        if (!cursor.SeekLastAtOrBefore(_key.AsSpan(0, keyLength)) || !cursor.Key.StartsWith(_key.AsSpan(0, keyLength - 8)))
            return;
        var block = cursor.Value;
        if (block.Length > _block.Length)
            throw new CorruptionException("An entry of the collection etag index is longer than a block can be.");
        _keyLength = cursor.Key.Length;
        cursor.Key.CopyTo(_key);
        block.CopyTo(_block);
        _length = block.Length;
        var count = EtagBlock.Count(block);
        _lastEtag = CollectionNumbers.EtagOf(cursor.Key);
        _lastIdLength = 0;
        var offset = 1;
        for (var i = 0; i < count; i++)
            offset = EtagBlock.ReadEntry(_block, offset, ref _lastEtag, ref _lastId, ref _lastIdLength);
        if (offset != _length)
            throw new CorruptionException("An entry of the collection etag index holds bytes after its last document.");
        _tail = true;
    }
}
