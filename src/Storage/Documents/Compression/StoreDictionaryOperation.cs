using System.Buffers.Binary;
using Folio.Storage.Merging;
using Folio.Storage.Transactions;

namespace Folio.Storage.Documents.Compression;

/// <summary>
/// Stores a newly trained dictionary under the next version and makes it its collection's current one, in
/// a merged transaction like any write: once it commits, bodies may reference it.
/// </summary>
internal sealed class StoreDictionaryOperation(string collectionKey, byte[] dictionary) : MergedOperation
{
    /// <summary>The version the dictionary was stored under (set by the run that committed).</summary>
    public int Version { get; private set; }

    public override long EstimatedBytes => dictionary.Length + 256;

    public override void Execute(WriteTransaction transaction)
    {
        var meta = transaction.OpenTree(DocumentStore.MetaTree)!;
        var last = meta.TryGet(DictionaryRecord.LastVersionKey, out var stored) ? BinaryPrimitives.ReadInt32LittleEndian(stored) : 0;
        if (last >= DictionaryRecord.MaxVersion)
            throw new InvalidOperationException($"The database has used all {DictionaryRecord.MaxVersion} dictionary versions.");
        var version = last + 1;
        BinaryPrimitives.WriteInt32LittleEndian(meta.Reserve(DictionaryRecord.LastVersionKey, 4), version);
        BinaryPrimitives.WriteInt32LittleEndian(meta.Reserve(DictionaryRecord.CurrentKey(collectionKey), 4), version);
        transaction.OpenTree(DictionaryRecord.Tree)!.Put(DictionaryRecord.VersionKey(version), DictionaryRecord.Encode(collectionKey, dictionary));
        Version = version;
    }
}
