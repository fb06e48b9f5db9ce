using System.Buffers.Binary;
using System.Globalization;
using System.Runtime.InteropServices;
using System.Text;
using Folio.Indexing.Analysis;
using Folio.Indexing.Postings;
using Folio.Storage.Transactions;
using Folio.Storage.Trees;

namespace Folio.Indexing.Search;

/// <summary>
/// Adds, updates and deletes entries as one transaction. Terms are gathered per field in memory and
/// applied to the posting chunks at <see cref="Commit"/>; everything else (positions, lengths, doc
/// values, the entry record) is written as each entry is added. The caller may write its own state
/// (say, the last indexed etag) through <see cref="Transaction"/>: it commits with the batch or not at all.
/// </summary>
public sealed class IndexBatch : IDisposable
{
    /// <summary>Positions between two values of one multi-valued field, so a phrase never spans values.</summary>
    public const int PositionGapBetweenValues = 100;

    /// <summary>The highest token position a field may have (its values' gaps included), so positions never overflow.</summary>
    public const int MaxPosition = int.MaxValue - PositionGapBetweenValues - 1;

    private readonly SearchIndex _index;
    private readonly WriteTransaction _transaction;
    private readonly EntryStore _entries;
    private readonly KeyStore _keys;
    private readonly Tree _meta;
    private readonly Tree _shapes;
    // Shapes this batch named first: published to the index's cache only once the batch commits.
    private readonly Dictionary<int, EntryShape> _newShapes = [];
    private readonly Dictionary<byte[], int> _newShapeIds = new(ByteArrayComparer.Instance);
    private readonly Dictionary<string, FieldWriter> _fields = new(StringComparer.Ordinal);
    private readonly Dictionary<int, FieldWriter> _fieldsByOrdinal = [];
    // The term ids a delete has already taken out of one field's postings (a term repeats in the token list).
    private readonly HashSet<long> _removedTermIds = [];
    // The posting-change logs this batch's fields borrowed from the index; given back when the batch ends.
    private readonly List<PendingPostings> _logs = [];
    private readonly List<PendingPoints> _pointLogs = [];
    // One entry's analysis, reused for the next: an entry of a few dozen words would otherwise allocate
    // several kilobytes of dictionaries, lists and records that die at once.
    private readonly Dictionary<string, AnalyzedField> _analysis = new(StringComparer.Ordinal);
    private readonly List<(string Name, AnalyzedField Field)> _analyzed = [];
    private readonly List<byte> _record = new(256);
    // The entry being added: its shape's encoding, and what its fields put in the record after it.
    private readonly List<byte> _shape = new(32);
    private readonly List<byte> _recordTerms = new(256);
    private readonly List<long> _tokenIds = new(64);
    private readonly List<int> _tokenDistances = new(64);
    // Every distinct term of the batch as one array, shared by the entries' analyses and the pending
    // postings, so a token already seen in the batch is looked up by its bytes and never copied.
    private readonly HashSet<byte[]> _terms = new(ByteArrayComparer.Instance);
    private readonly long _firstIdOfBatch;
    private long _nextId;
    private long _entryCount;
    private bool _done;

    internal IndexBatch(SearchIndex index, WriteTransaction transaction)
    {
        _index = index;
        _transaction = transaction;
        _entries = new EntryStore(transaction.OpenTree(SearchIndex.EntriesTree)!);
        _keys = new KeyStore(transaction.OpenTree(SearchIndex.KeysTree)!);
        _meta = transaction.OpenTree(SearchIndex.MetaTree)!;
        _shapes = transaction.OpenTree(SearchIndex.ShapesTree)!;
        _nextId = SearchIndex.ReadInt64(_meta, SearchIndex.NextEntryKey);
        _entryCount = SearchIndex.ReadInt64(_meta, SearchIndex.EntryCountKey);
        _firstIdOfBatch = _nextId;
    }

    /// <summary>The batch's transaction, for state the caller commits together with the batch.</summary>
    public WriteTransaction Transaction => _transaction;

    /// <summary>Entries added in this batch so far.</summary>
    public int Added { get; private set; }

    /// <summary>Entries deleted (or replaced) in this batch so far.</summary>
    public int Deleted { get; private set; }

    /// <summary>Indexes <paramref name="entry"/>, replacing any entry with the same key.</summary>
    public void Add(IndexEntry entry)
    {
        ThrowIfDone();
        ArgumentNullException.ThrowIfNull(entry);
        var key = Encoding.UTF8.GetBytes(entry.Key);
        if (key.Length == 0 || key.Length > SearchIndex.MaxKeyBytes)
            throw new ArgumentException($"An entry key must have 1 to {SearchIndex.MaxKeyBytes} UTF-8 bytes.", nameof(entry));
        // Convert every value before touching the index, so a value that cannot be indexed leaves no trace.
        var values = Analyze(entry);
        Delete(key);

        var id = _nextId++;
        Span<byte> entryKeyBytes = stackalloc byte[SearchIndex.MaxEntryKeySize];
        var entryKey = SearchIndex.EntryKey(id, entryKeyBytes);
        _shape.Clear();
        _recordTerms.Clear();
        ByteCoding.WriteVarint(_shape, (ulong)values.Count);
        foreach (var (name, analyzed) in values)
        {
            var field = Field(name);
            WriteField(_shape, _recordTerms, field, analyzed, _tokenIds, _tokenDistances);
            if (field.IsNumeric)
            {
                foreach (var term in analyzed.Terms.Keys)
                    field.Points.Add(BinaryPrimitives.ReadUInt64BigEndian(term), id);
            }
            else
            {
                foreach (var (term, info) in analyzed.Terms)
                    field.Postings.Add(term, id, info.Frequency);
            }
            field.Marks.Add(SearchIndex.ExistsTerm, id, 1);
            if ((analyzed.Flags & EntryRecord.NullFlag) != 0)
                field.Marks.Add(SearchIndex.NullTerm, id, 1);
            if (field.Norms is not null && analyzed.Length > 0)
            {
                field.Norms.Set(id, analyzed.Length);
                field.Stats = new FieldStats(field.Stats.DocumentCount + 1, field.Stats.TotalLength + analyzed.Length);
            }
            if (analyzed.HasDocValues)
                field.Values.Put(entryKey, analyzed.DocValues);
            if (field.Column is not null && analyzed.SortKey is { } sortKey)
                field.Column.Set(id, sortKey);
            if (analyzed.ValueTerm is not null)
                field.IdColumn!.Set(id, (ulong)field.Dictionary.GetOrAdd(analyzed.ValueTerm));
        }
        var record = _record;
        record.Clear();
        var shapeId = ShapeIdOf(CollectionsMarshal.AsSpan(_shape));
        ByteCoding.WriteVarint(record, (ulong)shapeId);
        if (shapeId == EntryShapes.InlineId)
            record.AddRange(CollectionsMarshal.AsSpan(_shape));
        record.AddRange(CollectionsMarshal.AsSpan(_recordTerms));
        _entries.Add(id, key, CollectionsMarshal.AsSpan(record));
        _entryCount++;
        _keys.Put(key, id);
        Added++;
    }

    /// <summary>Removes the entry with <paramref name="key"/>; returns whether there was one.</summary>
    public bool Delete(string key)
    {
        ThrowIfDone();
        return Delete(Encoding.UTF8.GetBytes(key));
    }

    private bool Delete(byte[] key)
    {
        if (key.Length == 0 || key.Length > SearchIndex.MaxKeyBytes || !_keys.TryGet(key, out var id))
            return false;
        Span<byte> entryKeyBytes = stackalloc byte[SearchIndex.MaxEntryKeySize];
        var entryKey = SearchIndex.EntryKey(id, entryKeyBytes);
        if (!_entries.TryGet(id, out var stored))
            throw new Folio.Storage.CorruptionException($"Index entry {id} of key '{Encoding.UTF8.GetString(key)}' has no record.");
        var record = stored.ToArray();
        var position = 0;
        var shape = _index.Shapes.ReadRecordShape(record, ref position, _shapes, _newShapes);
        for (var f = 0; f < shape.FieldCount; f++)
        {
            var field = FieldByOrdinal(shape.Ordinal(f));
            var flags = shape.Flags(f);
            if (id >= _firstIdOfBatch)
            {
                // Added by this batch: its postings are still additions in the logs, taken back in one pass.
                EntryRecord.SkipTerms(record, ref position, flags);
                field.Postings.RemoveAdditionsOf(id);
                field.Marks.RemoveAdditionsOf(id);
                if (field.IsNumeric)
                    field.Points.RemoveAdditionsOf(id);
            }
            else
            {
                RemoveTerms(record, ref position, flags, field, id);
                if ((flags & EntryRecord.InColumnFlag) != 0)
                {
                    if (field.Column is null || !field.Column.TryGet(id, out var sortKey))
                        throw new Folio.Storage.CorruptionException($"Index entry {id} of key '{Encoding.UTF8.GetString(key)}' has no value in the sort column of '{field.Name}'.");
                    field.Points.Remove(sortKey, id);
                }
                field.Marks.Remove(SearchIndex.ExistsTerm, id);
                if ((flags & EntryRecord.NullFlag) != 0)
                    field.Marks.Remove(SearchIndex.NullTerm, id);
            }
            if (field.Norms is not null && field.Norms.Get(id) is var tokens and > 0)
            {
                field.Norms.Set(id, 0);
                field.Stats = new FieldStats(field.Stats.DocumentCount - 1, field.Stats.TotalLength - tokens);
            }
            if ((flags & (EntryRecord.InColumnFlag | EntryRecord.ValueIdFlag)) == 0)
                field.Values.Delete(entryKey);
            field.Column?.Clear(id);
            field.IdColumn?.Clear(id);
        }
        _entries.Remove(id);
        _entryCount--;
        _keys.Remove(key);
        Deleted++;
        return true;
    }

    /// <summary>Applies the gathered term changes and commits the batch (and the caller's state) at once.</summary>
    public void Commit()
    {
        ThrowIfDone();
        foreach (var field in _fields.Values)
            field.Flush();
        ReturnLogs();
        _entries.Flush();
        _keys.Flush();
        BinaryPrimitives.WriteInt64LittleEndian(_meta.Reserve(SearchIndex.NextEntryKey, 8), _nextId);
        BinaryPrimitives.WriteInt64LittleEndian(_meta.Reserve(SearchIndex.EntryCountKey, 8), _entryCount);
        _done = true;
        _transaction.Commit();
        _index.Shapes.Publish(_newShapes);
    }

    /// <summary>Rolls back unless committed.</summary>
    public void Dispose()
    {
        _done = true;
        ReturnLogs();
        _transaction.Dispose();
    }

    private PendingPostings RentLog()
    {
        var log = _index.RentPending();
        _logs.Add(log);
        return log;
    }

    private PendingPoints RentPointLog()
    {
        var log = _index.RentPoints();
        _pointLogs.Add(log);
        return log;
    }

    /// <summary>Gives the logs back while the batch still holds the write transaction, so no other batch can be using the pool.</summary>
    private void ReturnLogs()
    {
        foreach (var log in _logs)
            _index.ReturnPending(log);
        _logs.Clear();
        foreach (var log in _pointLogs)
            _index.ReturnPoints(log);
        _pointLogs.Clear();
    }

    private void ThrowIfDone() => ObjectDisposedException.ThrowIf(_done, this);

    private FieldWriter Field(string name)
    {
        if (!_fields.TryGetValue(name, out var writer))
        {
            writer = new FieldWriter(_transaction, name, OrdinalOf(name), _index.Schema.Get(name), _meta, RentLog(), RentLog(), RentPointLog);
            _fields.Add(name, writer);
            _fieldsByOrdinal.Add(writer.Ordinal, writer);
        }
        return writer;
    }

    /// <summary>The field an entry record names by <paramref name="ordinal"/>.</summary>
    private FieldWriter FieldByOrdinal(int ordinal)
    {
        if (_fieldsByOrdinal.TryGetValue(ordinal, out var writer))
            return writer;
        if (!_meta.TryGet(SearchIndex.FieldNameKey(ordinal), out var name))
            throw new Folio.Storage.CorruptionException($"An index entry names field ordinal {ordinal}, which the index does not have.");
        return Field(Encoding.UTF8.GetString(name));
    }

    /// <summary>The number entry records name the field by, given one when the field is new to the index.</summary>
    private int OrdinalOf(string name)
    {
        var key = SearchIndex.FieldOrdinalKey(name);
        if (_meta.TryGet(key, out var stored))
            return BinaryPrimitives.ReadInt32LittleEndian(stored);
        var ordinal = _meta.TryGet(SearchIndex.NextFieldKey, out var next) ? BinaryPrimitives.ReadInt32LittleEndian(next) : 0;
        BinaryPrimitives.WriteInt32LittleEndian(_meta.Reserve(key, 4), ordinal);
        _meta.Put(SearchIndex.FieldNameKey(ordinal), Encoding.UTF8.GetBytes(name));
        BinaryPrimitives.WriteInt32LittleEndian(_meta.Reserve(SearchIndex.NextFieldKey, 4), ordinal + 1);
        return ordinal;
    }

    /// <summary>
    /// The id of the entry shape with <paramref name="encoding"/>, naming it first when the index has not
    /// seen it (<see cref="EntryShapes.InlineId"/> once the index has as many shapes as it names).
    /// </summary>
    private int ShapeIdOf(ReadOnlySpan<byte> encoding)
    {
        // A batch that began while the previous one was publishing its new shapes may miss one and name
        // it again under another id: records stay right, and the id limit is far above the shapes in use.
        if (_index.Shapes.TryGetId(encoding, out var id) || _newShapeIds.GetAlternateLookup<ReadOnlySpan<byte>>().TryGetValue(encoding, out id))
            return id;
        var count = _shapes.Count;
        if (count >= EntryShapes.MaxShapes)
            return EntryShapes.InlineId;
        id = (int)count + 1;
        var position = 0;
        var shape = EntryShape.Read(encoding, ref position);
        Span<byte> key = stackalloc byte[EntryShapes.KeySize];
        _shapes.Put(EntryShapes.Key(id, key), shape.Bytes);
        _newShapes.Add(id, shape);
        _newShapeIds.Add(shape.Bytes, id);
        return id;
    }

    /// <summary>Writes one field of an entry: its ordinal and flags to the entry's shape, its terms to the record (<see cref="EntryRecord"/>).</summary>
    private static void WriteField(List<byte> shape, List<byte> record, FieldWriter field, AnalyzedField analyzed, List<long> tokenIds, List<int> tokenDistances)
    {
        if (analyzed.IsSingleNumber)
        {
            EntryShape.WriteField(shape, field.Ordinal, (byte)(analyzed.Flags | EntryRecord.InColumnFlag));
            return;
        }
        if (!field.UsesTermIds)
        {
            EntryShape.WriteField(shape, field.Ordinal, analyzed.Flags);
            ByteCoding.WriteVarint(record, (ulong)analyzed.Terms.Count);
            foreach (var term in analyzed.Terms.Keys)
                ByteCoding.WriteBytes(record, term);
            return;
        }
        if (analyzed.ValueTerm is not null)
        {
            EntryShape.WriteField(shape, field.Ordinal, (byte)(analyzed.Flags | EntryRecord.TermIdsFlag | EntryRecord.ValueIdFlag));
            return;
        }
        EntryShape.WriteField(shape, field.Ordinal, (byte)(analyzed.Flags | EntryRecord.TermIdsFlag));
        var dictionary = field.Dictionary;
        if ((analyzed.Flags & EntryRecord.PositionsFlag) == 0)
        {
            ByteCoding.WriteVarint(record, (ulong)analyzed.Terms.Count);
            foreach (var term in analyzed.Terms.Keys)
                ByteCoding.WriteVarint(record, (ulong)dictionary.GetOrAdd(term));
            return;
        }
        var tokens = analyzed.TokensInOrder();
        tokenIds.Clear();
        tokenDistances.Clear();
        var previous = 0;
        foreach (var (term, position) in tokens)
        {
            tokenIds.Add(dictionary.GetOrAdd(term));
            tokenDistances.Add(position - previous);
            previous = position;
        }
        TokenStream.Write(record, CollectionsMarshal.AsSpan(tokenIds), CollectionsMarshal.AsSpan(tokenDistances));
    }

    /// <summary>Takes the terms of one field of an entry stored before this batch (read from its record) out of the postings.</summary>
    private void RemoveTerms(ReadOnlySpan<byte> record, ref int position, byte flags, FieldWriter field, long id)
    {
        if ((flags & EntryRecord.InColumnFlag) != 0)
            return;
        if ((flags & EntryRecord.ValueIdFlag) != 0)
        {
            if (field.IdColumn is null || !field.IdColumn.TryGet(id, out var valueId))
                throw new Folio.Storage.CorruptionException($"Index entry {id} has no value in the id column of '{field.Name}'.");
            field.Postings.Remove(field.Dictionary.TermOf((long)valueId), id);
            return;
        }
        _removedTermIds.Clear();
        if ((flags & (EntryRecord.TermIdsFlag | EntryRecord.PositionsFlag)) == (EntryRecord.TermIdsFlag | EntryRecord.PositionsFlag))
        {
            var tokens = new TokenReader(record, position);
            while (tokens.Remaining > 0)
                RemoveTerm(field, tokens.Next(), id);
            position = tokens.End;
            return;
        }
        var count = (int)ByteCoding.ReadVarint(record, ref position);
        if ((flags & EntryRecord.TermIdsFlag) == 0)
        {
            // Only numbers are recorded by their bytes, and numbers are points.
            for (var i = 0; i < count; i++)
            {
                var term = ByteCoding.ReadBytes(record, ref position);
                if (term.Length != 8)
                    throw new Folio.Storage.CorruptionException($"Index entry {id} records a number of field '{field.Name}' in {term.Length} bytes.");
                field.Points.Remove(BinaryPrimitives.ReadUInt64BigEndian(term), id);
            }
            return;
        }
        for (var i = 0; i < count; i++)
            RemoveTerm(field, (long)ByteCoding.ReadVarint(record, ref position), id);
    }

    /// <summary>Takes entry <paramref name="id"/> out of a term's postings, once however often the term repeats in its field.</summary>
    private void RemoveTerm(FieldWriter field, long termId, long id)
    {
        if (_removedTermIds.Add(termId))
            field.Postings.Remove(field.Dictionary.TermOf(termId), id);
    }

    /// <summary>
    /// The entry's fields, converted, in the order they first appear. The result and its fields are
    /// reused by the next call, which starts by clearing them (also after a value that failed).
    /// </summary>
    private List<(string Name, AnalyzedField Field)> Analyze(IndexEntry entry)
    {
        foreach (var (_, analyzed) in _analyzed)
            analyzed.Reset();
        _analyzed.Clear();
        foreach (var (name, value) in entry.Values)
            FieldOf(name).Add(value, name);
        foreach (var name in entry.PresentFields)
            FieldOf(name);
        foreach (var (_, analyzed) in _analyzed)
            analyzed.Complete();
        return _analyzed;

        AnalyzedField FieldOf(string name)
        {
            if (!_analysis.TryGetValue(name, out var analyzed))
            {
                analyzed = new AnalyzedField(_index.Schema.Get(name), _terms);
                _analysis.Add(name, analyzed);
            }
            if (!analyzed.InUse)
            {
                analyzed.InUse = true;
                _analyzed.Add((name, analyzed));
            }
            return analyzed;
        }
    }

    /// <summary>One field of one entry, converted: its terms (with frequencies and positions), flags, length and doc values.</summary>
    private sealed class AnalyzedField
    {
        private readonly FieldOptions _options;
        private readonly HashSet<byte[]>.AlternateLookup<ReadOnlySpan<byte>> _batchTerms;
        private readonly Dictionary<byte[], TermInfo>.AlternateLookup<ReadOnlySpan<byte>> _termsBySpan;
        private readonly List<byte> _docValues = [];
        private readonly List<byte> _encodedDocValues = [];
        private readonly Stack<TermInfo> _spareTerms = new();
        private readonly List<(byte[] Term, int Position)> _tokens = [];
        private bool _tokensOutOfOrder;
        private int _valueCount;
        private int _nextPosition;
        private int _docValueCount;

        public AnalyzedField(FieldOptions options, HashSet<byte[]> batchTerms)
        {
            _options = options;
            _batchTerms = batchTerms.GetAlternateLookup<ReadOnlySpan<byte>>();
            _termsBySpan = Terms.GetAlternateLookup<ReadOnlySpan<byte>>();
        }

        public Dictionary<byte[], TermInfo> Terms { get; } = new(ByteArrayComparer.Instance);

        /// <summary>Whether the field belongs to the entry being analyzed.</summary>
        public bool InUse { get; set; }

        public byte Flags { get; private set; } = EntryRecord.ExistsFlag;

        public int Length { get; private set; }

        public bool HasDocValues => _encodedDocValues.Count > 0;

        /// <summary>Whether the field has exactly one value, a number (not null): a numeric field, so one with a sort column.</summary>
        public bool IsSingleNumber => _docValueCount == 1 && SortKey is not null;

        /// <summary>
        /// The field's one value when it is exact and the value is also its one term (not shortened, not split
        /// by a custom analyzer): its doc value is then the term's id, kept in the field's id column.
        /// </summary>
        public byte[]? ValueTerm { get; private set; }

        /// <summary>The encoded doc values; valid until the next entry is analyzed.</summary>
        public ReadOnlySpan<byte> DocValues => CollectionsMarshal.AsSpan(_encodedDocValues);

        /// <summary>
        /// A numeric field's smallest non-null value as the big-endian ulong of its term, which orders
        /// like the term bytes the doc values compare; null when the field has no non-null value.
        /// </summary>
        public ulong? SortKey { get; private set; }

        public void Add(FieldValue value, string name)
        {
            if (value.Type == FieldValueType.Null)
            {
                Flags |= EntryRecord.NullFlag;
                AddDocValue(DocValueType.Null, default);
                return;
            }
            switch (_options.Kind)
            {
                case FieldKind.Long:
                    AddNumber(DocValueType.Long, TermEncoding.Long(ToLong(value, name)));
                    break;
                case FieldKind.Double:
                    AddNumber(DocValueType.Double, TermEncoding.Double(ToDouble(value, name)));
                    break;
                case FieldKind.Exact:
                    var exact = Text(value);
                    var sink = new TermSink(this, positions: false);
                    _options.EffectiveAnalyzer.Analyze(exact, ref sink);
                    // Doc values keep the whole normalized value, not the (possibly shortened) term: sorting,
                    // range counting and GetValues need every byte.
                    AddDocValue(DocValueType.Text, Encoding.UTF8.GetBytes(_options.NormalizeExact(exact)));
                    break;
                case FieldKind.FullText:
                    Flags |= EntryRecord.PositionsFlag;
                    if (_valueCount > 0)
                        _nextPosition += PositionGapBetweenValues;
                    var text = new TermSink(this, positions: true);
                    _options.EffectiveAnalyzer.Analyze(Text(value), ref text);
                    _nextPosition = text.NextPosition;
                    break;
                case FieldKind.Stored:
                    AddDocValue(DocValueType.Text, Encoding.UTF8.GetBytes(Text(value)));
                    break;
            }
            _valueCount++;
        }

        /// <summary>
        /// Encodes the doc values, unless the field is one number: that one is read back from the field's
        /// sort column (IndexSearcher.TryGetDocValues), which holds it anyway.
        /// </summary>
        public void Complete()
        {
            if (_options.Kind == FieldKind.Exact && _docValueCount == 1 && Terms.Count == 1)
            {
                foreach (var term in Terms.Keys)
                    ValueTerm = SingleDocValue().SequenceEqual(term) ? term : null;
            }
            if (_docValues.Count > 0 && !IsSingleNumber && ValueTerm is null)
            {
                ByteCoding.WriteVarint(_encodedDocValues, (ulong)_docValueCount);
                _encodedDocValues.AddRange(_docValues);
            }
        }

        /// <summary>The bytes of the field's one doc value (empty for a null).</summary>
        private ReadOnlySpan<byte> SingleDocValue()
        {
            var values = CollectionsMarshal.AsSpan(_docValues);
            if (values[0] == DocValueType.Null)
                return default;
            var position = 1;
            return ByteCoding.ReadBytes(values, ref position);
        }

        /// <summary>Empties the field for the next entry, keeping its term records for reuse.</summary>
        public void Reset()
        {
            foreach (var info in Terms.Values)
            {
                info.Clear();
                _spareTerms.Push(info);
            }
            Terms.Clear();
            _tokens.Clear();
            _tokensOutOfOrder = false;
            _docValues.Clear();
            _encodedDocValues.Clear();
            _valueCount = 0;
            _nextPosition = 0;
            _docValueCount = 0;
            Flags = EntryRecord.ExistsFlag;
            Length = 0;
            SortKey = null;
            ValueTerm = null;
            InUse = false;
        }

        private void AddNumber(byte type, byte[] term)
        {
            AddTerm(term, null);
            AddDocValue(type, term);
            var key = BinaryPrimitives.ReadUInt64BigEndian(term);
            if (SortKey is not { } smallest || key < smallest)
                SortKey = key;
        }

        private void AddDocValue(byte type, ReadOnlySpan<byte> bytes)
        {
            if (_options.Kind == FieldKind.FullText)
                return;
            _docValues.Add(type);
            if (type != DocValueType.Null)
                ByteCoding.WriteBytes(_docValues, bytes);
            _docValueCount++;
        }

        internal void AddTerm(ReadOnlySpan<byte> term, int? position)
        {
            if (!_termsBySpan.TryGetValue(term, out var info))
            {
                info = _spareTerms.Count > 0 ? _spareTerms.Pop() : new TermInfo();
                if (!_batchTerms.TryGetValue(term, out var shared))
                {
                    shared = term.ToArray();
                    _batchTerms.Set.Add(shared);
                }
                info.Term = shared;
                Terms.Add(shared, info);
            }
            info.Frequency++;
            if (position is { } p)
            {
                _tokensOutOfOrder |= _tokens.Count > 0 && _tokens[^1].Position > p;
                _tokens.Add((info.Term, p));
                Length++;
            }
        }

        /// <summary>The tokens of a field with positions, by position (an analyzer may emit them out of order).</summary>
        public List<(byte[] Term, int Position)> TokensInOrder()
        {
            if (_tokensOutOfOrder)
            {
                _tokens.Sort(static (a, b) => a.Position.CompareTo(b.Position));
                _tokensOutOfOrder = false;
            }
            return _tokens;
        }

        internal int BasePosition => _nextPosition;

        private static string Text(FieldValue value) => value.Type switch
        {
            FieldValueType.String => value.Text!,
            FieldValueType.Long => value.Long.ToString(CultureInfo.InvariantCulture),
            _ => value.Double.ToString("R", CultureInfo.InvariantCulture),
        };

        private static long ToLong(FieldValue value, string name) => value.Type switch
        {
            FieldValueType.Long => value.Long,
            FieldValueType.Double when value.Double == Math.Floor(value.Double) && value.Double is >= long.MinValue and <= long.MaxValue => (long)value.Double,
            FieldValueType.String when long.TryParse(value.Text, NumberStyles.Integer, CultureInfo.InvariantCulture, out var parsed) => parsed,
            _ => throw new IndexValueException(name, value, "a 64-bit integer"),
        };

        private static double ToDouble(FieldValue value, string name) => value.Type switch
        {
            FieldValueType.Long => value.Long,
            FieldValueType.Double when !double.IsNaN(value.Double) => value.Double,
            FieldValueType.String when double.TryParse(value.Text, NumberStyles.Float, CultureInfo.InvariantCulture, out var parsed) && !double.IsNaN(parsed) => parsed,
            _ => throw new IndexValueException(name, value, "a number"),
        };
    }

    /// <summary>Receives an analyzer's tokens into an <see cref="AnalyzedField"/>.</summary>
    private struct TermSink(AnalyzedField field, bool positions) : ITokenSink
    {
        public int NextPosition { get; private set; } = field.BasePosition;

        public void OnToken(scoped Token token)
        {
            var position = 0;
            if (positions)
            {
                var at = (long)field.BasePosition + token.Position;
                if (token.Position < 0 || at > MaxPosition)
                    throw new InvalidOperationException($"The analyzer gave the token '{token.Term}' the position {token.Position}; a field's positions run from 0 to {MaxPosition}.");
                position = (int)at;
            }
            Span<byte> utf8 = stackalloc byte[TermEncoding.MaxTermBytes];
            // A token that fits is its own term; a longer one is shortened with a hash.
            if (Encoding.UTF8.TryGetBytes(token.Term, utf8, out var written))
                field.AddTerm(utf8[..written], positions ? position : null);
            else
                field.AddTerm(TermEncoding.Text(token.Term), positions ? position : null);
            // The highest position so far, not the last: an analyzer may emit tokens out of order.
            NextPosition = Math.Max(NextPosition, position + 1);
        }
    }

    private sealed class TermInfo
    {
        public int Frequency { get; set; }

        /// <summary>The term's bytes as the batch shares them.</summary>
        public byte[] Term { get; set; } = [];

        public void Clear()
        {
            Frequency = 0;
            Term = [];
        }
    }

    /// <summary>The trees of one field in this batch and its pending term changes.</summary>
    private sealed class FieldWriter
    {
        private readonly WriteTransaction _transaction;
        private readonly Tree _meta;
        private readonly PostingStore _markPostings;
        private readonly Func<PendingPoints> _rentPoints;
        private readonly bool _fullText;
        private TermDictionary? _dictionary;
        private PendingPoints? _points;

        public FieldWriter(WriteTransaction transaction, string name, int ordinal, FieldOptions options, Tree meta, PendingPostings postings, PendingPostings marks,
            Func<PendingPoints> rentPoints)
        {
            _transaction = transaction;
            _meta = meta;
            _rentPoints = rentPoints;
            Name = name;
            Ordinal = ordinal;
            UsesTermIds = options.Kind is FieldKind.Exact or FieldKind.FullText;
            IsNumeric = options.IsNumeric;
            var fullText = options.Kind == FieldKind.FullText;
            _fullText = fullText;
            _markPostings = new PostingStore(transaction.CreateTree(SearchIndex.MarksTree(name)), null, withFrequencies: false);
            Postings = postings;
            Marks = marks;
            Values = transaction.CreateTree(SearchIndex.ValuesTree(name));
            // A field declared otherwise now may still have single numbers from when it was numeric, whose deletes read them here.
            var column = options.IsNumeric ? transaction.CreateTree(SearchIndex.ColumnTree(name)) : transaction.OpenTree(SearchIndex.ColumnTree(name));
            if (column is not null)
                Column = NumericColumn.ForSortKeys(column, decimals: options.Kind == FieldKind.Double);
            // A field declared otherwise now may still have entries from when it was exact, whose deletes clear it.
            var idColumn = options.Kind == FieldKind.Exact ? transaction.CreateTree(SearchIndex.IdColumnTree(name)) : transaction.OpenTree(SearchIndex.IdColumnTree(name));
            if (idColumn is not null)
                IdColumn = NumericColumn.ForTermIds(idColumn);
            if (fullText)
                Norms = new NormsColumn(transaction.CreateTree(SearchIndex.NormsTree(name)));
            Stats = meta.TryGet(SearchIndex.FieldStatsKey(name), out var stats) ? FieldStats.Read(stats) : default;
        }

        public string Name { get; }

        /// <summary>Whether the field is declared numeric, so its values go to points rather than terms.</summary>
        public bool IsNumeric { get; }

        /// <summary>The number entry records name the field by.</summary>
        public int Ordinal { get; }

        /// <summary>
        /// Whether entry records name this field's terms by id: text terms repeat across entries, while a number's
        /// 8-byte term is mostly unique, so an id would add a dictionary entry per value and save little.
        /// </summary>
        public bool UsesTermIds { get; }

        /// <summary>
        /// The field's term ids, opened on first use: by the records a batch writes when <see cref="UsesTermIds"/>,
        /// and by those it deletes (written maybe while the field was declared another kind).
        /// </summary>
        public TermDictionary Dictionary => _dictionary ??= new TermDictionary(
            _transaction.CreateTree(SearchIndex.TermIdsTree(Name)), _transaction.CreateTree(SearchIndex.IdTermsTree(Name)), _meta, SearchIndex.NextTermIdKey(Name));

        public Tree Values { get; }

        public NormsColumn? Norms { get; }

        /// <summary>The sort keys of a numeric field.</summary>
        public NumericColumn? Column { get; }

        /// <summary>The term ids standing for an exact field's single values (<see cref="EntryRecord.ValueIdFlag"/>).</summary>
        public NumericColumn? IdColumn { get; }

        public FieldStats Stats { get; set; }

        /// <summary>The batch's changes to the field's postings.</summary>
        public PendingPostings Postings { get; }

        /// <summary>
        /// The batch's changes to the field's points, borrowed on first use: by a numeric field's entries, and
        /// by deletes of entries recorded while the field was numeric.
        /// </summary>
        public PendingPoints Points => _points ??= _rentPoints();

        /// <summary>The batch's changes to the field's exists and null marks.</summary>
        public PendingPostings Marks { get; }

        public void Flush()
        {
            // A numeric field has no terms tree unless it held text terms once, whose deletes still change it.
            if (!Postings.IsEmpty)
                Postings.Apply(new PostingStore(_transaction.CreateTree(SearchIndex.TermsTree(Name)), () => _transaction.CreateTree(SearchIndex.SealedTree(Name)),
                    withFrequencies: _fullText), _dictionary);
            _points?.Apply(new PointStore(_transaction.CreateTree(SearchIndex.PointsTree(Name))));
            Marks.Apply(_markPostings, null);
            _dictionary?.Flush();
            Norms?.Flush();
            Column?.Flush();
            IdColumn?.Flush();
            Stats.Write(_meta.Reserve(SearchIndex.FieldStatsKey(Name), 16));
        }
    }
}
