using System.Buffers.Binary;
using System.Runtime.InteropServices;
using System.Text;
using Folio.Indexing.Collectors;
using Folio.Indexing.Postings;

namespace Folio.Indexing.Search;

// Doc values: an entry's values of a field as indexed, read from the doc-value tree or, for a single number or exact term, rebuilt from its column.
public sealed partial class IndexSearcher
{
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

    /// <inheritdoc/>
    public IDocValues OpenDocValues(string field) => new FieldDocValues(this, Field(field), field);

    /// <summary>A bound compared with doc values: for exact fields the whole normalized value (doc values are never shortened).</summary>
    private byte[]? DocValueBound(string field, FieldValue value)
    {
        var options = _index.Schema.Get(field);
        return options.Kind == FieldKind.Exact && value.Type != FieldValueType.Null
            ? Encoding.UTF8.GetBytes(options.NormalizeExact(value.ToString()))
            : EqualityTerm(field, value);
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
            // An entry spelled otherwise names its term's spelling variant; doc values hold the term.
            var term = SpellingVariant.TermOf(reader.TermOf((long)termId, entryKey));
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

    /// <summary>
    /// A case-folding exact field's value (its doc value's bytes) as its entries spell it most often; null when they
    /// spell it as it is (or the field keeps no spellings). Ties go to the spelling first in byte order.
    /// </summary>
    private string? MostFrequentSpelling(FieldReader reader, ReadOnlySpan<byte> value)
    {
        if (reader.TermIds is not { } ids || reader.Terms is null || value.Length > TermEncoding.MaxTermBytes)
            return null;
        var spellings = TermDictionary.Spellings(ids, value);
        if (spellings.Count == 0)
            return null;
        byte[]? best = null;
        long bestCount = 0, spelledOtherwise = 0;
        foreach (var (spelling, count) in spellings)
        {
            spelledOtherwise += count;
            if (best is null || count > bestCount || (count == bestCount && spelling.AsSpan().SequenceCompareTo(best) < 0))
                (best, bestCount) = (spelling, count);
        }
        var asIs = PostingStore.DocumentFrequency(reader.Terms, TermEncoding.TermKey(value)) - spelledOtherwise;
        return asIs > bestCount || (asIs == bestCount && value.SequenceCompareTo(best) < 0) ? null : Encoding.UTF8.GetString(best!);
    }

    // One value (count 1, type, length 8) of eight big-endian bytes: the doc values of a single number.
    private const int SingleNumberSize = 11;

    // One value (count 1, type, length varint) of a whole term: the most a single value's doc values take.
    private const int SingleValueSize = 4 + TermEncoding.MaxTermBytes;

    /// <summary>A field's doc values for collectors: each entry's stored encoding less its count, which is a block's own.</summary>
    private sealed partial class FieldDocValues(IndexSearcher searcher, FieldReader reader, string field) : IDocValues
    {
        public void Read(ReadOnlySpan<long> entryIds, DocValuesBlock values)
        {
            values.Clear();
            Span<byte> single = stackalloc byte[SingleValueSize];
            foreach (var entryId in entryIds)
            {
                if (!searcher.TryGetDocValues(reader, entryId, single, out var encoded))
                {
                    values.EndEntry();
                    continue;
                }
                var position = 0;
                ByteCoding.ReadVarint(encoded, ref position);
                values.AddEntry(encoded[position..]);
            }
        }

        // Which entries of a batch the column read had a value for.
        private bool[] _present = [];

        // An exact field's one value per entry is in its id column: the term id is the ordinal, read without
        // looking the term up (a tree descent per entry). An entry in the doc-value tree has several values or a null.
        public bool TryReadOrdinals(ReadOnlySpan<long> entryIds, Span<long> ordinals)
        {
            if (reader.IsNumeric || reader.IdColumnValues is not { } ids)
                return false;
            var present = Present(entryIds.Length);
            ids.Read(entryIds, MemoryMarshal.Cast<long, ulong>(ordinals), present);
            for (var i = 0; i < entryIds.Length; i++)
            {
                if (!present[i])
                    ordinals[i] = IDocValues.NoValue;
            }
            MarkSeveral(entryIds, ordinals);
            return true;
        }

        // Where no entry is in the doc-value tree, the id column alone says each entry's one value (or none).
        public int CountOrdinals(ReadOnlySpan<long> entryIds, ref long[] counts, int maxOrdinals, ref long missing) =>
            reader.IsNumeric || reader.IdColumnValues is not { } ids || reader.Values is { Count: > 0 }
                ? 0
                : ids.CountIds(entryIds, ref counts, maxOrdinals, ref missing);

        public int CountNumbersInRanges(ReadOnlySpan<long> entryIds, ReadOnlySpan<ulong> lowest, ReadOnlySpan<ulong> widths, Span<long> counts) =>
            !reader.IsNumeric || reader.ColumnValues is not { } column || reader.Values is { Count: > 0 }
                ? 0
                : column.CountInRanges(entryIds, lowest, widths, counts);

        // A numeric field's one non-null value per entry is in its sort column, as the big-endian bytes of the key.
        public bool TryReadNumbers(ReadOnlySpan<long> entryIds, Span<ulong> numbers, Span<long> states)
        {
            if (!reader.IsNumeric || reader.ColumnValues is not { } column)
                return false;
            var present = Present(entryIds.Length);
            column.Read(entryIds, numbers, present);
            for (var i = 0; i < entryIds.Length; i++)
                states[i] = present[i] ? IDocValues.OneNumber : IDocValues.NoValue;
            MarkSeveral(entryIds, states);
            return true;
        }

        private Span<bool> Present(int count)
        {
            if (_present.Length < count)
                _present = new bool[count];
            return _present.AsSpan(0, count);
        }

        // An entry the doc-value tree holds has several values or a null (the columns hold only the first or none).
        private void MarkSeveral(ReadOnlySpan<long> entryIds, Span<long> states)
        {
            if (reader.Values is not { Count: > 0 } values)
                return;
            Span<byte> entryKey = stackalloc byte[SearchIndex.MaxEntryKeySize];
            for (var i = 0; i < entryIds.Length; i++)
            {
                if (values.TryGet(SearchIndex.EntryKey(entryIds[i], entryKey), out _))
                    states[i] = IDocValues.ReadValues;
            }
        }

        // Made when first needed: only a term facet's first meeting with an id reads it.
        private DocValuesBlock? _ordinalValue;

        // The ids of this field kept by the index, asked for once: a facet reads thousands of them per query.
        private OrdinalTermCache.FieldTerms? _ordinalTerms;

        public int[]? ValueRanks() => (_ordinalTerms ??= searcher._index.OrdinalTerms.For(field)).Ranks();

        public OrdinalTerm ReadOrdinal(long ordinal)
        {
            var cache = _ordinalTerms ??= searcher._index.OrdinalTerms.For(field);
            if (cache.TryGet(ordinal, out var known))
                return known;
            Span<byte> key = stackalloc byte[SearchIndex.MaxEntryKeySize];
            // A spelling variant's id stands for its term, as the doc values hold it.
            var term = SpellingVariant.TermOf(reader.TermOf(ordinal, key));
            var values = _ordinalValue ??= new DocValuesBlock();
            values.Clear();
            values.AddValue(DocValueKind.Text, term);
            values.EndEntry();
            var enumerator = values[0].GetEnumerator();
            enumerator.MoveNext();
            return cache.Add(ordinal, new OrdinalTerm(enumerator.Current));
        }

        public byte[]? Encode(FieldValue value) => searcher.DocValueBound(field, value);

        // The cache's spellings of this field at the searcher's snapshot, asked for once.
        private SpellingCache.FieldSpellings? _spellings;
        private bool _spellingsAsked;

        private SpellingCache.FieldSpellings? Spellings()
        {
            if (!_spellingsAsked)
            {
                _spellings = searcher._index.Spellings.For(searcher._transaction.Id, field);
                _spellingsAsked = true;
            }
            return _spellings;
        }

        public string? Spelling(ReadOnlySpan<byte> value)
        {
            var spellings = Spellings();
            if (spellings is not null && spellings.ByBytes.TryGetValue(value, out var spelling))
                return spelling;
            spelling = searcher.MostFrequentSpelling(reader, value);
            spellings?.ByBytes.TryAdd(value, spelling);
            return spelling;
        }

        public string? Spelling(OrdinalTerm term)
        {
            if (term.Number < 0 || Spellings() is not { } spellings)
                return Spelling(term.Bytes);
            if (spellings.TryGet(term.Number, out var spelling))
                return spelling;
            spelling = Spelling(term.Bytes);
            spellings.Set(term.Number, spelling);
            return spelling;
        }
    }
}
