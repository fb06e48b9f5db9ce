using System.Buffers.Binary;
using System.Text;
using Folio.Indexing.Analysis;
using Folio.Indexing.Collectors;
using Folio.Indexing.Postings;
using Folio.Indexing.Queries;
using Folio.Indexing.Queries.Iterators;
using Folio.Indexing.Scoring;
using Folio.Storage.Transactions;
using Folio.Storage.Trees;

namespace Folio.Indexing.Search;

/// <summary>
/// Runs queries on one snapshot of an index (a read transaction): it never sees half a batch, and
/// what it returns stays consistent however many batches commit meanwhile. Dispose it to let go of
/// the snapshot.
/// </summary>
public sealed class IndexSearcher : IDisposable
{
    private readonly SearchIndex _index;
    private readonly ReadTransaction _transaction;
    private readonly Tree _entries;
    private readonly Tree _meta;
    private readonly Tree _shapes;
    // Positioned afresh by every entry lookup (keys of hits, phrase checks).
    private TreeCursor? _entryCursor;
    // The key of a hit, read from its entry block (front-coded against the keys before it there).
    private byte[]? _keyBuffer;
    private readonly Dictionary<string, FieldReader> _fields = new(StringComparer.Ordinal);
    private readonly SearchScratch _scratch;
    private bool _disposed;

    internal IndexSearcher(SearchIndex index, ReadTransaction transaction)
    {
        _index = index;
        _transaction = transaction;
        _entries = transaction.OpenTree(SearchIndex.EntriesTree)!;
        _meta = transaction.OpenTree(SearchIndex.MetaTree)!;
        _shapes = transaction.OpenTree(SearchIndex.ShapesTree)!;
        NextEntryId = SearchIndex.ReadInt64(_meta, SearchIndex.NextEntryKey);
        EntryCount = SearchIndex.ReadInt64(_meta, SearchIndex.EntryCountKey);
        _scratch = index.RentScratch();
    }

    /// <summary>The buffers this searcher's iterators borrow.</summary>
    internal SearchScratch Scratch => _scratch;

    /// <summary>The number of entries.</summary>
    public long EntryCount { get; }

    /// <summary>One past the highest entry id ever assigned (the size bit sets over entries need).</summary>
    public long NextEntryId { get; }

    /// <summary>The snapshot's read transaction (for state the caller keeps in the same environment).</summary>
    public ReadTransaction Transaction => _transaction;

    /// <summary>The matching entry ids in order (for callers that walk matches themselves).</summary>
    public DocIdIterator Iterate(Query query) => query.CreateIterator(this);

    /// <summary>How many entries match, without materializing them.</summary>
    public long Count(Query query)
    {
        var matches = query.CreateIterator(this);
        long count = 0;
        while (matches.MoveNext())
            count++;
        return count;
    }

    /// <summary>
    /// The page <paramref name="skip"/>..<paramref name="skip"/>+<paramref name="take"/> of the matches
    /// in <paramref name="sort"/> order (entry id order when none is given), with the total count.
    /// </summary>
    public TopDocs Search(Query query, int skip, int take, IReadOnlyList<SortField>? sort = null)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(skip);
        ArgumentOutOfRangeException.ThrowIfNegative(take);
        var matches = query.CreateIterator(this);
        if (sort is null || sort.Count == 0)
            return FirstInIdOrder(matches, skip, take);
        return new TopDocsCollector(this, sort, (int)Math.Min(int.MaxValue, (long)skip + take)).Collect(matches, skip);
    }

    private TopDocs FirstInIdOrder(DocIdIterator matches, int skip, int take)
    {
        var hits = new List<SearchHit>(Math.Min(take, 1024));
        long total = 0;
        while (matches.MoveNext())
        {
            if (total >= skip && hits.Count < take)
                hits.Add(new SearchHit(matches.Current, GetKey(matches.Current), matches.Score));
            total++;
        }
        return new TopDocs(total, hits);
    }

    private TreeCursor EntryCursor => _entryCursor ??= _entries.CreateCursor();

    /// <summary>The key an entry was indexed under.</summary>
    public string GetKey(long entryId)
    {
        Span<byte> entryKey = stackalloc byte[SearchIndex.MaxEntryKeySize];
        var key = _keyBuffer ??= new byte[SearchIndex.MaxKeyBytes];
        if (!EntryStore.TryGetKey(EntryCursor, entryId, entryKey, key, out var length))
            throw new Folio.Storage.CorruptionException($"Index entry {entryId} has no record.");
        return Encoding.UTF8.GetString(key, 0, length);
    }

    /// <summary>The totals of a full-text field.</summary>
    public FieldStats Stats(string field) =>
        _meta.TryGet(SearchIndex.FieldStatsKey(field), out var value) ? FieldStats.Read(value) : default;

    /// <summary>
    /// The values of a field of an entry, as indexed: numbers as numbers, exact text normalized,
    /// stored text as given. Null when the entry does not have the field (full-text fields keep none).
    /// </summary>
    public List<FieldValue>? GetValues(string field, long entryId)
    {
        var reader = Field(field);
        Span<byte> single = stackalloc byte[SingleValueSize];
        if (!TryGetDocValues(reader, entryId, single, out var encoded))
            return null;
        var values = new List<FieldValue>();
        var position = 0;
        var count = (int)ByteCoding.ReadVarint(encoded, ref position);
        for (var i = 0; i < count; i++)
        {
            var type = encoded[position++];
            if (type == DocValueType.Null)
            {
                values.Add(FieldValue.Null);
                continue;
            }
            var bytes = ByteCoding.ReadBytes(encoded, ref position);
            values.Add(type switch
            {
                DocValueType.Long => FieldValue.From(TermEncoding.DecodeLong(bytes)),
                DocValueType.Double => FieldValue.From(TermEncoding.DecodeDouble(bytes)),
                _ => FieldValue.From(Encoding.UTF8.GetString(bytes)),
            });
        }
        return values;
    }

    /// <summary>
    /// Counts, over the entries <paramref name="query"/> matches, how many have each value of
    /// <paramref name="field"/> (an entry counts once per distinct value): one pass, not one query per value.
    /// </summary>
    public Dictionary<FieldValue, long> CountTerms(Query query, string field)
    {
        var counts = new Dictionary<FieldValue, long>();
        var seen = new HashSet<FieldValue>();
        var matches = query.CreateIterator(this);
        while (matches.MoveNext())
        {
            var values = GetValues(field, matches.Current);
            if (values is null)
                continue;
            seen.Clear();
            foreach (var value in values)
            {
                if (seen.Add(value))
                    counts[value] = counts.GetValueOrDefault(value) + 1;
            }
        }
        return counts;
    }

    /// <summary>Counts, over the entries <paramref name="query"/> matches, how many have a value of <paramref name="field"/> in each range.</summary>
    public long[] CountRanges(Query query, string field, IReadOnlyList<ValueRange> ranges)
    {
        var counts = new long[ranges.Count];
        var bounds = new (byte[]? Lower, byte[]? Upper)[ranges.Count];
        for (var r = 0; r < ranges.Count; r++)
            bounds[r] = (ranges[r].Lower is { } l ? DocValueBound(field, l) : null, ranges[r].Upper is { } u ? DocValueBound(field, u) : null);
        var reader = Field(field);
        var matches = query.CreateIterator(this);
        Span<byte> single = stackalloc byte[SingleValueSize];
        while (matches.MoveNext())
        {
            if (!TryGetDocValues(reader, matches.Current, single, out var encoded))
                continue;
            for (var r = 0; r < ranges.Count; r++)
            {
                if (AnyValueIn(encoded, bounds[r].Lower, ranges[r].LowerInclusive, bounds[r].Upper, ranges[r].UpperInclusive))
                    counts[r]++;
            }
        }
        return counts;
    }

    /// <summary>A bound compared with doc values: for exact fields the whole normalized value (doc values are never shortened).</summary>
    private byte[]? DocValueBound(string field, FieldValue value)
    {
        var options = _index.Schema.Get(field);
        return options.Kind == FieldKind.Exact && value.Type != FieldValueType.Null
            ? Encoding.UTF8.GetBytes(options.NormalizeExact(value.ToString()))
            : EqualityTerm(field, value);
    }

    private static bool AnyValueIn(ReadOnlySpan<byte> encoded, byte[]? lower, bool lowerInclusive, byte[]? upper, bool upperInclusive)
    {
        var position = 0;
        var count = (int)ByteCoding.ReadVarint(encoded, ref position);
        for (var i = 0; i < count; i++)
        {
            if (encoded[position++] == DocValueType.Null)
                continue;
            var value = ByteCoding.ReadBytes(encoded, ref position);
            var aboveLower = lower is null || (value.SequenceCompareTo(lower) is var l && (l > 0 || (l == 0 && lowerInclusive)));
            var belowUpper = upper is null || (value.SequenceCompareTo(upper) is var u && (u < 0 || (u == 0 && upperInclusive)));
            if (aboveLower && belowUpper)
                return true;
        }
        return false;
    }

    /// <summary>The sort key of an entry's field: its smallest value's bytes, or null when missing or null.</summary>
    internal byte[]? SortValue(string field, long entryId)
    {
        var reader = Field(field);
        Span<byte> single = stackalloc byte[SingleValueSize];
        if (!TryGetDocValues(reader, entryId, single, out var encoded))
            return null;
        var position = 0;
        var count = (int)ByteCoding.ReadVarint(encoded, ref position);
        scoped ReadOnlySpan<byte> smallest = default;
        var found = false;
        for (var i = 0; i < count; i++)
        {
            if (encoded[position++] == DocValueType.Null)
                continue;
            var value = ByteCoding.ReadBytes(encoded, ref position);
            if (!found || value.SequenceCompareTo(smallest) < 0)
                smallest = value;
            found = true;
        }
        return found ? smallest.ToArray() : null;
    }

    /// <summary>Whether <paramref name="field"/> is declared numeric (an undeclared field is not; using it fails where it is read).</summary>
    internal bool IsNumeric(string field) => _index.Schema.Fields.TryGetValue(field, out var options) && options.IsNumeric;

    /// <summary>
    /// A reader of a numeric field's sort keys (with a block cache of its own, so give each walk its
    /// own); null when the field is not numeric or no entry ever had it.
    /// </summary>
    internal NumericColumn? NumericColumn(string field) =>
        Field(field).Column is { } column ? Folio.Indexing.Search.NumericColumn.ForSortKeys(column, decimals: false) : null;

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
            return reader.Points is not null && term.Length == 8 ? PointValueIterator.Create(reader.Points, BinaryPrimitives.ReadUInt64BigEndian(term), NextEntryId) : new EmptyIterator();
        return (DocIdIterator?)TermPostings(field, term) ?? new EmptyIterator();
    }

    private TermIterator? TermPostings(string field, byte[] term)
    {
        var reader = Field(field);
        if (reader.Terms is null)
            return null;
        var termKey = TermEncoding.TermKey(term);
        return reader.Terms.TryGet(termKey, out var header) ? new TermIterator(reader.Terms, reader.Sealed, termKey, header, _scratch) : null;
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

    /// <summary>The term an equality on <paramref name="field"/> looks for, or null when the value cannot be one of its terms.</summary>
    internal byte[]? EqualityTerm(string field, FieldValue value)
    {
        var options = _index.Schema.Get(field);
        try
        {
            switch (options.Kind)
            {
                case FieldKind.Long:
                    return value.Type switch
                    {
                        FieldValueType.Long => TermEncoding.Long(value.Long),
                        FieldValueType.Double when value.Double == Math.Floor(value.Double) && !double.IsInfinity(value.Double) => TermEncoding.Long((long)value.Double),
                        FieldValueType.String when long.TryParse(value.Text, System.Globalization.NumberStyles.Integer, System.Globalization.CultureInfo.InvariantCulture, out var parsed) => TermEncoding.Long(parsed),
                        _ => null,
                    };
                case FieldKind.Double:
                    return value.Type switch
                    {
                        FieldValueType.Long => TermEncoding.Double(value.Long),
                        FieldValueType.Double when !double.IsNaN(value.Double) => TermEncoding.Double(value.Double),
                        FieldValueType.String when double.TryParse(value.Text, System.Globalization.NumberStyles.Float, System.Globalization.CultureInfo.InvariantCulture, out var parsed) && !double.IsNaN(parsed) => TermEncoding.Double(parsed),
                        _ => null,
                    };
                case FieldKind.Stored:
                    return null;
                default:
                    var terms = AnalyzeDistinct(field, value.ToString());
                    return terms.Count == 1 ? terms[0] : null;
            }
        }
        catch (ArgumentException)
        {
            return null;
        }
    }

    /// <summary>Text normalized the way a prefix or wildcard on <paramref name="field"/> compares: case folded unless the field is case-sensitive, not stemmed; whole, never shortened.</summary>
    internal byte[] NormalizedText(string field, string text)
    {
        var options = _index.Schema.Get(field);
        if (options.Kind == FieldKind.FullText)
            return Encoding.UTF8.GetBytes(AsciiFolding.Fold(text.ToLowerInvariant()));
        return Encoding.UTF8.GetBytes(options.CaseSensitive ? text : text.ToLowerInvariant());
    }

    /// <summary>
    /// Like <see cref="EqualityTerm"/>, but a text value's whole bytes even past
    /// <see cref="TermEncoding.MaxTermBytes"/> (what range bounds compare with).
    /// </summary>
    internal byte[]? WholeTerm(string field, FieldValue value)
    {
        var options = _index.Schema.Get(field);
        if (options.Kind is not (FieldKind.Exact or FieldKind.FullText))
            return EqualityTerm(field, value);
        byte[]? whole = null;
        foreach (var token in options.EffectiveAnalyzer.AnalyzeToList(value.ToString()))
        {
            var bytes = Encoding.UTF8.GetBytes(token.Term);
            if (whole is not null && !whole.AsSpan().SequenceEqual(bytes))
                return null;
            whole = bytes;
        }
        return whole;
    }

    internal List<byte[]> AnalyzeDistinct(string field, string text)
    {
        var seen = new HashSet<byte[]>(ByteArrayComparer.Instance);
        var terms = new List<byte[]>();
        foreach (var token in _index.Schema.Get(field).EffectiveAnalyzer.AnalyzeToList(text))
        {
            var term = TermEncoding.Text(token.Term);
            if (seen.Add(term))
                terms.Add(term);
        }
        return terms;
    }

    internal List<(byte[] Term, int Position)> AnalyzeWithPositions(string field, string text)
    {
        var tokens = new List<(byte[], int)>();
        foreach (var token in _index.Schema.Get(field).EffectiveAnalyzer.AnalyzeToList(text))
            tokens.Add((TermEncoding.Text(token.Term), token.Position));
        return tokens;
    }

    /// <summary>The ids of a phrase's terms in <paramref name="field"/>'s term dictionary (-1 for a term it lacks).</summary>
    internal long[] TermIds(string field, List<(byte[] Term, int Position)> terms)
    {
        var dictionary = Field(field).TermIds;
        var ids = new long[terms.Count];
        for (var i = 0; i < ids.Length; i++)
            TermDictionary.TryGetId(dictionary, terms[i].Term, out ids[i]);
        return ids;
    }

    /// <summary>
    /// Fills <paramref name="into"/>[i] with the positions of the term with id <paramref name="termIds"/>[i]
    /// in the entry's field, from the tokens in the entry record.
    /// </summary>
    internal void ReadPositions(string field, long[] termIds, long entryId, List<int>[] into)
    {
        foreach (var list in into)
            list.Clear();
        var ordinal = Field(field).Ordinal;
        Span<byte> entryKey = stackalloc byte[SearchIndex.MaxEntryKeySize];
        if (ordinal < 0 || !EntryStore.TryGet(EntryCursor, entryId, entryKey, out var record))
            return;
        var position = 0;
        var shape = _index.Shapes.ReadRecordShape(record, ref position, _shapes);
        const byte tokenFlags = EntryRecord.TermIdsFlag | EntryRecord.PositionsFlag;
        for (var f = 0; f < shape.FieldCount; f++)
        {
            var isField = shape.Ordinal(f) == ordinal;
            var flags = shape.Flags(f);
            if (!isField || (flags & tokenFlags) != tokenFlags)
            {
                EntryRecord.SkipTerms(record, ref position, flags);
                continue;
            }
            var tokens = new TokenReader(record, position);
            while (tokens.Remaining > 0)
            {
                var termId = tokens.Next();
                for (var k = 0; k < termIds.Length; k++)
                {
                    if (termIds[k] == termId)
                        into[k].Add(tokens.Position);
                }
            }
            return;
        }
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
            return reader.Points is null ? new EmptyIterator() : UnionOfPoints(reader, reader.Points, from, verdict, state, check);
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
        while (more)
        {
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
        return bits is null ? new EmptyIterator() : new BitSetIterator(bits, count, _scratch.ReleaseBits);
    }

    /// <summary>
    /// <see cref="UnionOfTerms"/> over a numeric field's points: each distinct value from <paramref name="from"/>
    /// on is a term (its 8 bytes) that the verdict judges once, and the points of taken values set their bits.
    /// </summary>
    private DocIdIterator UnionOfPoints<TState>(FieldReader reader, Tree points, byte[] from, Func<ReadOnlySpan<byte>, TState, TermVerdict> verdict, TState state,
        Func<ReadOnlySpan<byte>, TState, bool>? check)
    {
        var cursor = points.CreateCursor();
        Span<byte> key = stackalloc byte[PointBlock.KeySize];
        Span<byte> start = stackalloc byte[8];
        from.AsSpan(0, Math.Min(8, from.Length)).CopyTo(start);
        if (!PointBlock.SeekBlockOf(cursor, new Point(BinaryPrimitives.ReadUInt64BigEndian(start), 0), key))
            return new EmptyIterator();
        ulong[]? bits = null;
        long count = 0;
        Span<byte> term = stackalloc byte[8];
        var decision = TermVerdict.Skip;
        var judged = false;
        var value = 0UL;
        do
        {
            var block = new PointBlock.Reader(cursor.Key, cursor.Value);
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
                        return Bits(bits, count);
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
        while (cursor.MoveNext());
        return Bits(bits, count);
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

    private bool AnyDocValue<TState>(FieldReader reader, long entryId, Func<ReadOnlySpan<byte>, TState, bool> check, TState state)
    {
        Span<byte> single = stackalloc byte[SingleValueSize];
        if (!TryGetDocValues(reader, entryId, single, out var encoded))
            return false;
        var position = 0;
        var count = (int)ByteCoding.ReadVarint(encoded, ref position);
        for (var i = 0; i < count; i++)
        {
            if (encoded[position++] == DocValueType.Null)
                continue;
            if (check(ByteCoding.ReadBytes(encoded, ref position), state))
                return true;
        }
        return false;
    }

    /// <summary>
    /// An entry's doc values for a field, encoded as <see cref="IndexBatch"/> writes them. A numeric field's
    /// one non-null value is not written there (its sort column holds it, and a million entries' copies
    /// cost tens of megabytes), nor is an exact field's one value that is its term (the id column holds
    /// the term's id): either is encoded here into <paramref name="single"/> from its column.
    /// </summary>
    private bool TryGetDocValues(FieldReader reader, long entryId, Span<byte> single, out ReadOnlySpan<byte> encoded)
    {
        Span<byte> entryKey = stackalloc byte[SearchIndex.MaxEntryKeySize];
        // An index of single numbers has an empty doc-value tree; no lookup needed to miss there.
        if (reader.Values is { Count: > 0 } && reader.Values.TryGet(SearchIndex.EntryKey(entryId, entryKey), out encoded))
            return true;
        if (reader.ColumnValues is { } column && column.TryGet(entryId, out var sortKey))
        {
            single[0] = 1;
            single[1] = reader.NumberType;
            single[2] = 8;
            BinaryPrimitives.WriteUInt64BigEndian(single[3..], sortKey);
            encoded = single[..SingleNumberSize];
            return true;
        }
        if (reader.IdColumnValues is { } ids && ids.TryGet(entryId, out var termId))
        {
            var term = reader.TermOf((long)termId, entryKey);
            single[0] = 1;
            single[1] = DocValueType.Text;
            var length = Varint.Write(single, 2, (ulong)term.Length);
            term.CopyTo(single[length..]);
            encoded = single[..(length + term.Length)];
            return true;
        }
        encoded = default;
        return false;
    }

    // One value (count 1, type, length 8) of eight big-endian bytes: the doc values of a single number.
    private const int SingleNumberSize = 11;

    // One value (count 1, type, length varint) of a whole term: the most a single value's doc values take.
    private const int SingleValueSize = 4 + TermEncoding.MaxTermBytes;

    private FieldReader Field(string name)
    {
        if (!_fields.TryGetValue(name, out var reader))
        {
            var options = _index.Schema.Get(name);
            reader = new FieldReader(
                _transaction,
                name,
                _meta.TryGet(SearchIndex.FieldOrdinalKey(name), out var ordinal) ? BinaryPrimitives.ReadInt32LittleEndian(ordinal) : -1,
                _transaction.OpenTree(SearchIndex.TermsTree(name)),
                _transaction.OpenTree(SearchIndex.SealedTree(name)),
                options.IsNumeric,
                options.IsNumeric ? _transaction.OpenTree(SearchIndex.PointsTree(name)) : null,
                _transaction.OpenTree(SearchIndex.MarksTree(name)),
                _transaction.OpenTree(SearchIndex.ValuesTree(name)),
                options.Kind == FieldKind.FullText && _transaction.OpenTree(SearchIndex.NormsTree(name)) is { } norms ? norms : null,
                options.IsNumeric ? _transaction.OpenTree(SearchIndex.ColumnTree(name)) : null,
                options.Kind == FieldKind.Double ? DocValueType.Double : DocValueType.Long);
            _fields.Add(name, reader);
        }
        return reader;
    }

    /// <summary>Ends the snapshot and gives the searcher's buffers back to the index.</summary>
    public void Dispose()
    {
        if (_disposed)
            return;
        _disposed = true;
        _transaction.Dispose();
        _index.ReturnScratch(_scratch);
    }

    // Ordinal: the number entry records name the field by (-1 before the field's first entry); NumberType: the
    // DocValueType of a numeric field's values (read only when the field has a column).
    // Points: a numeric field's points (null until it has some); a numeric field is read from them, not from Terms.
    private sealed record FieldReader(ReadTransaction Transaction, string Name, int Ordinal, Tree? Terms, Tree? Sealed, bool IsNumeric, Tree? Points, Tree? Marks, Tree? Values, Tree? Norms,
        Tree? Column, byte NumberType)
    {
        private NumericColumn? _columnValues;
        private NumericColumn? _idColumnValues;
        // The term dictionary's trees and the id column serve phrases and exact values only, so a query
        // opens them (a root-tree lookup and a tree object each) when it first needs them.
        private bool _idTreesOpened;
        private Tree? _termIds;
        private Tree? _idTerms;
        private Tree? _idColumn;

        /// <summary>The term dictionary's term → id tree.</summary>
        public Tree? TermIds => OpenIdTrees()._termIds;

        /// <summary>The sort column read for doc values, made on first use (it keeps a block cache).</summary>
        public NumericColumn? ColumnValues => Column is null ? null : _columnValues ??= Folio.Indexing.Search.NumericColumn.ForSortKeys(Column, decimals: false);

        /// <summary>The id column read for an exact field's doc values, made on first use.</summary>
        public NumericColumn? IdColumnValues => OpenIdTrees()._idColumn is not { } idColumn ? null : _idColumnValues ??= Folio.Indexing.Search.NumericColumn.ForTermIds(idColumn);

        /// <summary>The term an id column names (<paramref name="key"/> is scratch for the lookup).</summary>
        public ReadOnlySpan<byte> TermOf(long termId, Span<byte> key)
        {
            BinaryPrimitives.WriteInt64BigEndian(key, termId);
            if (OpenIdTrees()._idTerms is not { } idTerms || !idTerms.TryGet(key[..8], out var term))
                throw new Folio.Storage.CorruptionException($"An index entry's value names term id {termId}, which the term dictionary does not have.");
            return term;
        }

        private FieldReader OpenIdTrees()
        {
            if (!_idTreesOpened)
            {
                _termIds = Transaction.OpenTree(SearchIndex.TermIdsTree(Name));
                _idTerms = Transaction.OpenTree(SearchIndex.IdTermsTree(Name));
                _idColumn = Transaction.OpenTree(SearchIndex.IdColumnTree(Name));
                _idTreesOpened = true;
            }
            return this;
        }
    }
}
