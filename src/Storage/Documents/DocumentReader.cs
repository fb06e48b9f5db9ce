using System.Buffers.Binary;
using System.Text;
using Folio.Storage.Transactions;
using Folio.Storage.Trees;

namespace Folio.Storage.Documents;

/// <summary>Reads documents from one snapshot; the documents it hands out live until it is disposed.</summary>
public sealed class DocumentReader : IDisposable
{
    private readonly ReadTransaction _transaction;
    private readonly Tree _docs;
    private readonly Tree _etags;
    private readonly MultiValueTree _collectionEtags;
    private readonly Tree _collections;
    private readonly Tree _tombstones;
    private readonly MultiValueTree _collectionTombstones;
    private readonly Tree _meta;

    internal DocumentReader(DocumentStore store, ReadTransaction transaction)
    {
        Store = store;
        _transaction = transaction;
        _docs = transaction.OpenTree(DocumentStore.DocsTree)!;
        _etags = transaction.OpenTree(DocumentStore.EtagsTree)!;
        _collectionEtags = transaction.OpenMultiValueTree(DocumentStore.CollectionEtagsTree)!;
        _collections = transaction.OpenTree(DocumentStore.CollectionsTree)!;
        _tombstones = transaction.OpenTree(DocumentStore.TombstonesTree)!;
        _collectionTombstones = transaction.OpenMultiValueTree(DocumentStore.CollectionTombstonesTree)!;
        _meta = transaction.OpenTree(DocumentStore.MetaTree)!;
    }

    /// <summary>The store read from.</summary>
    public DocumentStore Store { get; }

    /// <summary>The etag of the last write in this snapshot (0 when there was none).</summary>
    public long LastEtag => _meta.TryGet("last-etag"u8, out var value) ? BinaryPrimitives.ReadInt64LittleEndian(value) : 0;

    /// <summary>The number of documents.</summary>
    public long CountOfDocuments => _docs.Count;

    /// <summary>The number of tombstones.</summary>
    public long CountOfTombstones => _tombstones.Count;

    /// <summary>The read transaction behind this reader.</summary>
    public ReadTransaction Transaction => _transaction;

    /// <summary>Loads a document by id (case-insensitive).</summary>
    public bool TryGet(string id, out Document document)
    {
        if (string.IsNullOrEmpty(id) || Encoding.UTF8.GetByteCount(id) > DocumentIds.MaxIdBytes)
        {
            document = default;
            return false;
        }
        return TryGetByKey(DocumentIds.Key(id), out document);
    }

    internal bool TryGetByKey(ReadOnlySpan<byte> key, out Document document)
    {
        if (_docs.TryGet(key, out var record))
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
        var cursor = _collections.CreateCursor();
        for (var more = cursor.First(); more; more = cursor.MoveNext())
            result[Encoding.UTF8.GetString(cursor.Value[8..])] = BinaryPrimitives.ReadInt64LittleEndian(cursor.Value);
        return result;
    }

    /// <summary>The number of documents in a collection (case-insensitive name).</summary>
    public long CountInCollection(string collection) =>
        _collections.TryGet(Encoding.UTF8.GetBytes(collection.ToLowerInvariant()), out var value) ? BinaryPrimitives.ReadInt64LittleEndian(value) : 0;

    /// <summary>Documents whose id starts with <paramref name="prefix"/> (case-insensitive), in id order.</summary>
    public DocumentCursor ByIdPrefix(string prefix) => DocumentCursor.ForPrefix(this, _docs.CreateCursor(), Encoding.UTF8.GetBytes(prefix.ToLowerInvariant()));

    /// <summary>Documents written after <paramref name="afterEtag"/>, in etag order.</summary>
    public DocumentCursor ByEtag(long afterEtag = 0) => DocumentCursor.ForEtags(this, _etags.CreateCursor(), afterEtag);

    /// <summary>A collection's documents written after <paramref name="afterEtag"/>, in etag order.</summary>
    public DocumentCursor ByCollection(string collection, long afterEtag = 0) =>
        DocumentCursor.ForCollection(this, _collectionEtags.OpenValues(Encoding.UTF8.GetBytes(collection.ToLowerInvariant())), afterEtag);

    /// <summary>Up to <paramref name="max"/> tombstones after <paramref name="afterEtag"/>, in etag order (of one collection when named).</summary>
    public List<Tombstone> Tombstones(long afterEtag, int max, string? collection = null)
    {
        var result = new List<Tombstone>();
        Span<byte> key = stackalloc byte[8];
        BinaryPrimitives.WriteInt64BigEndian(key, afterEtag + 1);
        if (collection is null)
        {
            var cursor = _tombstones.CreateCursor();
            for (var more = cursor.Seek(key); more && result.Count < max; more = cursor.MoveNext())
                result.Add(Tombstone.Decode(BinaryPrimitives.ReadInt64BigEndian(cursor.Key), cursor.Value));
            return result;
        }
        var values = _collectionTombstones.OpenValues(Encoding.UTF8.GetBytes(collection.ToLowerInvariant()));
        for (var more = values.Seek(key); more && result.Count < max; more = values.MoveNext())
        {
            if (_tombstones.TryGet(values.Value, out var record))
                result.Add(Tombstone.Decode(BinaryPrimitives.ReadInt64BigEndian(values.Value), record));
        }
        return result;
    }

    internal bool TryGetByEtagKey(ReadOnlySpan<byte> etagKey, out Document document)
    {
        if (_etags.TryGet(etagKey, out var idKey))
            return TryGetByKey(idKey, out document);
        document = default;
        return false;
    }

    /// <summary>Ends the snapshot.</summary>
    public void Dispose() => _transaction.Dispose();
}
