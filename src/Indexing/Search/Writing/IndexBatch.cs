using System.Buffers.Binary;
using System.Runtime.InteropServices;
using System.Text;
using Folio.Indexing.Engines;
using Folio.Storage.Transactions;
using Folio.Storage.Trees;

namespace Folio.Indexing.Search;

/// <summary>
/// Adds, updates and deletes entries as one transaction. Terms are gathered per field in memory and
/// applied to the posting chunks at <see cref="Commit()"/>; everything else (positions, lengths, doc
/// values, the entry record) is written as each entry is added. The caller may write its own state
/// (say, the last indexed etag) through <see cref="Transaction"/>: it commits with the batch or not at all;
/// <see cref="Commit(long)"/> does that for the processed etag of <see cref="IEngineBatch"/>.
/// </summary>
public sealed partial class IndexBatch : IEngineBatch
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
    // The posting-change logs this batch's fields borrowed from the index; given back when the batch ends.
    private readonly List<PendingPostings> _logs = [];
    private readonly List<PendingPoints> _pointLogs = [];
    // The posting and point stores' arrays, rented from the shared pool by the first field written and returned at the end.
    private StoreBuffers? _buffers;
    // One entry's analysis, reused for the next: an entry of a few dozen words would otherwise allocate
    // several kilobytes of dictionaries, lists and records that die at once.
    private readonly Dictionary<string, AnalyzedField> _analysis = new(StringComparer.Ordinal);
    private readonly List<(string Name, AnalyzedField Field)> _analyzed = [];
    private readonly List<byte> _record = new(256);
    // The entry being added: its shape's encoding, and what its fields put in the record after it.
    private readonly List<byte> _shape = new(32);
    private readonly List<byte> _recordTerms = new(256);
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
            WriteField(_shape, _recordTerms, field, analyzed);
            if (field.IsNumeric)
            {
                foreach (var term in analyzed.Terms.Keys)
                    field.Points.Add(BinaryPrimitives.ReadUInt64BigEndian(term), id);
            }
            else
            {
                foreach (var (term, info) in analyzed.Terms)
                {
                    field.Postings.Add(term, id, info.Frequency, info.Positions());
                    if (info.Variant is { } variant)
                        field.CountSpelling(variant, 1);
                }
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
            if (analyzed.ValueKey is not null)
                field.IdColumn!.Set(id, (ulong)field.Dictionary.GetOrAdd(analyzed.ValueKey));
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
        var dead = false;
        for (var f = 0; f < shape.FieldCount; f++)
        {
            var field = FieldByOrdinal(shape.Ordinal(f));
            var flags = shape.Flags(f);
            if (id >= _firstIdOfBatch)
            {
                // Added by this batch: its postings are still additions in the logs, taken back in one pass.
                RetractNewSpellings(record, position, flags, field, id);
                EntryRecord.SkipTerms(record, ref position, flags);
                field.Postings.RemoveAdditionsOf(id);
                field.Marks.RemoveAdditionsOf(id);
                if (field.IsNumeric)
                    field.Points.RemoveAdditionsOf(id);
            }
            else
            {
                dead |= RemoveTerms(record, ref position, flags, field, id);
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
        if (dead)
            _deadIds.Add(id);
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
        WriteDeadEntries();
        foreach (var field in _fields.Values)
            field.Flush(_firstIdOfBatch);
        ReturnLogs();
        _entries.Flush();
        _keys.Flush();
        BinaryPrimitives.WriteInt64LittleEndian(_meta.Reserve(SearchIndex.NextEntryKey, 8), _nextId);
        BinaryPrimitives.WriteInt64LittleEndian(_meta.Reserve(SearchIndex.EntryCountKey, 8), _entryCount);
        _done = true;
        _transaction.Commit();
        _index.Shapes.Publish(_newShapes);
    }

    /// <summary>
    /// Writes <paramref name="processedEtag"/> where <see cref="SearchIndex.ReadProcessedEtag"/> reads it, in the
    /// batch's transaction, and commits (<see cref="Commit()"/>).
    /// </summary>
    public void Commit(long processedEtag)
    {
        ThrowIfDone();
        BinaryPrimitives.WriteInt64LittleEndian(_transaction.CreateTree(SearchIndex.StateTree).Reserve(SearchIndex.ProcessedEtagKey, 8), processedEtag);
        Commit();
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

    /// <summary>Gives the logs back while the batch still holds the write transaction, so no other batch can be using the index's pool; and the stores' arrays to the shared one.</summary>
    private void ReturnLogs()
    {
        foreach (var log in _logs)
            _index.ReturnPending(log);
        _logs.Clear();
        foreach (var log in _pointLogs)
            _index.ReturnPoints(log);
        _pointLogs.Clear();
        if (_buffers is { } buffers)
        {
            _buffers = null;
            StoreBuffers.Return(buffers);
        }
    }

    private void ThrowIfDone() => ObjectDisposedException.ThrowIf(_done, this);
}
