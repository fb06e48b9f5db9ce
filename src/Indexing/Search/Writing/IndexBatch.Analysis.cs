using System.Buffers.Binary;
using System.Globalization;
using System.Runtime.InteropServices;
using System.Text;
using Folio.Indexing.Analysis;

namespace Folio.Indexing.Search;

// Turning an entry's values into terms, positions and doc values, with buffers reused from one entry to the next.
public sealed partial class IndexBatch
{
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
        // Case-folding exact fields remember each term's first spelling when it differs (SpellingVariant).
        private readonly bool _keepsSpellings;
        private TermInfo? _lastTerm;
        private bool _lastTermIsNew;
        private int _valueCount;
        private int _nextPosition;
        private int _docValueCount;

        public AnalyzedField(FieldOptions options, HashSet<byte[]> batchTerms)
        {
            _options = options;
            _keepsSpellings = options is { Kind: FieldKind.Exact, CaseSensitive: false, Analyzer: null };
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

        /// <summary>What the term dictionary names <see cref="ValueTerm"/> by: the term, or its spelling variant.</summary>
        public byte[]? ValueKey { get; private set; }

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
                    AddNumber(DocValueType.Long, TermEncoding.Long(FieldTerms.ToLong(value, name)));
                    break;
                case FieldKind.Double:
                    AddNumber(DocValueType.Double, TermEncoding.Double(FieldTerms.ToDouble(value, name)));
                    break;
                case FieldKind.Exact:
                    var exact = FieldTerms.IndexedText(value);
                    var sink = new TermSink(this, positions: false);
                    _lastTerm = null;
                    _options.EffectiveAnalyzer.Analyze(exact, ref sink);
                    // Doc values keep the whole normalized value, not the (possibly shortened) term: sorting,
                    // range counting and GetValues need every byte.
                    var normalized = _options.NormalizeExact(exact);
                    var normalizedBytes = Encoding.UTF8.GetBytes(normalized);
                    AddDocValue(DocValueType.Text, normalizedBytes);
                    if (_keepsSpellings && _lastTermIsNew && _lastTerm is { } first && !string.Equals(normalized, exact, StringComparison.Ordinal))
                        RememberSpelling(first, normalizedBytes, exact);
                    break;
                case FieldKind.FullText:
                    Flags |= EntryRecord.PositionsFlag;
                    if (_valueCount > 0)
                        _nextPosition += PositionGapBetweenValues;
                    var text = new TermSink(this, positions: true);
                    _options.EffectiveAnalyzer.Analyze(FieldTerms.IndexedText(value), ref text);
                    _nextPosition = text.NextPosition;
                    break;
                case FieldKind.Stored:
                    AddDocValue(DocValueType.Text, Encoding.UTF8.GetBytes(FieldTerms.IndexedText(value)));
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
                foreach (var (term, info) in Terms)
                {
                    ValueTerm = SingleDocValue().SequenceEqual(term) ? term : null;
                    ValueKey = ValueTerm is null ? null : info.Variant ?? term;
                }
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
            _docValues.Clear();
            _encodedDocValues.Clear();
            _valueCount = 0;
            _nextPosition = 0;
            _docValueCount = 0;
            Flags = EntryRecord.ExistsFlag;
            Length = 0;
            SortKey = null;
            ValueTerm = null;
            ValueKey = null;
            _lastTerm = null;
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
            _lastTermIsNew = !_termsBySpan.TryGetValue(term, out var info) || info is null;
            if (info is null)
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
            _lastTerm = info;
            info.Frequency++;
            if (position is { } p)
            {
                info.AddPosition(p);
                Length++;
            }
        }

        /// <summary>
        /// Keeps <paramref name="spelling"/> as the spelling of a term the entry has just met first, when the term is
        /// the whole normalized value and its variant fits (<see cref="SpellingVariant"/>); the variant array is the
        /// batch's shared one, so an entry spelled like an earlier one allocates nothing.
        /// </summary>
        private void RememberSpelling(TermInfo info, ReadOnlySpan<byte> normalized, string spelling)
        {
            if (!info.Term.AsSpan().SequenceEqual(normalized) || Encoding.UTF8.GetMaxByteCount(spelling.Length) > 2 * TermEncoding.MaxTermBytes)
                return;
            Span<byte> spelled = stackalloc byte[2 * TermEncoding.MaxTermBytes];
            var spelledLength = Encoding.UTF8.GetBytes(spelling, spelled);
            Span<byte> variant = stackalloc byte[TermEncoding.MaxTermBytes];
            var length = SpellingVariant.Write(info.Term, spelled[..spelledLength], variant);
            if (length == 0)
                return;
            if (!_batchTerms.TryGetValue(variant[..length], out var shared))
            {
                shared = variant[..length].ToArray();
                _batchTerms.Set.Add(shared);
            }
            info.Variant = shared;
        }

        internal int BasePosition => _nextPosition;
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
        private readonly List<int> _positions = [];
        private bool _positionsOutOfOrder;

        public int Frequency { get; set; }

        /// <summary>The term's bytes as the batch shares them.</summary>
        public byte[] Term { get; set; } = [];

        /// <summary>The term's spelling variant when the entry first spelled it otherwise (<see cref="SpellingVariant"/>), as the batch shares it.</summary>
        public byte[]? Variant { get; set; }

        /// <summary>What the term dictionary names this term of the entry by.</summary>
        public byte[] DictionaryKey => Variant ?? Term;

        public void AddPosition(int position)
        {
            _positionsOutOfOrder |= _positions.Count > 0 && _positions[^1] > position;
            _positions.Add(position);
        }

        /// <summary>The term's positions in a full-text field, ascending (an analyzer may emit tokens out of order); empty in other fields.</summary>
        public ReadOnlySpan<int> Positions()
        {
            if (_positionsOutOfOrder)
            {
                _positions.Sort();
                _positionsOutOfOrder = false;
            }
            return CollectionsMarshal.AsSpan(_positions);
        }

        public void Clear()
        {
            _positions.Clear();
            _positionsOutOfOrder = false;
            Frequency = 0;
            Term = [];
            Variant = null;
        }
    }
}
