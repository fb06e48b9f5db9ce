using System.Buffers.Binary;
using Folio.Indexing.Postings;
using Folio.Indexing.Queries.Iterators;
using Folio.Indexing.Scoring;
using Folio.Storage.Trees;

namespace Folio.Indexing.Search;

// Postings: the iterators queries compile to (terms, points, marks, term walks into bit sets) and the positions phrases check.
public sealed partial class IndexSearcher
{
    internal DocIdIterator AllEntries() => new EntriesIterator(_entries.CreateCursor(), EntryCount);

    internal DocIdIterator Marks(string field, byte[] term)
    {
        var reader = Field(field);
        if (reader.Marks is null)
            return new EmptyIterator();
        var termKey = TermEncoding.TermKey(term);
        return reader.Marks.TryGet(termKey, out var header) ? new TermIterator(reader.Marks, null, termKey, header, _scratch) : new EmptyIterator();
    }

    internal DocIdIterator Postings(string field, byte[] term)
    {
        var reader = Field(field);
        if (reader.IsNumeric)
            return term.Length == 8 ? PointValueIterator.Create(reader.PointSets(), BinaryPrimitives.ReadUInt64BigEndian(term), NextEntryId) : new EmptyIterator();
        return (DocIdIterator?)TermPostings(field, term) ?? new EmptyIterator();
    }

    private TermIterator? TermPostings(string field, byte[] term)
    {
        var reader = Field(field);
        if (reader.Terms is null)
            return null;
        var termKey = TermEncoding.TermKey(term);
        return reader.Terms.TryGet(termKey, out var header) ? new TermIterator(reader.Terms, reader.Sealed, termKey, header, _scratch, DeadIn(field)) : null;
    }

    internal TermScorer? Scorer(string field, byte[] term)
    {
        var postings = TermPostings(field, term);
        if (postings is null)
            return null;
        var stats = Stats(field);
        var norms = Field(field).Norms;
        return new TermScorer(postings, norms is null ? null : new NormsColumn(norms, _scratch.RentBuffer(NormsColumn.CacheBytes)), Math.Max(stats.DocumentCount, postings.DocumentFrequency), stats.AverageLength);
    }

    /// <summary>
    /// The positions of each of a phrase's terms in <paramref name="field"/>, read entry by entry in ascending order (one
    /// reader for each distinct term); null for a term the field lacks (or a field without positions), which no entry then matches.
    /// </summary>
    internal TermPositions?[] Positions(string field, List<(byte[] Term, int Position)> terms)
    {
        var reader = Field(field);
        var readers = new TermPositions?[terms.Count];
        if (reader.Terms is null || reader.Positions is not { } positions)
            return readers;
        for (var i = 0; i < readers.Length; i++)
        {
            // A term the phrase repeats shares one reader, by which the phrase also tells its places apart from others'.
            var earlier = terms.FindIndex(0, i, t => t.Term.AsSpan().SequenceEqual(terms[i].Term));
            if (earlier >= 0)
            {
                readers[i] = readers[earlier];
                continue;
            }
            var termKey = TermEncoding.TermKey(terms[i].Term);
            if (reader.Terms.TryGet(termKey, out var header))
                readers[i] = new TermPositions(reader.Terms, reader.Sealed, positions, termKey, header);
        }
        return readers;
    }

    /// <summary>
    /// Walks the terms of <paramref name="field"/> from <paramref name="from"/> in order, asking
    /// <paramref name="verdict"/> about each, and unites the postings of those it takes into one bit set.
    /// </summary>
    /// <remarks>
    /// A term judged <see cref="TermVerdict.Verify"/> adds only the entries that have a whole value
    /// (from the doc values) passing <paramref name="check"/>; fields without doc values (full text)
    /// take such a term whole.
    /// </remarks>
    internal DocIdIterator UnionOfTerms<TState>(string field, byte[] from, Func<ReadOnlySpan<byte>, TState, TermVerdict> verdict, TState state,
        Func<ReadOnlySpan<byte>, TState, bool>? check = null)
    {
        var reader = Field(field);
        if (reader.IsNumeric)
            return UnionOfPoints(reader, from, verdict, state, check);
        if (reader.Terms is null)
            return new EmptyIterator();
        var cursor = reader.Terms.CreateCursor();
        ulong[]? bits = null;
        long count = 0;
        var ids = _scratch.WalkIds;
        var frequencies = _scratch.WalkFrequencies;
        // The walk may pass a million terms (a range over unique numbers), so a term and its key are
        // decoded into buffers it reuses rather than into arrays of their own.
        var term = _scratch.WalkTerm;
        var termKey = _scratch.WalkTermKey;
        Span<byte> sealKey = stackalloc byte[8];
        var more = from.Length == 0 ? cursor.First() : cursor.Seek(TermEncoding.TermKey(from));
        var walked = 0;
        while (more)
        {
            // A leading wildcard or a wide range walks every term of the field: the query's budget bounds it.
            if ((++walked & CancellationStride) == 0)
                Guard.Check();
            var key = cursor.Key;
            if (key.Length > term.Length)
            {
                term = new byte[key.Length];
                termKey = new byte[key.Length];
            }
            // Every walk starts and resumes at a term's own key, never among its chunks.
            if (!TermEncoding.TryDecodeKey(key, term, out var termLength, out var termKeyLength) || termKeyLength != key.Length)
                throw new Folio.Storage.CorruptionException($"The terms of field '{field}' hold a key that is not a term.");
            var decision = verdict(term.AsSpan(0, termLength), state);
            if (decision == TermVerdict.Stop)
                break;
            var header = cursor.Value;
            var chunked = PostingStore.IsChunked(header);
            if (decision == TermVerdict.Skip)
            {
                more = chunked ? cursor.Seek(TermEncoding.AfterTerm(key)) : cursor.MoveNext();
                continue;
            }
            if (decision == TermVerdict.Verify && check is not null && (reader.Values is not null || reader.Column is not null) && _index.Schema.Get(field).Kind != FieldKind.FullText)
            {
                var verifiedKey = key.ToArray();
                var postings = new TermIterator(reader.Terms, reader.Sealed, verifiedKey, header, _scratch);
                bits ??= RentBits();
                while (postings.MoveNext())
                {
                    var id = postings.Current;
                    var mask = 1UL << (int)(id & 63);
                    if ((bits[id >> 6] & mask) == 0 && AnyDocValue(reader, id, check, state))
                    {
                        bits[id >> 6] |= mask;
                        count++;
                    }
                }
                // A walk may verify a great many terms; each gives its buffers back before the next.
                postings.Release();
                more = cursor.Seek(TermEncoding.AfterTerm(verifiedKey));
                continue;
            }
            bits ??= RentBits();
            if (!chunked)
            {
                count += AddToBits(header, bits, ref ids, ref frequencies);
                more = cursor.MoveNext();
                continue;
            }
            // A term's chunks follow its own key, so the cursor already on the term reads them in
            // place: seeking each taken term again (and once more past it) cost three descents per term,
            // which is most of a range over many rare terms, such as one over unique numbers.
            key.CopyTo(termKey);
            more = cursor.MoveNext();
            while (more && PostingStore.IsChunkOf(cursor.Key, termKey.AsSpan(0, termKeyLength)))
            {
                count += AddToBits(PostingStore.Chunk(reader.Sealed, cursor.Value, sealKey), bits, ref ids, ref frequencies);
                more = cursor.MoveNext();
            }
        }
        _scratch.WalkIds = ids;
        _scratch.WalkFrequencies = frequencies;
        _scratch.WalkTerm = term;
        _scratch.WalkTermKey = termKey;
        count -= ClearDead(field, bits);
        return bits is null ? new EmptyIterator() : new BitSetIterator(bits, count, _scratch.ReleaseBits);
    }

    /// <summary>
    /// <see cref="UnionOfTerms"/> over a numeric field's points: each distinct value from <paramref name="from"/>
    /// on is a term (its 8 bytes) that the verdict judges once in each set of points (the main blocks, each run),
    /// and the points of taken values set their bits.
    /// </summary>
    private DocIdIterator UnionOfPoints<TState>(FieldReader reader, byte[] from, Func<ReadOnlySpan<byte>, TState, TermVerdict> verdict, TState state,
        Func<ReadOnlySpan<byte>, TState, bool>? check)
    {
        ulong[]? bits = null;
        long count = 0;
        foreach (var blocks in reader.PointSets())
            UnionOfPoints(reader, blocks, from, verdict, state, check, ref bits, ref count);
        return Bits(bits, count);
    }

    private void UnionOfPoints<TState>(FieldReader reader, PointBlocks blocks, byte[] from, Func<ReadOnlySpan<byte>, TState, TermVerdict> verdict, TState state,
        Func<ReadOnlySpan<byte>, TState, bool>? check, ref ulong[]? bits, ref long count)
    {
        var cursor = blocks.Tree.CreateCursor();
        Span<byte> key = stackalloc byte[PointBlocks.MaxKeySize];
        Span<byte> start = stackalloc byte[8];
        from.AsSpan(0, Math.Min(8, from.Length)).CopyTo(start);
        if (!blocks.SeekBlockOf(cursor, new Point(BinaryPrimitives.ReadUInt64BigEndian(start), 0), key))
            return;
        Span<byte> term = stackalloc byte[8];
        var decision = TermVerdict.Skip;
        var judged = false;
        var value = 0UL;
        do
        {
            Guard.Check();
            var block = new PointBlock.Reader(blocks.PointKey(cursor.Key), cursor.Value);
            while (block.MoveNext())
            {
                var point = block.Current;
                if (!judged || point.Value != value)
                {
                    value = point.Value;
                    BinaryPrimitives.WriteUInt64BigEndian(term, value);
                    // Values before the walk's start are not terms it reaches (a prefix's verdict would stop at them).
                    if (term.SequenceCompareTo(from) < 0)
                        continue;
                    decision = verdict(term, state);
                    judged = true;
                    if (decision == TermVerdict.Stop)
                        return;
                }
                if (decision == TermVerdict.Skip)
                    continue;
                bits ??= RentBits();
                ref var slot = ref bits[point.Id >> 6];
                var mask = 1UL << (int)(point.Id & 63);
                if ((slot & mask) != 0 || (decision == TermVerdict.Verify && check is not null && reader.Column is not null && !AnyDocValue(reader, point.Id, check, state)))
                    continue;
                slot |= mask;
                count++;
            }
        }
        while (blocks.MoveNext(cursor));
    }

    private DocIdIterator Bits(ulong[]? bits, long count) =>
        bits is null ? new EmptyIterator() : new BitSetIterator(bits, count, _scratch.ReleaseBits);

    /// <summary>
    /// A cleared bit set over every entry id. One is a large-object allocation (125 KB at a million
    /// entries) whose fresh pages cost more to touch than a small range query spends on its terms, so an
    /// exhausted union hands its cleared set back for the next query.
    /// </summary>
    private ulong[] RentBits() => _scratch.RentBits(NextEntryId);

    /// <summary>Sets the bits of an encoded posting list's ids; returns how many were not set before.</summary>
    private static int AddToBits(ReadOnlySpan<byte> postings, ulong[] bits, ref long[] ids, ref int[] frequencies)
    {
        var header = PostingsHeader.Read(postings);
        var size = header.Count;
        if (ids.Length < size)
        {
            ids = new long[(size + PostingsFormat.BlockSize - 1) / PostingsFormat.BlockSize * PostingsFormat.BlockSize];
            frequencies = new int[ids.Length];
        }
        if (header.BlockCount == 0)
        {
            // A short list is only a varint stream: decoding it here skips the whole-list decoder's
            // block scratch, which costs more than the one or few ids of a rare term.
            var position = header.StreamStart;
            header.DecodeStream(postings, ref position, -1, ids.AsSpan(0, size), frequencies);
            if (position != postings.Length)
                PostingsFormat.ThrowCorrupt("bytes after the end of the list");
        }
        else
        {
            PostingsDecoder.Decode(postings, ids, default);
        }
        var added = 0;
        for (var i = 0; i < size; i++)
        {
            ref var slot = ref bits[ids[i] >> 6];
            var mask = 1UL << (int)(ids[i] & 63);
            if ((slot & mask) == 0)
            {
                slot |= mask;
                added++;
            }
        }
        return added;
    }
}
