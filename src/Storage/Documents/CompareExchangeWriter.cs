using System.Buffers.Binary;
using Folio.Storage.Transactions;
using Folio.Storage.Trees;

namespace Folio.Storage.Documents;

/// <summary>
/// The compare-exchange writes inside one write transaction. Every write of the transaction takes the same index,
/// the next value of the database-wide counter, taken (and written) on the first write that needs it: a transaction
/// is one step of the entries' history, as a cluster transaction is in the seeds' system.
/// </summary>
internal sealed class CompareExchangeWriter
{
    private readonly Tree _entries;
    private readonly Tree _meta;
    private long _index = -1;

    public CompareExchangeWriter(WriteTransaction transaction)
    {
        _entries = transaction.OpenTree(CompareExchangeEntries.Tree)!;
        _meta = transaction.OpenTree(DocumentStore.MetaTree)!;
    }

    /// <summary>The index of this transaction's writes; taking it the first time advances the durable counter.</summary>
    public long TransactionIndex
    {
        get
        {
            if (_index < 0)
            {
                _index = (_meta.TryGet(CompareExchangeEntries.LastIndexKey, out var last) ? BinaryPrimitives.ReadInt64LittleEndian(last) : 0) + 1;
                BinaryPrimitives.WriteInt64LittleEndian(_meta.Reserve(CompareExchangeEntries.LastIndexKey, 8), _index);
            }
            return _index;
        }
    }

    /// <summary>The entry's current index, or null when there is none.</summary>
    public long? CurrentIndex(string key) =>
        _entries.TryGet(CompareExchangeEntries.StorageKey(key), out var record) ? CompareExchangeEntries.IndexOf(record) : null;

    /// <summary>Stores <paramref name="json"/> when the entry's index is <paramref name="expectedIndex"/> (0: when there is no entry).</summary>
    public CompareExchangeResult Put(string key, long expectedIndex, ReadOnlySpan<byte> json)
    {
        CompareExchangeEntries.Validate(key);
        var storageKey = CompareExchangeEntries.StorageKey(key);
        if (_entries.TryGet(storageKey, out var record))
        {
            var current = CompareExchangeEntries.Read(record);
            if (current.Index != expectedIndex)
                return new CompareExchangeResult(false, current.Index, current.Json);
            // An entry keeps the casing of the key it was created with.
            key = current.Key;
        }
        else if (expectedIndex != 0)
        {
            return new CompareExchangeResult(false, -1, null);
        }
        var index = TransactionIndex;
        CompareExchangeEntries.Write(_entries.Reserve(storageKey, CompareExchangeEntries.RecordSize(key, json.Length)), index, key, json);
        return new CompareExchangeResult(true, index, json.ToArray());
    }

    /// <summary>
    /// Removes the entry when its index is <paramref name="expectedIndex"/>; removing an entry that does not exist
    /// succeeds (there is nothing newer the caller could overwrite).
    /// </summary>
    public CompareExchangeResult Delete(string key, long expectedIndex)
    {
        CompareExchangeEntries.Validate(key);
        var storageKey = CompareExchangeEntries.StorageKey(key);
        if (!_entries.TryGet(storageKey, out var record))
            return new CompareExchangeResult(true, TransactionIndex, null);
        var current = CompareExchangeEntries.Read(record);
        if (current.Index != expectedIndex)
            return new CompareExchangeResult(false, current.Index, current.Json);
        _entries.Delete(storageKey);
        return new CompareExchangeResult(true, TransactionIndex, current.Json);
    }

    /// <summary>Writes the atomic guard of a document the transaction stored, whatever its index was.</summary>
    public void SetGuard(string id)
    {
        var key = CompareExchangeEntries.AtomicGuardKey(id);
        ReadOnlySpan<byte> json = "{\"Object\":null}"u8;
        CompareExchangeEntries.Write(_entries.Reserve(CompareExchangeEntries.StorageKey(key), CompareExchangeEntries.RecordSize(key, json.Length)), TransactionIndex, key, json);
    }

    /// <summary>Removes the atomic guard of a document the transaction deleted.</summary>
    public void RemoveGuard(string id) => _entries.Delete(CompareExchangeEntries.StorageKey(CompareExchangeEntries.AtomicGuardKey(id)));
}
