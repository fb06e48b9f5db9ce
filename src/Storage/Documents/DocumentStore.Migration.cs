using Folio.Storage.Transactions;

namespace Folio.Storage.Documents;

public sealed partial class DocumentStore
{
    /// <summary>Format 1-3's index of every document by etag (etag to id key).</summary>
    private const string Format3EtagsTree = "docs-by-etag";

    /// <summary>Format 1-3's index of each collection's etags (a multi-value tree keyed by lower-cased name).</summary>
    private const string Format3CollectionEtagsTree = "collection-etags";

    /// <summary>
    /// Builds format 4's collection etag index from format 1-3's etag index and drops the two old indexes, in the
    /// transaction that opens the store, so a crash leaves the old format whole and the next open starts over. Reads
    /// each record's collection from the documents tree: the old index held only the id key.
    /// </summary>
    private static void MoveToCollectionEtagIndex(WriteTransaction tx, string description)
    {
        var old = tx.OpenTree(Format3EtagsTree);
        if (old is null)
            return;
        var docs = tx.OpenTree(DocsTree)!;
        var index = tx.OpenTree(CollectionDocsTree)!;
        var numbers = tx.OpenTree(CollectionNumbers.Tree)!;
        var known = new Dictionary<string, uint>(StringComparer.Ordinal);
        Span<byte> key = stackalloc byte[CollectionNumbers.MaxKeyLength];
        Span<byte> idKey = stackalloc byte[DocumentIds.MaxKeyBytes];
        var cursor = old.CreateCursor();
        for (var more = cursor.First(); more; more = cursor.MoveNext())
        {
            var idLength = cursor.Value.Length;
            cursor.Value.CopyTo(idKey);
            if (!docs.TryGet(idKey[..idLength], out var record))
                throw new CorruptionException($"The etag index of {description} points to a document that is not there (etag {CollectionNumbers.EtagOf(cursor.Key)}).");
            var document = new Document(idKey[..idLength], record);
            var collection = document.CollectionString.ToLowerInvariant();
            if (!known.TryGetValue(collection, out var number))
            {
                number = CollectionNumbers.GetOrAdd(numbers, System.Text.Encoding.UTF8.GetBytes(collection));
                known.Add(collection, number);
            }
            index.Put(key[..CollectionNumbers.WriteKey(number, document.Etag, key)], idKey[..idLength]);
        }
        if (index.Count != docs.Count)
            IndexEveryDocument(docs, index, numbers, known);
        tx.DeleteTree(Format3EtagsTree);
        tx.DeleteTree(Format3CollectionEtagsTree);
    }

    /// <summary>
    /// Puts every document of the documents tree into the new index, for an old etag index that missed some: each record
    /// holds its etag and collection, so the documents tree alone is enough. Entries already there are put again as they are.
    /// </summary>
    private static void IndexEveryDocument(Trees.Tree docs, Trees.Tree index, Trees.Tree numbers, Dictionary<string, uint> known)
    {
        Span<byte> key = stackalloc byte[CollectionNumbers.MaxKeyLength];
        var cursor = docs.CreateCursor();
        for (var more = cursor.First(); more; more = cursor.MoveNext())
        {
            var idKey = cursor.Key.ToArray();
            var document = new Document(idKey, cursor.Value);
            var collection = document.CollectionString.ToLowerInvariant();
            if (!known.TryGetValue(collection, out var number))
            {
                number = CollectionNumbers.GetOrAdd(numbers, System.Text.Encoding.UTF8.GetBytes(collection));
                known.Add(collection, number);
            }
            index.Put(key[..CollectionNumbers.WriteKey(number, document.Etag, key)], idKey);
        }
    }
}
