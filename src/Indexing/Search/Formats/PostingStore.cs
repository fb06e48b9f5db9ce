using System.Buffers.Binary;
using Folio.Indexing.Postings;
using Folio.Storage;
using Folio.Storage.Trees;

namespace Folio.Indexing.Search;

/// <summary>
/// The posting lists of one field, in one terms tree. A term's key holds a header: either the term's
/// whole posting list when it has at most <see cref="InlineLimit"/> ids, or its document frequency when
/// its postings are chunks of at most <see cref="ChunkSize"/> ids under the term key plus the chunk's
/// first id. New entries always get higher ids than any before, so a batch appends to a term's last
/// chunk (or opens new ones) instead of rewriting a long list, and a delete rewrites only the chunks it hits.
/// <para>A chunk that will not be extended again (it has <see cref="ExtendLimit"/> ids) is sealed: its bytes go
/// to the field's sealed tree under the next sequence number, and its entry in the terms tree only refers to
/// them. Every batch adds a chunk to the end of each frequent term's list, all over the terms tree, whose
/// leaves therefore split in halves and stayed about 65% full; the sealed tree only ever grows at its end and
/// packs its leaves (docs/benchmarks.md).</para>
/// </summary>
/// <remarks>
/// A header starting with <see cref="ChunkedTag"/> is followed by the frequency as a varint; any other
/// header is an encoded posting list, whose first byte (a layout flag) is never zero. A term is inline
/// exactly when it has 1 to <see cref="InlineLimit"/> ids, whichever way it got there, so the form
/// never depends on a term's history. Inline lists exist because a field of unique values (timestamps)
/// otherwise pays a second tree entry, and a range over it a second cursor step, for every single id.
/// </remarks>
internal sealed partial class PostingStore
{
    public const int ChunkSize = 4096;

    /// <summary>
    /// A batch appends to a term's last chunk only while that chunk has fewer ids than this; otherwise its
    /// additions open a new chunk. Extending means decoding the chunk and encoding it again with the
    /// additions, so every batch re-encoded up to 4,096 ids for each frequent term; at 1M benchmark
    /// records, bounding it at 512 halved the time spent applying a text field's postings, left the index
    /// no larger and full-text queries no slower (docs/benchmarks.md).
    /// </summary>
    public const int ExtendLimit = 512;

    /// <summary>
    /// The most ids a term keeps in its header instead of in chunks. Beyond one id this catches the
    /// colliding values of a mostly unique field and the rarest terms of others; at 100,000 benchmark
    /// records 4 was 1% smaller than 1 and no slower (docs/benchmarks.md).
    /// </summary>
    public const int InlineLimit = 4;

    /// <summary>The first byte of a header whose postings are in chunks.</summary>
    public const byte ChunkedTag = 0;

    /// <summary>
    /// The first byte of a chunk entry whose chunk is sealed, followed by the chunk's sequence number as a
    /// varint; an encoded chunk starts with its layout flag, never zero.
    /// </summary>
    public const byte SealedTag = 0;

    private readonly Tree _terms;
    // The field's positions (full text); null for other fields.
    private readonly PositionTrees? _positions;
    private readonly Func<Tree>? _openSealed;
    private Tree? _sealed;
    private readonly bool _withFrequencies;
    private readonly byte[] _sealKey = new byte[8];
    // The sequence number the next sealed chunk gets; read from the sealed tree when the first chunk is sealed.
    private long _nextSeal = -1;
    // Borrowed from the batch (StoreBuffers), whose other stores may grow them: each store reads them again when it needs more.
    private readonly StoreBuffers _buffers;
    private long[] _ids;
    private int[] _frequencies;
    private byte[] _encoded;
    private byte[] _termKey = new byte[TermEncoding.MaxTermKeyLength(TermEncoding.MaxTermBytes)];
    // One cursor for every term of a batch; each use positions it again (Seek) after the tree changed.
    private TreeCursor? _cursor;

    /// <summary>
    /// Changes the postings in <paramref name="terms"/>, sealing full chunks into the tree <paramref name="openSealedChunks"/>
    /// opens (or creates) when first needed (or, without one, keeping every chunk in the terms tree: the marks
    /// have few terms, each growing at its end). <paramref name="buffers"/> are the batch's (its own without).
    /// A full-text field's store keeps each list's positions in <paramref name="positions"/> (<see cref="PositionLists"/>).
    /// </summary>
    public PostingStore(Tree terms, Func<Tree>? openSealedChunks, bool withFrequencies, StoreBuffers? buffers = null, PositionTrees? positions = null)
    {
        if (positions is not null && !withFrequencies)
            throw new ArgumentException("Positions go with frequencies, which say how many an id has.", nameof(positions));
        _terms = terms;
        _positions = positions;
        _openSealed = openSealedChunks;
        _withFrequencies = withFrequencies;
        _buffers = buffers ?? new StoreBuffers();
        _ids = _buffers.Ids;
        _frequencies = _buffers.Frequencies;
        _encoded = _buffers.Encoded;
    }

    // The sealed chunks' tree; null for a store that does not seal.
    private Tree? SealedChunks => _sealed ??= _openSealed?.Invoke();

    /// <summary>
    /// Applies one batch's changes to a term: <paramref name="removals"/> (sorted, possibly absent ids)
    /// come out, <paramref name="additions"/> (sorted, all newer than any id of the term) go in, with their
    /// <paramref name="positions"/> in a store that keeps them (as many for an addition as its frequency).
    /// Returns whether the term has postings afterwards.
    /// </summary>
    public bool Apply(ReadOnlySpan<byte> term, ReadOnlySpan<long> additions, ReadOnlySpan<int> frequencies, ReadOnlySpan<int> positions, ReadOnlySpan<long> removals)
    {
        if (_positions is not null && positions.Length != PositionLists.Count(frequencies))
            throw new ArgumentException("A full-text term's additions need as many positions as their frequencies say.", nameof(positions));
        if (_termKey.Length < TermEncoding.MaxTermKeyLength(term.Length))
            _termKey = new byte[TermEncoding.MaxTermKeyLength(term.Length)];
        ReadOnlySpan<byte> termKey = _termKey.AsSpan(0, TermEncoding.TermKey(term, _termKey));
        if (!_terms.TryGet(termKey, out var header))
            return ApplyInline(termKey, 0, additions, frequencies, positions, removals);
        if (IsChunked(header))
            return ApplyChunked(termKey, ChunkedFrequency(header), additions, frequencies, positions, removals);
        var count = Decode(header);
        LoadPositions(termKey, -1, 0, count);
        return ApplyInline(termKey, count, additions, frequencies, positions, removals);
    }

    /// <summary>How many entries have the term.</summary>
    public static long DocumentFrequency(Tree terms, ReadOnlySpan<byte> termKey) =>
        terms.TryGet(termKey, out var header) ? DocumentFrequency(header) : 0;

    /// <summary>How many entries have the term whose header this is.</summary>
    public static long DocumentFrequency(ReadOnlySpan<byte> header) =>
        IsChunked(header) ? ChunkedFrequency(header) : PostingsDecoder.GetCount(header);

    /// <summary>Whether a term header stands for chunks (otherwise it is the term's encoded posting list).</summary>
    public static bool IsChunked(ReadOnlySpan<byte> header) => !header.IsEmpty && header[0] == ChunkedTag;

    /// <summary>Whether a chunk entry's value refers to a sealed chunk (otherwise it is the chunk).</summary>
    public static bool IsSealed(ReadOnlySpan<byte> stored) => !stored.IsEmpty && stored[0] == SealedTag;

    /// <summary>
    /// The encoded chunk a chunk entry's value stands for: the value itself, or the sealed chunk it refers to,
    /// read from <paramref name="sealedChunks"/> (valid until that tree changes). <paramref name="key"/> is
    /// 8 bytes of scratch for the lookup.
    /// </summary>
    public static ReadOnlySpan<byte> Chunk(Tree? sealedChunks, ReadOnlySpan<byte> stored, Span<byte> key)
    {
        if (stored.IsEmpty)
            throw new CorruptionException("A posting chunk entry is empty.");
        if (!IsSealed(stored))
            return stored;
        WriteSealKey(ReadSeal(stored), key);
        if (sealedChunks is null || !sealedChunks.TryGet(key[..8], out var chunk))
            throw new CorruptionException("A posting chunk refers to a sealed chunk the index does not have.");
        return chunk;
    }

    // The chunk a chunk entry's value stands for; the sealed tree is opened only for a sealed one.
    private ReadOnlySpan<byte> StoredChunk(ReadOnlySpan<byte> stored) => Chunk(IsSealed(stored) ? SealedChunks : null, stored, _sealKey);

    private static long ReadSeal(ReadOnlySpan<byte> stored)
    {
        var position = 1;
        ulong seal;
        try
        {
            seal = Varint.Read(stored, ref position);
        }
        catch (InvalidDataException)
        {
            throw new CorruptionException("A posting chunk's reference to a sealed chunk is cut short.");
        }
        if (position != stored.Length || seal > long.MaxValue)
            throw new CorruptionException("A posting chunk's reference to a sealed chunk is malformed.");
        return (long)seal;
    }

    private static void WriteSealKey(long seal, Span<byte> key) => BinaryPrimitives.WriteInt64BigEndian(key, seal);

    private static long ChunkedFrequency(ReadOnlySpan<byte> header)
    {
        var position = 1;
        return (long)Varint.Read(header, ref position);
    }

    /// <summary>Changes a term whose <paramref name="count"/> ids (if any) are in the buffers, having come from its header.</summary>
    private bool ApplyInline(ReadOnlySpan<byte> termKey, int count, ReadOnlySpan<long> additions, ReadOnlySpan<int> frequencies, ReadOnlySpan<int> positions,
        ReadOnlySpan<long> removals)
    {
        var kept = 0;
        var next = 0;
        int read = 0, write = 0;
        for (var i = 0; i < count; i++)
        {
            while (next < removals.Length && removals[next] < _ids[i])
                next++;
            var removed = next < removals.Length && removals[next] == _ids[i];
            KeepPositions(ref read, ref write, _frequencies[i], !removed);
            if (removed)
                continue;
            _ids[kept] = _ids[i];
            _frequencies[kept] = _frequencies[i];
            kept++;
        }
        if (kept > 0 && !additions.IsEmpty && _ids[kept - 1] >= additions[0])
            throw new InvalidOperationException("Postings must be appended in increasing id order.");
        var total = kept + additions.Length;
        if (total == 0)
        {
            _terms.Delete(termKey);
            DeletePositions(termKey);
            return false;
        }
        if (total > InlineLimit)
        {
            DeletePositions(termKey);
            Append(termKey, additions, frequencies, positions, kept);
            WriteChunkedHeader(termKey, total);
            return true;
        }
        AppendPositions(kept, positions);
        additions.CopyTo(_ids.AsSpan(kept));
        if (_withFrequencies)
            frequencies.CopyTo(_frequencies.AsSpan(kept));
        WriteInline(termKey, total);
        return true;
    }

    private bool ApplyChunked(ReadOnlySpan<byte> termKey, long frequency, ReadOnlySpan<long> additions, ReadOnlySpan<int> frequencies, ReadOnlySpan<int> positions,
        ReadOnlySpan<long> removals)
    {
        if (!removals.IsEmpty)
            frequency -= Remove(termKey, removals);
        if (!additions.IsEmpty)
        {
            Append(termKey, additions, frequencies, positions, LastChunkToExtend(termKey, additions[0]));
            frequency += additions.Length;
        }
        return WriteChunkedTerm(termKey, frequency);
    }

    /// <summary>
    /// The term's own entry once its chunks are written: gone without postings, its list inline when it has few enough
    /// ids, otherwise the count of its ids. Returns whether the term has postings.
    /// </summary>
    private bool WriteChunkedTerm(ReadOnlySpan<byte> termKey, long frequency)
    {
        if (frequency <= 0)
        {
            _terms.Delete(termKey);
            DeletePositions(termKey);
            return false;
        }
        if (frequency <= InlineLimit)
            WriteInline(termKey, TakeChunks(termKey));
        else
            WriteChunkedHeader(termKey, frequency);
        return true;
    }

    /// <summary>Reads every chunk of a term into the buffers and deletes them (for a list short enough to go inline).</summary>
    private int TakeChunks(ReadOnlySpan<byte> termKey)
    {
        var count = 0;
        var chunkKeys = new List<byte[]>();
        var cursor = _cursor ??= _terms.CreateCursor();
        var more = cursor.Seek(TermEncoding.ChunkKey(termKey, 0));
        var seals = new List<long>();
        while (more && IsChunkOf(cursor.Key, termKey))
        {
            chunkKeys.Add(cursor.Key.ToArray());
            var stored = cursor.Value;
            var seal = IsSealed(stored) ? ReadSeal(stored) : -1;
            if (seal >= 0)
                seals.Add(seal);
            var decoded = PostingsDecoder.Decode(StoredChunk(stored), _ids.AsSpan(count), _frequencies.AsSpan(count));
            LoadPositions(cursor.Key, seal, count, decoded);
            count += decoded;
            more = cursor.MoveNext();
        }
        foreach (var chunkKey in chunkKeys)
        {
            _terms.Delete(chunkKey);
            DeletePositions(chunkKey);
        }
        foreach (var seal in seals)
            DeleteSealed(seal);
        return count;
    }

    private void WriteInline(ReadOnlySpan<byte> termKey, int count)
    {
        var length = PostingsEncoder.Encode(_ids.AsSpan(0, count), _withFrequencies ? _frequencies.AsSpan(0, count) : default, _encoded);
        _terms.Put(termKey, _encoded.AsSpan(0, length));
        PutPositions(termKey, count);
    }

    private void WriteChunkedHeader(ReadOnlySpan<byte> termKey, long frequency)
    {
        Span<byte> header = stackalloc byte[11];
        header[0] = ChunkedTag;
        var length = Varint.Write(header, 1, (ulong)frequency);
        _terms.Put(termKey, header[..length]);
    }

    private int Remove(ReadOnlySpan<byte> termKey, ReadOnlySpan<long> removals)
    {
        var removed = 0;
        var cursor = _cursor ??= _terms.CreateCursor();
        var next = 0;
        while (next < removals.Length)
        {
            var target = removals[next];
            if (!cursor.SeekLastAtOrBefore(TermEncoding.ChunkKey(termKey, target)) || !IsChunkOf(cursor.Key, termKey))
            {
                next++;
                continue;
            }
            var chunkKey = cursor.Key.ToArray();
            var stored = cursor.Value;
            var seal = IsSealed(stored) ? ReadSeal(stored) : -1;
            var count = Decode(StoredChunk(stored));
            LoadPositions(chunkKey, seal, 0, count);
            var kept = 0;
            var lastId = _ids[count - 1];
            int read = 0, write = 0;
            for (var i = 0; i < count; i++)
            {
                while (next < removals.Length && removals[next] < _ids[i])
                    next++;
                var gone = next < removals.Length && removals[next] == _ids[i];
                KeepPositions(ref read, ref write, _frequencies[i], !gone);
                if (gone)
                {
                    removed++;
                    next++;
                    continue;
                }
                _ids[kept] = _ids[i];
                _frequencies[kept] = _frequencies[i];
                kept++;
            }
            while (next < removals.Length && removals[next] <= lastId)
                next++;
            // A target past this chunk's last id is in no chunk (the next chunk starts after it).
            if (next < removals.Length && removals[next] == target)
                next++;
            if (kept == count)
                continue;
            _terms.Delete(chunkKey);
            DeletePositions(chunkKey);
            if (seal < 0)
            {
                if (kept > 0)
                    Write(termKey, kept);
            }
            else if (kept > 0)
            {
                // The chunk keeps its sequence number and shrinks in place: a new one would go to the end of the
                // sealed tree and leave a hole where it was.
                Seal(termKey, kept, seal);
            }
            else
            {
                DeleteSealed(seal);
            }
        }
        return removed;
    }

    /// <summary>
    /// How many ids of the term's last chunk are now in the buffers, to be rewritten with the additions
    /// (0 when that chunk is full and the additions open a new one).
    /// </summary>
    private int LastChunkToExtend(ReadOnlySpan<byte> termKey, long firstAddition)
    {
        var cursor = _cursor ??= _terms.CreateCursor();
        if (!cursor.SeekLastAtOrBefore(TermEncoding.ChunkKey(termKey, long.MaxValue)) || !IsChunkOf(cursor.Key, termKey))
            return 0;
        if (IsSealed(cursor.Value) || PostingsDecoder.GetCount(cursor.Value) >= ExtendLimit)
            return 0;
        var existing = Decode(cursor.Value);
        if (_ids[existing - 1] >= firstAddition)
            throw new InvalidOperationException("Postings must be appended in increasing id order.");
        LoadPositions(cursor.Key, -1, 0, existing);
        return existing;
    }

    /// <summary>Writes <paramref name="additions"/> as chunks after the <paramref name="count"/> ids already in the buffers.</summary>
    private void Append(ReadOnlySpan<byte> termKey, ReadOnlySpan<long> additions, ReadOnlySpan<int> frequencies, ReadOnlySpan<int> positions, int count)
    {
        var offset = 0;
        var positionOffset = 0;
        do
        {
            var take = Math.Min(ChunkSize - count, additions.Length - offset);
            if (_positions is not null)
            {
                var taken = PositionLists.Count(frequencies.Slice(offset, take));
                AppendPositions(count, positions.Slice(positionOffset, taken));
                positionOffset += taken;
            }
            additions.Slice(offset, take).CopyTo(_ids.AsSpan(count));
            if (_withFrequencies)
                frequencies.Slice(offset, take).CopyTo(_frequencies.AsSpan(count));
            count += take;
            offset += take;
            Write(termKey, count);
            count = 0;
        }
        while (offset < additions.Length);
    }

    private int Decode(ReadOnlySpan<byte> chunk)
    {
        var count = PostingsDecoder.GetCount(chunk);
        EnsureCapacity(count);
        return PostingsDecoder.Decode(chunk, _ids, _frequencies);
    }

    /// <summary>Writes the <paramref name="count"/> ids in the buffers as a chunk, sealed when it will not be extended.</summary>
    private void Write(ReadOnlySpan<byte> termKey, int count)
    {
        if (_openSealed is not null && count >= ExtendLimit)
        {
            // Whole blocks are sealed; the ids past them stay an open chunk for the next batch to extend, since
            // a list's last ids short of a block are written as varints, about twice their packed size.
            var sealedCount = count - count % PostingsEncoder.BlockSize;
            Seal(termKey, sealedCount, NextSeal());
            if (sealedCount == count)
                return;
            ShiftPositions(sealedCount, count);
            count -= sealedCount;
            _ids.AsSpan(sealedCount, count).CopyTo(_ids);
            _frequencies.AsSpan(sealedCount, count).CopyTo(_frequencies);
        }
        var length = Encode(count);
        var chunkKey = TermEncoding.ChunkKey(termKey, _ids[0]);
        _terms.Put(chunkKey, _encoded.AsSpan(0, length));
        PutPositions(chunkKey, count);
    }

    /// <summary>Writes the <paramref name="count"/> ids in the buffers as sealed chunk <paramref name="seal"/> and refers to it.</summary>
    private void Seal(ReadOnlySpan<byte> termKey, int count, long seal)
    {
        var length = Encode(count);
        WriteSealKey(seal, _sealKey);
        SealedChunks!.Put(_sealKey, _encoded.AsSpan(0, length));
        Span<byte> reference = stackalloc byte[11];
        reference[0] = SealedTag;
        var referenceLength = Varint.Write(reference, 1, (ulong)seal);
        var chunkKey = TermEncoding.ChunkKey(termKey, _ids[0]);
        _terms.Put(chunkKey, reference[..referenceLength]);
        // The chunk may have been open under this key until now (a last chunk extended past the limit).
        DeletePositions(chunkKey);
        PutSealedPositions(seal, count);
    }

    private int Encode(int count) =>
        PostingsEncoder.Encode(_ids.AsSpan(0, count), _withFrequencies ? _frequencies.AsSpan(0, count) : default, _encoded);

    private long NextSeal()
    {
        if (_nextSeal < 0)
        {
            var cursor = SealedChunks!.CreateCursor();
            _nextSeal = 0;
            if (cursor.Last())
            {
                if (cursor.Key.Length != 8 || BinaryPrimitives.ReadInt64BigEndian(cursor.Key) < 0)
                    throw new CorruptionException("The sealed posting chunks hold a key that is not a sequence number.");
                _nextSeal = BinaryPrimitives.ReadInt64BigEndian(cursor.Key) + 1;
            }
        }
        return _nextSeal++;
    }

    private void DeleteSealed(long seal)
    {
        WriteSealKey(seal, _sealKey);
        if (SealedChunks is not { } sealedChunks || !sealedChunks.Delete(_sealKey))
            throw new CorruptionException("A posting chunk refers to a sealed chunk the index does not have.");
        _positions?.Sealed.Delete(_sealKey);
    }

    private void EnsureCapacity(int count)
    {
        if (count <= _ids.Length)
            return;
        _buffers.EnsurePostings(count);
        _ids = _buffers.Ids;
        _frequencies = _buffers.Frequencies;
        _encoded = _buffers.Encoded;
    }

    /// <summary>The bytes <paramref name="count"/> postings with frequencies may take encoded.</summary>
    internal static int EncodedLength(int count) => PostingsEncoder.GetMaxEncodedLength(count, withFrequencies: true);

    internal static bool IsChunkOf(ReadOnlySpan<byte> key, ReadOnlySpan<byte> termKey) =>
        key.Length == termKey.Length + 8 && key.StartsWith(termKey);
}
