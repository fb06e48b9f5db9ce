using System.Buffers.Binary;
using System.Text;
using Folio.Indexing.Collectors;
using Folio.Indexing.Search;
using Lucene.Net.Documents;
using Lucene.Net.Index;
using Lucene.Net.Util;
using LuceneDocument = Lucene.Net.Documents.Document;

namespace Folio.Indexing.Engines.Lucene;

/// <summary>
/// Turns an <see cref="IndexEntry"/> into a Lucene document with the terms, positions, marks and doc values Folio's
/// engine would keep for it: text through the field's own (Folio) analyzer, handed over pre-analyzed; numbers as
/// trie-encoded longs ordered like Folio's number terms; every field's values as one binary doc value in the form
/// collectors read (<see cref="DocValuesBlock"/>). Every value is converted before anything is returned, so a value
/// that cannot be indexed throws <see cref="IndexValueException"/> and leaves no trace.
/// </summary>
internal sealed class LuceneDocumentBuilder(IndexSchema schema)
{
    private static readonly FieldType ExactType = Frozen(new FieldType
    {
        IsIndexed = true,
        IsTokenized = true,
        OmitNorms = true,
        IndexOptions = IndexOptions.DOCS_ONLY,
    });

    // Term vectors are what more like this reads a source entry's terms from (Folio's engine keeps them in its records).
    private static readonly FieldType FullTextType = Frozen(new FieldType
    {
        IsIndexed = true,
        IsTokenized = true,
        IndexOptions = IndexOptions.DOCS_AND_FREQS_AND_POSITIONS,
        StoreTermVectors = true,
    });

    /// <summary>
    /// Trie terms per number: 16 bits a step makes 4 terms a value (Lucene 4's default of 4 makes 16, which quadruples
    /// the work of indexing an auto index, whose every field has a numeric twin), for ranges of a few hundred terms at most.
    /// </summary>
    public const int NumericPrecisionStep = 16;

    private static readonly FieldType NumberType = Frozen(new FieldType
    {
        IsIndexed = true,
        IsTokenized = true,
        OmitNorms = true,
        IndexOptions = IndexOptions.DOCS_ONLY,
        NumericType = NumericType.INT64,
        NumericPrecisionStep = NumericPrecisionStep,
    });

    /// <summary>The Lucene document of <paramref name="entry"/>.</summary>
    /// <exception cref="IndexValueException">A value cannot be indexed as its field's kind.</exception>
    public LuceneDocument Build(IndexEntry entry)
    {
        var fields = new Dictionary<string, FieldBuild>(StringComparer.Ordinal);
        var order = new List<FieldBuild>();
        foreach (var (name, value) in entry.Values)
            FieldOf(name).Add(value);
        foreach (var name in entry.PresentFields)
            FieldOf(name);

        var document = new LuceneDocument
        {
            new StringField(LuceneFields.Key, entry.Key, Field.Store.NO),
            new BinaryDocValuesField(LuceneFields.Key, new BytesRef(Encoding.UTF8.GetBytes(entry.Key))),
        };
        foreach (var field in order)
            field.AddTo(document);
        return document;

        FieldBuild FieldOf(string name)
        {
            if (!fields.TryGetValue(name, out var field))
            {
                field = new FieldBuild(name, schema.Get(name));
                fields.Add(name, field);
                order.Add(field);
            }
            return field;
        }
    }

    /// <summary>A Lucene long that orders like Folio's 8-byte number term (<see cref="TermEncoding"/>): its bits with the sign bit flipped.</summary>
    internal static long SortableLong(ReadOnlySpan<byte> numberTerm) =>
        (long)(BinaryPrimitives.ReadUInt64BigEndian(numberTerm) ^ 0x8000_0000_0000_0000UL);

    private static FieldType Frozen(FieldType type)
    {
        type.Freeze();
        return type;
    }

    /// <summary>One field of the entry being built.</summary>
    private sealed class FieldBuild(string name, FieldOptions options)
    {
        private readonly List<(string Term, int Position)> _tokens = [];
        private readonly List<long> _numbers = [];
        private readonly List<byte> _docValues = [];
        private HashSet<string>? _seenTerms;
        private List<string>? _spellings;
        private bool _isNull;
        private int _valueCount;
        private int _nextPosition;

        public void Add(FieldValue value)
        {
            if (value.Type == FieldValueType.Null)
            {
                _isNull = true;
                AddDocValue(DocValueKind.Null, default);
                return;
            }
            switch (options.Kind)
            {
                case FieldKind.Long:
                    AddNumber(DocValueKind.Long, TermEncoding.Long(FieldTerms.ToLong(value, name)));
                    break;
                case FieldKind.Double:
                    AddNumber(DocValueKind.Double, TermEncoding.Double(FieldTerms.ToDouble(value, name)));
                    break;
                case FieldKind.Exact:
                    AddExact(FieldTerms.IndexedText(value));
                    break;
                case FieldKind.FullText:
                    if (_valueCount > 0)
                        _nextPosition += Search.IndexBatch.PositionGapBetweenValues;
                    var next = _nextPosition;
                    foreach (var token in options.EffectiveAnalyzer.AnalyzeToList(FieldTerms.IndexedText(value)))
                    {
                        var position = _nextPosition + token.Position;
                        _tokens.Add((token.Term, position));
                        next = Math.Max(next, position + 1);
                    }
                    _nextPosition = next;
                    break;
                case FieldKind.Stored:
                    AddDocValue(DocValueKind.Text, Encoding.UTF8.GetBytes(FieldTerms.IndexedText(value)));
                    break;
            }
            _valueCount++;
        }

        public void AddTo(LuceneDocument document)
        {
            document.Add(new StringField(LuceneFields.Exists, name, Field.Store.NO));
            if (_isNull)
                document.Add(new StringField(LuceneFields.Null, name, Field.Store.NO));
            foreach (var number in _numbers)
                document.Add(new Int64Field(name, number, NumberType));
            if (_tokens.Count > 0)
            {
                _tokens.Sort(static (a, b) => a.Position.CompareTo(b.Position));
                document.Add(new Field(name, new PreAnalyzedTokenStream(_tokens), options.Kind == FieldKind.FullText ? FullTextType : ExactType));
            }
            if (_spellings is not null)
            {
                foreach (var spelling in _spellings)
                    document.Add(new StringField(LuceneFields.Spellings(name), spelling, Field.Store.NO));
            }
            if (_docValues.Count > 0)
                document.Add(new BinaryDocValuesField(LuceneFields.Values(name), new BytesRef(_docValues.ToArray())));
        }

        private void AddNumber(DocValueKind kind, byte[] term)
        {
            _numbers.Add(SortableLong(term));
            AddDocValue(kind, term);
        }

        private void AddExact(string exact)
        {
            string? first = null;
            var isNew = false;
            foreach (var token in options.EffectiveAnalyzer.AnalyzeToList(exact))
            {
                _tokens.Add((token.Term, _tokens.Count));
                isNew = (_seenTerms ??= new HashSet<string>(StringComparer.Ordinal)).Add(token.Term);
                first = token.Term;
            }
            // Doc values keep the whole normalized value: sorting, range counting and GetValues need every byte.
            var normalized = options.NormalizeExact(exact);
            AddDocValue(DocValueKind.Text, Encoding.UTF8.GetBytes(normalized));
            // As Folio's engine: a case-folding field remembers how an entry first spelled a value that is its own term.
            if (options is { CaseSensitive: false, Analyzer: null } && isNew && first == normalized && !string.Equals(normalized, exact, StringComparison.Ordinal))
                (_spellings ??= []).Add(normalized + LuceneFields.SpellingSeparator + exact);
        }

        private void AddDocValue(DocValueKind kind, ReadOnlySpan<byte> bytes)
        {
            if (options.Kind == FieldKind.FullText)
                return;
            _docValues.Add((byte)kind);
            if (kind != DocValueKind.Null)
                ByteCoding.WriteBytes(_docValues, bytes);
        }
    }
}
