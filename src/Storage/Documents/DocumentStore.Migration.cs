using Folio.Storage.Transactions;
using Folio.Storage.Trees;

namespace Folio.Storage.Documents;

public sealed partial class DocumentStore
{
    /// <summary>Format 1-3's index of every document by etag (etag to id key).</summary>
    private const string Format3EtagsTree = "docs-by-etag";

    /// <summary>Format 1-3's index of each collection's etags (a multi-value tree keyed by lower-cased name).</summary>
    private const string Format3CollectionEtagsTree = "collection-etags";

    /// <summary>Format 4's collection etag index: an entry a document, the collection's number and the etag to the id key.</summary>
    private const string Format4CollectionDocsTree = "collection-docs";

    /// <summary>
    /// Builds format 5's collection etag index (<see cref="EtagBlock"/>) from format 4's index, or from format 1-3's
    /// index of all documents by etag, and drops the old indexes, in the transaction that opens the store, so a crash
    /// leaves the old format whole and the next open starts over. An old entry that points to no document is a
    /// corruption named by its etag; documents an old index missed are indexed from the documents tree, since each
    /// record holds its etag and collection.
    /// </summary>
    private void MoveToCollectionEtagBlocks(WriteTransaction tx, string description)
    {
        var docs = tx.OpenTree(DocsTree)!;
        var move = new EtagIndexMove(EtagIndex.Use(tx.OpenTree(CollectionDocsTree)!), tx.OpenTree(CollectionNumbers.Tree)!, CollectionNames);
        // The spans read from an old index and the documents tree stay valid while the new index is written: the
        // transaction changes neither tree's pages.
        if (tx.OpenTree(Format4CollectionDocsTree) is { } format4)
        {
            var cursor = format4.CreateCursor();
            for (var more = cursor.First(); more; more = cursor.MoveNext())
            {
                if (!docs.Contains(cursor.Value))
                    throw new CorruptionException($"The etag index of {description} points to a document that is not there (etag {CollectionNumbers.EtagOf(cursor.Key)}).");
                move.Add(CollectionNumbers.NumberOf(cursor.Key), CollectionNumbers.EtagOf(cursor.Key), cursor.Value);
            }
            tx.DeleteTree(Format4CollectionDocsTree);
        }
        else if (tx.OpenTree(Format3EtagsTree) is { } format3)
        {
            var cursor = format3.CreateCursor();
            for (var more = cursor.First(); more; more = cursor.MoveNext())
            {
                if (!docs.TryGet(cursor.Value, out var record))
                    throw new CorruptionException($"The etag index of {description} points to a document that is not there (etag {CollectionNumbers.EtagOf(cursor.Key)}).");
                move.Add(cursor.Value, record);
            }
            tx.DeleteTree(Format3EtagsTree);
            tx.DeleteTree(Format3CollectionEtagsTree);
        }
        if (move.Count == docs.Count)
            return;
        tx.DeleteTree(CollectionDocsTree);
        move = new EtagIndexMove(EtagIndex.Use(tx.CreateTree(CollectionDocsTree)), tx.OpenTree(CollectionNumbers.Tree)!, CollectionNames);
        move.AddAll(docs);
    }

    /// <summary>
    /// Format 5's etag index as a move fills it, with the numbers it has given so far kept by name. Reads records in
    /// the layout of the formats it moves from (<see cref="LegacyRecord"/>).
    /// </summary>
    private sealed class EtagIndexMove(CollectionEtagIndex index, Tree numbers, CollectionNames names)
    {
        private readonly Dictionary<string, uint> _known = new(StringComparer.Ordinal);

        /// <summary>The documents added.</summary>
        public long Count { get; private set; }

        /// <summary>Adds a document of collection <paramref name="number"/>; a collection's etags come in ascending order.</summary>
        public void Add(uint number, long etag, ReadOnlySpan<byte> idKey)
        {
            index.Add(number, etag, idKey);
            Count++;
        }

        /// <summary>Adds the record stored under <paramref name="idKey"/> under its collection's number.</summary>
        public void Add(ReadOnlySpan<byte> idKey, ReadOnlySpan<byte> record)
        {
            var document = new LegacyRecord(idKey, record);
            Add(NumberOf(document.Collection), document.Etag, idKey);
        }

        /// <summary>Adds every document of the documents tree, sorted by collection and etag first (the tree is in id order).</summary>
        public void AddAll(Tree docs)
        {
            var all = new List<(uint Number, long Etag, byte[] Key)>((int)docs.Count);
            var cursor = docs.CreateCursor();
            for (var more = cursor.First(); more; more = cursor.MoveNext())
            {
                var document = new LegacyRecord(cursor.Key, cursor.Value);
                all.Add((NumberOf(document.Collection), document.Etag, cursor.Key.ToArray()));
            }
            all.Sort((a, b) => a.Number != b.Number ? a.Number.CompareTo(b.Number) : a.Etag.CompareTo(b.Etag));
            foreach (var (number, etag, key) in all)
                Add(number, etag, key);
        }

        private uint NumberOf(ReadOnlySpan<byte> name)
        {
            var collection = System.Text.Encoding.UTF8.GetString(name).ToLowerInvariant();
            if (!_known.TryGetValue(collection, out var number))
            {
                number = CollectionNumbers.GetOrAdd(numbers, names, System.Text.Encoding.UTF8.GetBytes(collection), name);
                _known.Add(collection, number);
            }
            return number;
        }
    }
}
