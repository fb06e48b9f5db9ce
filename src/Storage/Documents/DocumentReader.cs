using System.Buffers.Binary;
using System.Text;
using Folio.Storage.Documents.Compression;
using Folio.Storage.Transactions;
using Folio.Storage.Trees;

namespace Folio.Storage.Documents;

/// <summary>
/// Reads documents from one snapshot; the documents it loads by id live until it is disposed, those its cursors
/// hand out until the cursor moves.
/// </summary>
public sealed partial class DocumentReader : IDisposable, IWriteTimeSource
{
    private readonly ReadTransaction _transaction;
    private Tree? _docs;
    private Tree? _collectionDocs;
    private Tree? _collectionNumbers;
    private Tree? _collections;
    private Tree? _tombstones;
    private MultiValueTree? _collectionTombstones;
    private Tree? _meta;
    private Tree? _dictionaries;
    private TreeCursor? _timesCursor;
    private BodyBuffer? _arena;
    private BodyBuffer? _cursorBuffer;
    private List<BodyBuffer>? _moreCursorBuffers;

    internal DocumentReader(DocumentStore store, ReadTransaction transaction)
    {
        Store = store;
        _transaction = transaction;
    }

    // Trees open on first use: a load by id needs only the documents tree, and each opened tree costs
    // a root-tree lookup and an object.
    private Tree Docs => _docs ??= _transaction.OpenTree(DocumentStore.DocsTree)!;

    private Tree CollectionDocs => _collectionDocs ??= _transaction.OpenTree(DocumentStore.CollectionDocsTree)!;

    private Tree Numbers => _collectionNumbers ??= _transaction.OpenTree(CollectionNumbers.Tree)!;

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

    internal bool TryGetByKey(scoped ReadOnlySpan<byte> key, out Document document) => TryGetByKey(key, out document, null, -1);

    /// <summary>Loads a document by key, decompressing into <paramref name="buffer"/> (a cursor's, reused per <paramref name="tag"/>) or else the reader's arena.</summary>
    internal bool TryGetByKey(scoped ReadOnlySpan<byte> key, out Document document, BodyBuffer? buffer, long tag)
    {
        if (Docs.TryGet(key, out var storedKey, out var record))
        {
            document = Decode(storedKey, record, buffer, tag);
            return true;
        }
        document = default;
        return false;
    }

    /// <summary>The raw JSON length of the document under <paramref name="key"/> without decompressing it, or -1 when there is none.</summary>
    internal int JsonLengthByKey(scoped ReadOnlySpan<byte> key)
    {
        if (!Docs.TryGet(key, out var record))
            return -1;
        return new Document(key, record, Store.CollectionNames).RawLength;
    }

    long IWriteTimeSource.TicksAt(long etag) =>
        Store.WriteTimes.TryFind(etag, out var ticks) ? ticks : WriteTimes.Find(_timesCursor ??= _transaction.OpenTree(WriteTimes.TreeName)?.CreateCursor(), etag);

    /// <summary>The document a record holds, its body decompressed when it was stored compressed.</summary>
    internal Document Decode(ReadOnlySpan<byte> key, ReadOnlySpan<byte> record, BodyBuffer? buffer, long tag)
    {
        var stored = new Document(key, record, Store.CollectionNames, this);
        if (!stored.IsCompressed)
            return stored;
        if (buffer is not null && tag >= 0 && buffer.Tag == tag)
            return new Document(stored, buffer.Tagged);
        var rawLength = stored.RawLength;
        var dictionary = Store.Compression.Find(stored.DictionaryVersion, Dictionaries)
            ?? throw new CorruptionException($"Document '{stored.IdString}' is compressed with dictionary {stored.DictionaryVersion}, which the database does not hold or holds damaged.");
        var target = (buffer ?? (_arena ??= Store.RentBodyBuffer(reusable: false))).Take(rawLength);
        int written;
        try
        {
            written = dictionary.Decompress(stored.StoredBody, target, stored.IsMagicless, stored.IsBare);
        }
        catch (Platform.Zstd.ZstdFailureException e)
        {
            throw new CorruptionException($"Document '{stored.IdString}' could not be decompressed with dictionary {stored.DictionaryVersion}: {e.Message}");
        }
        if (stored.HoldsPrefix)
            written = StoreMetadata.Complete(stored, Store.DatabaseIdBytes, target, written);
        if (written != rawLength)
            throw new CorruptionException($"Document '{stored.IdString}' decompressed to {written} bytes; its record says {rawLength}.");
        if (buffer is not null && tag >= 0)
        {
            buffer.Tag = tag;
            buffer.TaggedLength = rawLength;
        }
        return new Document(stored, target);
    }

    /// <summary>A buffer for a cursor's decompressed bodies, given back when the reader is disposed.</summary>
    internal BodyBuffer CursorBuffer()
    {
        var buffer = Store.RentBodyBuffer(reusable: true);
        if (_cursorBuffer is null)
            _cursorBuffer = buffer;
        else
            (_moreCursorBuffers ??= []).Add(buffer);
        return buffer;
    }

    private Tree? Dictionaries => _dictionaries ??= _transaction.OpenTree(DictionaryRecord.Tree);

    /// <summary>The collections with their document counts, by name.</summary>
    public SortedDictionary<string, long> Collections()
    {
        var result = new SortedDictionary<string, long>(StringComparer.OrdinalIgnoreCase);
        var cursor = CollectionsTree.CreateCursor();
        for (var more = cursor.First(); more; more = cursor.MoveNext())
            result[Encoding.UTF8.GetString(cursor.Value[8..])] = BinaryPrimitives.ReadInt64LittleEndian(cursor.Value);
        return result;
    }

    /// <summary>The identities (counters of server-made ids) by the name the seeds' system's clients list them by (<c>users|</c>), with their values.</summary>
    public SortedDictionary<string, long> Identities()
    {
        var result = new SortedDictionary<string, long>(StringComparer.Ordinal);
        var cursor = Meta.CreateCursor();
        for (var more = cursor.Seek(DocumentIdentities.KeyPrefixBytes); more && cursor.Key.StartsWith(DocumentIdentities.KeyPrefixBytes); more = cursor.MoveNext())
            result[DocumentIdentities.DisplayName(cursor.Key)] = BinaryPrimitives.ReadInt64LittleEndian(cursor.Value);
        return result;
    }

    /// <summary>
    /// Each collection's documents with the bytes of their JSON and of their stored bodies: a walk over every
    /// document's header (no body is decompressed), for storage reports rather than hot paths.
    /// </summary>
    public List<CollectionStorage> CollectionStorage()
    {
        var sums = new Dictionary<string, long[]>(StringComparer.OrdinalIgnoreCase);
        var cursor = Docs.CreateCursor();
        for (var more = cursor.First(); more; more = cursor.MoveNext())
        {
            var stored = new Document(cursor.Key, cursor.Value, Store.CollectionNames, this);
            var name = stored.CollectionString;
            if (!sums.TryGetValue(name, out var sum))
                sums.Add(name, sum = new long[4]);
            var compressed = stored.IsCompressed;
            sum[0]++;
            sum[1] += stored.RawLength;
            sum[2] += stored.StoredBody.Length;
            sum[3] += compressed ? 1 : 0;
        }
        var result = new List<CollectionStorage>(sums.Count);
        foreach (var (name, sum) in sums)
            result.Add(new CollectionStorage(name, sum[0], sum[1], sum[2], sum[3], Store.Compression.CurrentVersion(name)));
        result.Sort((a, b) => StringComparer.OrdinalIgnoreCase.Compare(a.Name, b.Name));
        return result;
    }

    /// <summary>The number of documents in a collection (case-insensitive name).</summary>
    public long CountInCollection(string collection) =>
        CollectionsTree.TryGet(Encoding.UTF8.GetBytes(collection.ToLowerInvariant()), out var value) ? BinaryPrimitives.ReadInt64LittleEndian(value) : 0;

    /// <summary>Documents whose id starts with <paramref name="prefix"/> (case-insensitive), in id order.</summary>
    public DocumentCursor ByIdPrefix(string prefix) => DocumentCursor.ForPrefix(this, Docs.CreateCursor(), Encoding.UTF8.GetBytes(prefix.ToLowerInvariant()));

    /// <summary>Documents written after <paramref name="afterEtag"/>, in etag order.</summary>
    public DocumentCursor ByEtag(long afterEtag = 0) => DocumentCursor.ForEtags(this, new EtagMerge([.. CollectionDocumentStreams()]), afterEtag);

    /// <summary>A collection's documents written after <paramref name="afterEtag"/>, in etag order.</summary>
    public DocumentCursor ByCollection(string collection, long afterEtag = 0) =>
        DocumentCursor.ForEtags(this, new EtagMerge(CollectionDocumentStream(Encoding.UTF8.GetBytes(collection.ToLowerInvariant())) is { } stream ? [stream] : []), afterEtag);

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

    /// <summary>A stream of each collection's documents in etag order (of every collection that ever had one).</summary>
    internal List<EtagStream> CollectionDocumentStreams()
    {
        var numbers = CollectionNumbers.All(Numbers);
        var streams = new List<EtagStream>(numbers.Count + 1);
        foreach (var number in numbers)
            streams.Add(EtagStream.OfCollection(CollectionDocs.CreateCursor(), CollectionNumbers.Prefix(number)));
        return streams;
    }

    /// <summary>The stream of one collection's documents in etag order (by lower-cased name), or null if it never had one.</summary>
    internal EtagStream? CollectionDocumentStream(ReadOnlySpan<byte> collectionKey) =>
        CollectionNumbers.TryGet(Numbers, collectionKey, out var number) ? EtagStream.OfCollection(CollectionDocs.CreateCursor(), CollectionNumbers.Prefix(number)) : null;

    internal TreeCursor TombstoneCursor() => TombstonesTree.CreateCursor();

    internal MultiValueCursor CollectionTombstoneCursor(byte[] collectionKey) => CollectionTombstones.OpenValues(collectionKey);

    internal bool TryGetTombstoneRecord(ReadOnlySpan<byte> etagKey, out ReadOnlySpan<byte> record) => TombstonesTree.TryGet(etagKey, out record);

    /// <summary>Ends the snapshot and gives back the buffers its documents were decompressed to.</summary>
    public void Dispose()
    {
        _transaction.Dispose();
        if (_arena is not null)
            Store.ReturnBodyBuffer(_arena);
        if (_cursorBuffer is not null)
            Store.ReturnBodyBuffer(_cursorBuffer);
        if (_moreCursorBuffers is not null)
        {
            foreach (var buffer in _moreCursorBuffers)
                Store.ReturnBodyBuffer(buffer);
        }
        _arena = null;
        _cursorBuffer = null;
        _moreCursorBuffers = null;
    }
}
