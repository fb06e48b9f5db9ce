using System.Buffers.Binary;
using System.Text;
using Folio.Storage.Transactions;
using Folio.Storage.Trees;

namespace Folio.Storage.Documents;

/// <summary>Reads documents from one snapshot; the documents it hands out live until it is disposed.</summary>
public sealed class DocumentReader : IDisposable
{
    private readonly ReadTransaction _transaction;
    private Tree? _docs;
    private Tree? _etags;
    private MultiValueTree? _collectionEtags;
    private Tree? _collections;
    private Tree? _tombstones;
    private MultiValueTree? _collectionTombstones;
    private Tree? _meta;

    internal DocumentReader(DocumentStore store, ReadTransaction transaction)
    {
        Store = store;
        _transaction = transaction;
    }

    // Trees open on first use: a load by id needs only the documents tree, and each opened tree costs
    // a root-tree lookup and an object.
    private Tree Docs => _docs ??= _transaction.OpenTree(DocumentStore.DocsTree)!;

    private Tree Etags => _etags ??= _transaction.OpenTree(DocumentStore.EtagsTree)!;

    private MultiValueTree CollectionEtags => _collectionEtags ??= _transaction.OpenMultiValueTree(DocumentStore.CollectionEtagsTree)!;

    private Tree CollectionsTree => _collections ??= _transaction.OpenTree(DocumentStore.CollectionsTree)!;

    private Tree TombstonesTree => _tombstones ??= _transaction.OpenTree(DocumentStore.TombstonesTree)!;

    private MultiValueTree CollectionTombstones => _collectionTombstones ??= _transaction.OpenMultiValueTree(DocumentStore.CollectionTombstonesTree)!;

    private Tree Meta => _meta ??= _transaction.OpenTree(DocumentStore.MetaTree)!;

    /// <summary>The store read from.</summary>
    public DocumentStore Store { get; }

    /// <summary>The etag of the last write in this snapshot (0 when there was none).</summary>
    public long LastEtag => Meta.TryGet("last-etag"u8, out var value) ? BinaryPrimitives.ReadInt64LittleEndian(value) : 0;

    /// <summary>The number of documents.</summary>
    public long CountOfDocuments => Docs.Count;

    /// <summary>The number of tombstones.</summary>
    public long CountOfTombstones => TombstonesTree.Count;

    /// <summary>The read transaction behind this reader.</summary>
    public ReadTransaction Transaction => _transaction;

    /// <summary>Loads a document by id (case-insensitive).</summary>
    public bool TryGet(string id, out Document document)
    {
        Span<byte> key = stackalloc byte[DocumentIds.MaxKeyBytes];
        if (string.IsNullOrEmpty(id) || Encoding.UTF8.GetByteCount(id) > DocumentIds.MaxIdBytes || !DocumentIds.TryWriteKey(id, key, out var length))
        {
            document = default;
            return false;
        }
        return TryGetByKey(key[..length], out document);
    }

    internal bool TryGetByKey(scoped ReadOnlySpan<byte> key, out Document document)
    {
        if (Docs.TryGet(key, out var record))
        {
            document = new Document(record);
            return true;
        }
        document = default;
        return false;
    }

    /// <summary>The collections with their document counts, by name.</summary>
    public SortedDictionary<string, long> Collections()
    {
        var result = new SortedDictionary<string, long>(StringComparer.OrdinalIgnoreCase);
        var cursor = CollectionsTree.CreateCursor();
        for (var more = cursor.First(); more; more = cursor.MoveNext())
            result[Encoding.UTF8.GetString(cursor.Value[8..])] = BinaryPrimitives.ReadInt64LittleEndian(cursor.Value);
        return result;
    }

    /// <summary>The number of documents in a collection (case-insensitive name).</summary>
    public long CountInCollection(string collection) =>
        CollectionsTree.TryGet(Encoding.UTF8.GetBytes(collection.ToLowerInvariant()), out var value) ? BinaryPrimitives.ReadInt64LittleEndian(value) : 0;

    /// <summary>Documents whose id starts with <paramref name="prefix"/> (case-insensitive), in id order.</summary>
    public DocumentCursor ByIdPrefix(string prefix) => DocumentCursor.ForPrefix(this, Docs.CreateCursor(), Encoding.UTF8.GetBytes(prefix.ToLowerInvariant()));

    /// <summary>Documents written after <paramref name="afterEtag"/>, in etag order.</summary>
    public DocumentCursor ByEtag(long afterEtag = 0) => DocumentCursor.ForEtags(this, Etags.CreateCursor(), afterEtag);

    /// <summary>A collection's documents written after <paramref name="afterEtag"/>, in etag order.</summary>
    public DocumentCursor ByCollection(string collection, long afterEtag = 0) =>
        DocumentCursor.ForCollection(this, CollectionEtags.OpenValues(Encoding.UTF8.GetBytes(collection.ToLowerInvariant())), afterEtag);

    /// <summary>Up to <paramref name="max"/> tombstones after <paramref name="afterEtag"/>, in etag order (of one collection when named).</summary>
    public List<Tombstone> Tombstones(long afterEtag, int max, string? collection = null)
    {
        var result = new List<Tombstone>();
        Span<byte> key = stackalloc byte[8];
        BinaryPrimitives.WriteInt64BigEndian(key, afterEtag + 1);
        if (collection is null)
        {
            var cursor = TombstonesTree.CreateCursor();
            for (var more = cursor.Seek(key); more && result.Count < max; more = cursor.MoveNext())
                result.Add(Tombstone.Decode(BinaryPrimitives.ReadInt64BigEndian(cursor.Key), cursor.Value));
            return result;
        }
        var values = CollectionTombstones.OpenValues(Encoding.UTF8.GetBytes(collection.ToLowerInvariant()));
        for (var more = values.Seek(key); more && result.Count < max; more = values.MoveNext())
        {
            if (TombstonesTree.TryGet(values.Value, out var record))
                result.Add(Tombstone.Decode(BinaryPrimitives.ReadInt64BigEndian(values.Value), record));
        }
        return result;
    }

    /// <summary>
    /// The documents and tombstones changed after <paramref name="afterEtag"/>, merged in etag order: of
    /// <paramref name="collections"/> when given (names compare case-insensitively), else of every collection.
    /// The read stops before the change that would pass <paramref name="maxChanges"/> changes, or that would
    /// start after <paramref name="maxBytes"/> bytes of documents were read; <see cref="DocumentChangeReader.UpToEtag"/>
    /// then says through which etag the read is complete.
    /// </summary>
    public DocumentChangeReader ChangesAfter(long afterEtag, IReadOnlyList<string>? collections = null, int maxChanges = int.MaxValue, long maxBytes = long.MaxValue) =>
        new(this, afterEtag, collections, maxChanges, maxBytes);

    internal TreeCursor EtagCursor() => Etags.CreateCursor();

    internal TreeCursor TombstoneCursor() => TombstonesTree.CreateCursor();

    internal MultiValueCursor CollectionEtagCursor(byte[] collectionKey) => CollectionEtags.OpenValues(collectionKey);

    internal MultiValueCursor CollectionTombstoneCursor(byte[] collectionKey) => CollectionTombstones.OpenValues(collectionKey);

    internal bool TryGetTombstoneRecord(ReadOnlySpan<byte> etagKey, out ReadOnlySpan<byte> record) => TombstonesTree.TryGet(etagKey, out record);

    internal bool TryGetByEtagKey(ReadOnlySpan<byte> etagKey, out Document document)
    {
        if (Etags.TryGet(etagKey, out var idKey))
            return TryGetByKey(idKey, out document);
        document = default;
        return false;
    }

    /// <summary>Ends the snapshot.</summary>
    public void Dispose() => _transaction.Dispose();
}
