using Folio.Indexing.Postings;
using Folio.Indexing.Search;
using Folio.Storage.Trees;

namespace Folio.Indexing.Queries.Iterators;

/// <summary>
/// Walks one term's posting chunks in id order. <see cref="Advance"/> first tries the loaded chunk
/// (whose skip table jumps blocks), then seeks the chunk that can hold the target by its key, so a
/// long list is crossed without reading the chunks in between. A list kept inline in the term's
/// header is loaded as the only chunk.
/// </summary>
public sealed class TermIterator : DocIdIterator
{
    private readonly TreeCursor? _cursor;
    private readonly Tree? _sealed;
    private readonly byte[] _termKey;
    private readonly long _documentFrequency;
    private readonly PostingsIterator _chunk;
    private readonly SearchScratch _scratch;
    private readonly int _generation;
    private bool _released;
    private byte[] _buffer;
    private long _loadedChunkFirst = -1;
    private bool _positioned;
    // The ids of deleted entries the postings still hold (DeadEntries), a bit per id: one test per posting.
    private readonly ulong[]? _dead;

    /// <summary>
    /// Walks the postings of the term whose key is <paramref name="termKey"/> and whose header (its value
    /// in <paramref name="terms"/>) is <paramref name="header"/>, reading sealed chunks from <paramref name="sealedChunks"/>
    /// and decoding into buffers lent by <paramref name="scratch"/>, skipping the ids whose bits <paramref name="dead"/> sets.
    /// </summary>
    internal TermIterator(Tree terms, Tree? sealedChunks, byte[] termKey, ReadOnlySpan<byte> header, SearchScratch scratch, ulong[]? dead = null)
    {
        _dead = dead;
        _sealed = sealedChunks;
        _termKey = termKey;
        _documentFrequency = PostingStore.DocumentFrequency(header);
        _scratch = scratch;
        _generation = scratch.Generation;
        _chunk = scratch.RentDecoder();
        _buffer = scratch.RentBuffer(header.Length);
        if (PostingStore.IsChunked(header))
        {
            _cursor = terms.CreateCursor();
            return;
        }
        // The header lives in the snapshot's page only while no cursor moves, so the list is copied.
        header.CopyTo(_buffer);
        _chunk.Reset(_buffer.AsMemory(0, header.Length));
        _loadedChunkFirst = 0;
    }

    /// <summary>How many entries have the term.</summary>
    public long DocumentFrequency => _documentFrequency;

    /// <summary>How often the term occurs in the current entry's field (1 for fields without frequencies).</summary>
    public int Frequency => _released ? 0 : _chunk.Frequency;

    /// <inheritdoc/>
    public override long Cost => _documentFrequency;

    /// <inheritdoc/>
    public override bool MoveNext()
    {
        // The step within a loaded chunk, first and in place: a posting walk takes it for nearly every id.
        if (_loadedChunkFirst >= 0 && Current != NoMoreIds)
        {
            EnsureSearcherOpen();
            while (_chunk.MoveNext())
            {
                var id = _chunk.Current;
                if (_dead is null || !IsDead(id))
                {
                    Current = id;
                    return true;
                }
            }
        }
        return _dead is null ? MoveNextStored() : MoveNextStored() && SkipDead();
    }

    /// <inheritdoc/>
    public override bool Advance(long target) => _dead is null ? AdvanceStored(target) : AdvanceStored(target) && SkipDead();

    /// <summary>Moves past the current id while it is a dead entry's; false when the postings end first.</summary>
    private bool SkipDead()
    {
        while (IsDead(Current))
        {
            if (!MoveNextStored())
                return false;
        }
        return true;
    }

    private bool IsDead(long id) => DeadSet.IsSet(_dead!, id);

    private bool MoveNextStored()
    {
        if (Current == NoMoreIds)
            return false;
        EnsureSearcherOpen();
        if (_loadedChunkFirst >= 0 && _chunk.MoveNext())
        {
            Current = _chunk.Current;
            return true;
        }
        while (NextChunk())
        {
            if (_chunk.MoveNext())
            {
                Current = _chunk.Current;
                return true;
            }
        }
        return End();
    }

    private bool AdvanceStored(long target)
    {
        if (Current >= target)
            return Current != NoMoreIds;
        EnsureSearcherOpen();
        if (_loadedChunkFirst >= 0 && _chunk.Advance(target))
        {
            Current = _chunk.Current;
            return true;
        }
        if (_cursor is null)
            return End();
        if (_cursor.SeekLastAtOrBefore(TermEncoding.ChunkKey(_termKey, target)) && PostingStore.IsChunkOf(_cursor.Key, _termKey)
            && ChunkFirst() > _loadedChunkFirst)
        {
            _positioned = true;
            Load();
            if (_chunk.Advance(target))
            {
                Current = _chunk.Current;
                return true;
            }
        }
        else if (_loadedChunkFirst >= 0)
        {
            // The cursor may have moved off the loaded chunk; put it back so NextChunk continues from there.
            _cursor.Seek(TermEncoding.ChunkKey(_termKey, _loadedChunkFirst));
        }
        while (NextChunk())
        {
            if (_chunk.Advance(target))
            {
                Current = _chunk.Current;
                return true;
            }
        }
        return End();
    }

    private bool NextChunk()
    {
        if (_cursor is null)
            return false;
        bool moved;
        if (!_positioned)
        {
            _positioned = true;
            moved = _cursor.Seek(_termKey) && (PostingStore.IsChunkOf(_cursor.Key, _termKey) || (_cursor.Key.SequenceEqual(_termKey) && _cursor.MoveNext()));
        }
        else
        {
            moved = _cursor.MoveNext();
        }
        if (!moved || !PostingStore.IsChunkOf(_cursor.Key, _termKey))
            return false;
        Load();
        return true;
    }

    private void Load()
    {
        Span<byte> sealKey = stackalloc byte[8];
        var value = PostingStore.Chunk(_sealed, _cursor!.Value, sealKey);
        if (_buffer.Length < value.Length)
        {
            _scratch.Return(_buffer);
            _buffer = _scratch.RentBuffer(value.Length);
        }
        value.CopyTo(_buffer);
        _chunk.Reset(_buffer.AsMemory(0, value.Length));
        _loadedChunkFirst = ChunkFirst();
    }

    /// <summary>Gives the decoder and buffer back to the searcher's scratch early; the iterator must not be used again.</summary>
    internal void Release() => End();

    /// <summary>
    /// The decoder and buffers go back to the index when the searcher ends, and another searcher may be
    /// decoding into them: an iterator kept past its searcher must fail, not return another query's ids.
    /// </summary>
    private void EnsureSearcherOpen()
    {
        if (_scratch.Generation != _generation)
            throw new ObjectDisposedException(nameof(IndexSearcher), "The searcher this iterator came from was disposed.");
    }

    private long ChunkFirst() => System.Buffers.Binary.BinaryPrimitives.ReadInt64BigEndian(_cursor!.Key[_termKey.Length..]);

    /// <summary>
    /// Exhausted: the decoder and buffer go back at once, so a searcher kept open for many queries reuses
    /// them instead of holding one set per iterator it ever made. Nothing reads them after this: every
    /// member checks for the end first.
    /// </summary>
    private bool End()
    {
        Current = NoMoreIds;
        if (!_released)
        {
            _released = true;
            _scratch.Return(_chunk);
            _scratch.Return(_buffer);
            _buffer = [];
        }
        return false;
    }
}
