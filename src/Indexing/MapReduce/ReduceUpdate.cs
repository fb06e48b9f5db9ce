using System.Buffers;
using System.Buffers.Binary;
using System.Text;
using Folio.Indexing.Definitions;
using Folio.Storage.Transactions;
using Folio.Storage.Trees;

namespace Folio.Indexing.MapReduce;

/// <summary>
/// The write of one batch to a <see cref="ReduceStore"/>: retract the entries of documents that changed or
/// went, add their new entries, then turn every group the batch touched into its result row. Only touched
/// groups are read and rewritten, and each entry costs a constant number of tree operations, so a batch
/// costs what it changed, not what the groups hold.
/// </summary>
internal sealed partial class ReduceUpdate : IDisposable
{
    private readonly WriteTransaction _tx;
    private readonly ReduceDefinition _reduce;
    private readonly Tree _meta;
    private readonly Tree _groupIds;
    private readonly Tree _groups;
    private readonly Tree _documents;
    private readonly Tree _extremes;
    private readonly Tree _rows;
    private readonly Tree? _pendingOutput;
    private readonly Dictionary<long, GroupState> _touched = [];

    // The batch's groups by key: each entry of a group after its first skips the group-ids tree.
    private readonly Dictionary<string, long> _groupIdsByKey = new(StringComparer.Ordinal);
    private readonly ArrayBufferWriter<byte> _record = new(256);
    private readonly byte[] _keyBuffer = new byte[Folio.Storage.StorageLimits.MaxKeySize];
    private long _nextGroup;
    private long _nextEntry;
    private long _entryCount;

    public ReduceUpdate(WriteTransaction tx, ReduceDefinition reduce, bool marksOutput, IReadOnlyList<string>? written)
    {
        _tx = tx;
        _reduce = reduce;
        _meta = tx.OpenTree(ReduceStore.MetaTree)!;
        _groupIds = tx.OpenTree(ReduceStore.GroupIdsTree)!;
        _groups = tx.OpenTree(ReduceStore.GroupsTree)!;
        _documents = tx.OpenTree(ReduceStore.DocumentsTree)!;
        _extremes = tx.OpenTree(ReduceStore.ExtremesTree)!;
        _rows = tx.OpenTree(ReduceStore.RowsTree)!;
        _nextGroup = Math.Max(1, ReduceStore.ReadLong(_meta, ReduceStore.NextGroupKey));
        _nextEntry = Math.Max(1, ReduceStore.ReadLong(_meta, ReduceStore.NextEntryKey));
        _entryCount = ReduceStore.ReadLong(_meta, ReduceStore.EntryCountKey);
        if (!marksOutput)
            return;
        _pendingOutput = tx.OpenTree(ReduceStore.PendingOutputTree)!;
        if (written is null)
            return;
        foreach (var key in written)
            _pendingOutput.Delete(KeyBytes(key));
    }

    /// <summary>Whether <paramref name="key"/> (a document key or group key) fits a storage key.</summary>
    public static bool FitsKey(string key) => Encoding.UTF8.GetByteCount(key) <= Folio.Storage.StorageLimits.MaxKeySize - ExtremeKeySize;

    /// <summary>Takes back the entries the document's last indexed version gave, if it had any.</summary>
    public void Retract(string documentKey)
    {
        var key = KeyBytes(documentKey);
        if (!_documents.TryGet(key, out var stored))
            return;
        // The record is read whole before the trees change under it.
        var record = stored.ToArray();
        var reader = new RecordReader(record, _reduce.Aggregations.Count);
        var present = new long[_reduce.Aggregations.Count];
        var numbers = new MapNumber[_reduce.Aggregations.Count][];
        while (reader.Next(out var entryId, out var groupId, present, numbers))
        {
            var state = Load(groupId);
            state.Apply(present, numbers, -1);
            RemoveExtremes(entryId, groupId, numbers);
            _entryCount--;
        }
        _documents.Delete(KeyBytes(documentKey));
    }

    /// <summary>Adds a document's entries (its earlier ones must have been retracted).</summary>
    public void Add(string documentKey, List<MapEntry> entries)
    {
        _record.ResetWrittenCount();
        WriteInt32(entries.Count);
        foreach (var entry in entries)
        {
            var groupId = ResolveGroup(entry.GroupKey);
            var state = Load(groupId);
            state.Apply(entry.Present, entry.Numbers, +1);
            var entryId = _nextEntry++;
            AddExtremes(entryId, groupId, entry.Numbers);
            _entryCount++;
            WriteEntry(entryId, groupId, entry);
        }
        if (entries.Count > 0)
            _documents.Put(KeyBytes(documentKey), _record.WrittenSpan);
    }

    /// <summary>
    /// Writes the state and result row of every group the batch touched, removes groups left without
    /// entries, and records <paramref name="etag"/>; hands the rows and removed group keys to the caller
    /// for the search engine.
    /// </summary>
    public void Finish(long etag, List<(string Key, byte[] Row)> rows, List<string> removed)
    {
        Span<byte> id = stackalloc byte[8];
        foreach (var state in _touched.Values)
        {
            var groupKey = KeyBytes(state.Key).ToArray();
            BinaryPrimitives.WriteInt64BigEndian(id, state.GroupId);
            _pendingOutput?.Put(groupKey, ReadOnlySpan<byte>.Empty);
            if (state.Entries == 0)
            {
                _groups.Delete(id);
                _groupIds.Delete(groupKey);
                _rows.Delete(groupKey);
                removed.Add(state.Key);
                continue;
            }
            state.Write(_groups.Reserve(id, state.SerializedSize));
            var row = BuildRow(state);
            _rows.Put(groupKey, row);
            rows.Add((state.Key, row));
        }
        ReduceStore.WriteLong(_meta, ReduceStore.EtagKey, etag);
        ReduceStore.WriteLong(_meta, ReduceStore.NextGroupKey, _nextGroup);
        ReduceStore.WriteLong(_meta, ReduceStore.NextEntryKey, _nextEntry);
        ReduceStore.WriteLong(_meta, ReduceStore.EntryCountKey, _entryCount);
    }

    /// <summary>The row of group <paramref name="key"/> as this update leaves it; valid until the next write.</summary>
    public bool TryGetRow(string key, out ReadOnlySpan<byte> row) => _rows.TryGet(KeyBytes(key), out row);

    public void Commit() => _tx.Commit();

    public void Dispose() => _tx.Dispose();

    private long ResolveGroup(string groupKey)
    {
        if (_groupIdsByKey.TryGetValue(groupKey, out var known))
            return known;
        var key = KeyBytes(groupKey);
        if (_groupIds.TryGet(key, out var value))
        {
            known = BinaryPrimitives.ReadInt64LittleEndian(value);
            _groupIdsByKey[groupKey] = known;
            return known;
        }
        var groupId = _nextGroup++;
        BinaryPrimitives.WriteInt64LittleEndian(_groupIds.Reserve(key, 8), groupId);
        _touched[groupId] = new GroupState(groupId, groupKey, _reduce.Aggregations.Count);
        _groupIdsByKey[groupKey] = groupId;
        return groupId;
    }

    private GroupState Load(long groupId)
    {
        if (_touched.TryGetValue(groupId, out var state))
            return state;
        Span<byte> id = stackalloc byte[8];
        BinaryPrimitives.WriteInt64BigEndian(id, groupId);
        if (!_groups.TryGet(id, out var stored))
            throw new InvalidDataException($"Map entries name group {groupId}, which the index does not have.");
        state = GroupState.Read(groupId, stored, _reduce.Aggregations.Count);
        _touched[groupId] = state;
        return state;
    }

    private ReadOnlySpan<byte> KeyBytes(string key)
    {
        var written = Encoding.UTF8.GetBytes(key, _keyBuffer);
        return _keyBuffer.AsSpan(0, written);
    }

    private void WriteEntry(long entryId, long groupId, MapEntry entry)
    {
        WriteInt64(entryId);
        WriteInt64(groupId);
        for (var a = 0; a < entry.Present.Length; a++)
        {
            WriteInt64(entry.Present[a]);
            WriteInt32(entry.Numbers[a].Length);
            foreach (var number in entry.Numbers[a])
            {
                var span = _record.GetSpan(9);
                span[0] = number.IsInteger ? (byte)1 : (byte)0;
                if (number.IsInteger)
                    BinaryPrimitives.WriteInt64LittleEndian(span[1..], number.Integer);
                else
                    BinaryPrimitives.WriteDoubleLittleEndian(span[1..], number.Double);
                _record.Advance(9);
            }
        }
    }

    private void WriteInt32(int value)
    {
        BinaryPrimitives.WriteInt32LittleEndian(_record.GetSpan(4), value);
        _record.Advance(4);
    }

    private void WriteInt64(long value)
    {
        BinaryPrimitives.WriteInt64LittleEndian(_record.GetSpan(8), value);
        _record.Advance(8);
    }

    /// <summary>Reads a document's record of entries, as <see cref="WriteEntry"/> wrote them.</summary>
    private ref struct RecordReader(ReadOnlySpan<byte> record, int aggregations)
    {
        private readonly ReadOnlySpan<byte> _record = record;
        private int _offset = 4;
        private int _left = record.Length >= 4 ? BinaryPrimitives.ReadInt32LittleEndian(record) : throw Corrupt();

        public bool Next(out long entryId, out long groupId, long[] present, MapNumber[][] numbers)
        {
            entryId = 0;
            groupId = 0;
            if (_left == 0)
                return false;
            _left--;
            entryId = ReadInt64();
            groupId = ReadInt64();
            for (var a = 0; a < aggregations; a++)
            {
                present[a] = ReadInt64();
                var count = ReadInt32();
                if (count < 0 || count > (_record.Length - _offset) / 9)
                    throw Corrupt();
                var values = count == 0 ? [] : new MapNumber[count];
                for (var i = 0; i < count; i++)
                {
                    var isInteger = _record[_offset] == 1;
                    values[i] = isInteger
                        ? MapNumber.FromInteger(BinaryPrimitives.ReadInt64LittleEndian(_record[(_offset + 1)..]))
                        : MapNumber.FromDouble(BinaryPrimitives.ReadDoubleLittleEndian(_record[(_offset + 1)..]));
                    _offset += 9;
                }
                numbers[a] = values;
            }
            return true;
        }

        private long ReadInt64()
        {
            if (_record.Length - _offset < 8)
                throw Corrupt();
            var value = BinaryPrimitives.ReadInt64LittleEndian(_record[_offset..]);
            _offset += 8;
            return value;
        }

        private int ReadInt32()
        {
            if (_record.Length - _offset < 4)
                throw Corrupt();
            var value = BinaryPrimitives.ReadInt32LittleEndian(_record[_offset..]);
            _offset += 4;
            return value;
        }

        private static InvalidDataException Corrupt() => new("A document's record of map entries is cut short.");
    }
}
