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
        var index = new Format4Index(tx.OpenTree(CollectionDocsTree)!, tx.OpenTree(CollectionNumbers.Tree)!);
        // The spans read from the old index and the documents tree stay valid while the new index is written: the
        // transaction changes neither tree's pages.
        var cursor = old.CreateCursor();
        for (var more = cursor.First(); more; more = cursor.MoveNext())
        {
            if (!docs.TryGet(cursor.Value, out var record))
                throw new CorruptionException($"The etag index of {description} points to a document that is not there (etag {CollectionNumbers.EtagOf(cursor.Key)}).");
            index.Add(cursor.Value, record);
        }
        // An old index that missed documents: each record holds its etag and collection, so the documents tree alone is
        // enough; the entries already there are put again as they are.
        if (index.Count != docs.Count)
        {
            var all = docs.CreateCursor();
            for (var more = all.First(); more; more = all.MoveNext())
                index.Add(all.Key, all.Value);
        }
        tx.DeleteTree(Format3EtagsTree);
        tx.DeleteTree(Format3CollectionEtagsTree);
    }

    /// <summary>Format 4's etag index as the move fills it, with the numbers it has given so far kept by name.</summary>
    private sealed class Format4Index(Trees.Tree index, Trees.Tree numbers)
    {
        private readonly Dictionary<string, uint> _known = new(StringComparer.Ordinal);
        private readonly byte[] _key = new byte[CollectionNumbers.MaxKeyLength];

        public long Count => index.Count;

        /// <summary>Puts the record stored under <paramref name="idKey"/> into the index under its collection's number.</summary>
        public void Add(ReadOnlySpan<byte> idKey, ReadOnlySpan<byte> record)
        {
            var document = new Document(idKey, record);
            var collection = document.CollectionString.ToLowerInvariant();
            if (!_known.TryGetValue(collection, out var number))
            {
                number = CollectionNumbers.GetOrAdd(numbers, System.Text.Encoding.UTF8.GetBytes(collection));
                _known.Add(collection, number);
            }
            index.Put(_key.AsSpan(0, CollectionNumbers.WriteKey(number, document.Etag, _key)), idKey);
        }
    }
}
