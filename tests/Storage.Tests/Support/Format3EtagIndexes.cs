using System.Buffers.Binary;
using System.Text;
using Folio.Storage.Documents;

namespace Folio.Storage.Tests.Support;

/// <summary>
/// Lays a store's etag index out as documents format 3 kept it, for the tests and the benchmark of the move to
/// format 4: all documents by etag (etag to id key) and each collection's etags by lower-cased name (a multi-value
/// tree), without format 4's index and numbers, its records in the layout of formats 1-5 (<see cref="Format5Records"/>),
/// marked format 3. Built from the documents tree, as a format 3 build would have left it.
/// </summary>
internal static class Format3EtagIndexes
{
    public const string EtagsTree = "docs-by-etag";
    public const string CollectionEtagsTree = "collection-etags";

    public static void Write(DocumentStore store)
    {
        using var tx = store.Environment.BeginWrite();
        Format5Records.Write(store, tx);
        var all = tx.CreateTree(EtagsTree);
        var byCollection = tx.CreateMultiValueTree(CollectionEtagsTree);
        var cursor = tx.OpenTree(DocumentStore.DocsTree)!.CreateCursor();
        var etagKey = new byte[8];
        for (var more = cursor.First(); more; more = cursor.MoveNext())
        {
            var record = cursor.Value;
            BinaryPrimitives.WriteInt64BigEndian(etagKey, BinaryPrimitives.ReadInt64LittleEndian(record));
            all.Put(etagKey, cursor.Key);
            byCollection.Add(Encoding.UTF8.GetBytes(CollectionOf(record).ToLowerInvariant()), etagKey);
        }
        if (!tx.DeleteTree(DocumentStore.CollectionDocsTree) || !tx.DeleteTree(CollectionNumbers.Tree))
            throw new InvalidOperationException("The store had no format 4 etag index to replace.");
        var format = new byte[4];
        BinaryPrimitives.WriteInt32LittleEndian(format, 3);
        tx.OpenTree(DocumentStore.MetaTree)!.Put("documents-format"u8, format);
        tx.Commit();
    }

    /// <summary>The collection a record's header names (inline id and collection lengths at 16 and 18, then the inline id and the name at 24).</summary>
    private static string CollectionOf(ReadOnlySpan<byte> record)
    {
        var idLength = BinaryPrimitives.ReadUInt16LittleEndian(record[16..]);
        var collectionLength = BinaryPrimitives.ReadUInt16LittleEndian(record[18..]);
        return Encoding.UTF8.GetString(record.Slice(24 + idLength, collectionLength));
    }
}
