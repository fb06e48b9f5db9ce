using System.Buffers.Binary;
using System.Text;
using Folio.Storage.Documents;

namespace Folio.Storage.Tests.Support;

/// <summary>
/// Lays a store's etag index out as documents format 4 kept it, for the tests and the benchmark of the move to
/// format 5's blocks: one entry a document in <see cref="Tree"/>, the collection's number and the etag to the id key,
/// without format 5's blocks, its records in the layout of formats 1-5 (<see cref="Format5Records"/>), marked format 4.
/// Built from the documents tree with the numbers the store gave.
/// </summary>
internal static class Format4EtagIndex
{
    public const string Tree = "collection-docs";

    public static void Write(DocumentStore store)
    {
        using var tx = store.Environment.BeginWrite();
        var index = tx.CreateTree(Tree);
        var numbers = tx.OpenTree(CollectionNumbers.Tree)!;
        var cursor = tx.OpenTree(DocumentStore.DocsTree)!.CreateCursor();
        var key = new byte[CollectionNumbers.MaxKeyLength];
        for (var more = cursor.First(); more; more = cursor.MoveNext())
        {
            var document = new Document(cursor.Key, cursor.Value, store.CollectionNames);
            if (!CollectionNumbers.TryGet(numbers, Encoding.UTF8.GetBytes(document.CollectionString.ToLowerInvariant()), out var number))
                throw new InvalidOperationException("A document's collection has no number.");
            index.Put(key.AsSpan(0, CollectionNumbers.WriteKey(number, document.Etag, key)), cursor.Key);
        }
        if (!tx.DeleteTree(DocumentStore.CollectionDocsTree))
            throw new InvalidOperationException("The store had no format 5 etag index to replace.");
        Format5Records.Write(store, tx);
        var format = new byte[4];
        BinaryPrimitives.WriteInt32LittleEndian(format, 4);
        tx.OpenTree(DocumentStore.MetaTree)!.Put("documents-format"u8, format);
        tx.Commit();
    }
}
