using System.Buffers.Binary;
using System.Text;
using Folio.Storage.Transactions;
using Folio.Storage.Trees;

namespace Folio.Indexing.Search;

// The per-field state of a batch: the field writers by name and by the ordinal entry records name them by, and the trees and logs each writes.
public sealed partial class IndexBatch
{
    private FieldWriter Field(string name)
    {
        if (!_fields.TryGetValue(name, out var writer))
        {
            writer = new FieldWriter(_transaction, name, OrdinalOf(name), _index.Schema.Get(name), _meta, RentLog(), RentLog(), RentPointLog, _buffers ??= StoreBuffers.Rent());
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

    /// <summary>The trees of one field in this batch and its pending term changes.</summary>
    private sealed class FieldWriter
    {
        private readonly WriteTransaction _transaction;
        private readonly Tree _meta;
        private readonly PostingStore _markPostings;
        private readonly Func<PendingPoints> _rentPoints;
        private readonly StoreBuffers _buffers;
        private readonly bool _fullText;
        // The batch's changes to the count of entries per spelling variant (SpellingVariant), written at Flush. A variant
        // added and taken back in the batch stays with a change of 0, so Flush drops the id it was given.
        private readonly Dictionary<byte[], long> _spellings = new(ByteArrayComparer.Instance);
        private TermDictionary? _dictionary;
        private PendingPoints? _points;

        public FieldWriter(WriteTransaction transaction, string name, int ordinal, FieldOptions options, Tree meta, PendingPostings postings, PendingPostings marks,
            Func<PendingPoints> rentPoints, StoreBuffers buffers)
        {
            _buffers = buffers;
            _transaction = transaction;
            _meta = meta;
            _rentPoints = rentPoints;
            Name = name;
            Ordinal = ordinal;
            UsesTermIds = options.Kind == FieldKind.Exact;
            IsNumeric = options.IsNumeric;
            var fullText = options.Kind == FieldKind.FullText;
            _fullText = fullText;
            _markPostings = new PostingStore(transaction.CreateTree(SearchIndex.MarksTree(name)), null, withFrequencies: false, buffers);
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
        /// Whether entry records name this field's terms by id (exact fields): text terms repeat across entries, while a
        /// number's 8-byte term is mostly unique, so an id would add a dictionary entry per value and save little; and a
        /// full-text field's record holds no terms (its postings keep their positions).
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

        /// <summary>Changes by <paramref name="delta"/> how many entries spell a term as <paramref name="variant"/> says.</summary>
        public void CountSpelling(byte[] variant, int delta)
        {
            ref var count = ref System.Runtime.InteropServices.CollectionsMarshal.GetValueRefOrAddDefault(_spellings, variant, out _);
            count += delta;
        }

        /// <summary>The dead entries to take out of the field's postings at <see cref="Flush"/> (a sweep, <see cref="DeadEntries"/>), or null.</summary>
        public long[]? SweepIds { get; set; }

        /// <summary>Writes the batch's changes to the field; its entries start at <paramref name="firstIdOfBatch"/>.</summary>
        public void Flush(long firstIdOfBatch)
        {
            // A numeric field has no terms tree unless it held text terms once, whose deletes still change it.
            if (!Postings.IsEmpty)
                Postings.Apply(OpenPostings(), _dictionary);
            if (SweepIds is { } dead)
                Sweep(dead);
            _points?.Apply(_transaction, _transaction.CreateTree(SearchIndex.PointsTree(Name)), SearchIndex.PointRunsTree(Name), firstIdOfBatch, _buffers);
            Marks.Apply(_markPostings, null);
            FlushSpellings();
            _dictionary?.Flush();
            Norms?.Flush();
            Column?.Flush();
            IdColumn?.Flush();
            Stats.Write(_meta.Reserve(SearchIndex.FieldStatsKey(Name), 16));
        }

        private PostingStore OpenPostings() =>
            new(_transaction.CreateTree(SearchIndex.TermsTree(Name)), () => _transaction.CreateTree(SearchIndex.SealedTree(Name)), withFrequencies: _fullText, _buffers,
                _fullText ? new PositionTrees(_transaction.CreateTree(SearchIndex.PositionsTree(Name)), () => _transaction.CreateTree(SearchIndex.SealedPositionsTree(Name))) : null);

        /// <summary>Takes the <paramref name="dead"/> ids out of every full-text term's postings.</summary>
        private void Sweep(long[] dead)
        {
            if (_transaction.OpenTree(SearchIndex.TermsTree(Name)) is not { } terms)
                return;
            // The terms first: the sweep changes the tree a cursor would walk.
            var termKeys = new List<byte[]>();
            var cursor = terms.CreateCursor();
            var term = new byte[64];
            for (var more = cursor.First(); more; more = cursor.MoveNext())
            {
                var key = cursor.Key;
                if (key.Length > term.Length)
                    term = new byte[key.Length];
                if (!TermEncoding.TryDecodeKey(key, term, out _, out var termKeyLength))
                    throw new Folio.Storage.CorruptionException($"The terms of field '{Name}' hold a key that is not a term.");
                // Chunk keys follow their term's key.
                if (termKeyLength == key.Length)
                    termKeys.Add(key.ToArray());
            }
            var store = OpenPostings();
            foreach (var termKey in termKeys)
                store.RemoveEvery(termKey, dead);
        }

        /// <summary>Writes the spelling counts the batch changed into the term dictionary (<see cref="TermDictionary.CountSpelling"/>).</summary>
        private void FlushSpellings()
        {
            foreach (var (variant, delta) in _spellings)
                Dictionary.CountSpelling(variant, delta);
            _spellings.Clear();
        }
    }
}
