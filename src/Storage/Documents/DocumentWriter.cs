using System.Buffers;
using System.Buffers.Binary;
using System.Buffers.Text;
using System.Text;
using System.Text.Json;
using Folio.Storage.Documents.Compression;
using Folio.Storage.Transactions;
using Folio.Storage.Trees;

namespace Folio.Storage.Documents;

/// <summary>
/// The document writes inside one write transaction: each takes the next etag, keeps the id, etag
/// and collection indexes in step and writes the store-owned metadata at the end of the document.
/// The last etag and the per-collection counts are kept here and written once by <see cref="Complete"/>,
/// not rewritten for every document of a batch.
/// </summary>
internal sealed class DocumentWriter
{
    private static readonly byte[] LastEtagKey = "last-etag"u8.ToArray();

    /// <summary>Bodies shorter than this are stored as they are: a frame's overhead leaves nothing to gain.</summary>
    private const int MinCompressedJson = 48;

    private readonly DocumentStore _store;
    private readonly WriteTransaction _transaction;
    private readonly bool _sharesTime;
    private readonly Tree _docs;
    private readonly CollectionEtagIndex _etagIndex;
    private readonly Tree _numbers;
    private readonly Tree _collections;
    private readonly Tree _tombstones;
    private readonly MultiValueTree _collectionTombstones;
    private readonly Tree _meta;
    private readonly CommitChangeCollector _changes;
    private readonly byte[] _etagKey = new byte[8];
    private readonly StoreMetadata _metadata = new();
    private readonly Dictionary<string, CollectionCount> _counts = new(StringComparer.Ordinal);
    private long _lastEtag = -1;
    private string? _keyedCollection;
    private string _loweredCollection = string.Empty;
    private byte[] _collectionKey = [];
    private byte[] _collectionBytes = [];
    private byte[] _numberedName = [];
    private uint _collectionNumber;
    private DateTime _sharedTime;

    /// <summary>
    /// A writer for one batch. <paramref name="puts"/>: the documents it will put; a batch of
    /// <see cref="WriteTimes.SharedFrom"/> or more gives them one time, kept once (<see cref="WriteTimes"/>).
    /// </summary>
    public DocumentWriter(DocumentStore store, WriteTransaction transaction, int puts = 1)
    {
        _store = store;
        _transaction = transaction;
        _sharesTime = puts >= WriteTimes.SharedFrom;
        _docs = transaction.OpenTree(DocumentStore.DocsTree)!;
        _etagIndex = store.EtagIndex.Use(transaction.OpenTree(DocumentStore.CollectionDocsTree)!);
        _numbers = transaction.OpenTree(CollectionNumbers.Tree)!;
        _collections = transaction.OpenTree(DocumentStore.CollectionsTree)!;
        _tombstones = transaction.OpenTree(DocumentStore.TombstonesTree)!;
        _collectionTombstones = transaction.OpenMultiValueTree(DocumentStore.CollectionTombstonesTree)!;
        _meta = transaction.OpenTree(DocumentStore.MetaTree)!;
        _changes = store.ChangesOf(transaction);
    }

    /// <summary>The puts among <paramref name="commands"/>: what a batch's writer is made with.</summary>
    public static int Puts(IReadOnlyList<DocumentCommand> commands)
    {
        var puts = 0;
        foreach (var command in commands)
            puts += command.Type == DocumentCommandType.Put ? 1 : 0;
        return puts;
    }

    /// <summary>Writes what the writes so far left pending (the last etag, the collection counts); call once, after the last write.</summary>
    public void Complete()
    {
        if (_lastEtag >= 0)
            BinaryPrimitives.WriteInt64LittleEndian(_meta.Reserve(LastEtagKey, 8), _lastEtag);
        foreach (var (_, count) in _counts)
        {
            if (count.Count > 0)
            {
                var value = _collections.Reserve(count.Key, 8 + count.Display!.Length);
                BinaryPrimitives.WriteInt64LittleEndian(value, count.Count);
                count.Display.CopyTo(value[8..]);
            }
            else if (count.Existed)
            {
                _collections.Delete(count.Key);
            }
        }
        _counts.Clear();
    }

    public WriteResult Put(string id, PreparedDocument document, string? expectedChangeVector)
    {
        if (DocumentIds.IsServerGenerated(id))
            id = NextIdentity(id);
        DocumentIds.Validate(id);
        Span<byte> keyBuffer = stackalloc byte[DocumentIds.MaxKeyBytes];
        ReadOnlySpan<byte> key = Key(id, keyBuffer);
        var existing = _docs.TryGet(key, out var stored) ? new Document(key, stored, _store.CollectionNames) : default;
        var exists = !stored.IsEmpty;
        CheckExpected(id, expectedChangeVector, exists, exists ? existing.Etag : 0);

        var collection = document.Collection ?? DocumentIds.CollectionFromId(id);
        var collectionKey = CollectionKey(collection);
        if (exists)
        {
            var oldEtag = existing.Etag;
            var oldCollection = existing.CollectionString;
            _etagIndex.Remove(existing.CollectionNumber, oldEtag);
            if (!string.Equals(oldCollection, collection, StringComparison.OrdinalIgnoreCase))
            {
                ChangeCollectionCount(oldCollection, -1);
                ChangeCollectionCount(collection, +1);
                // The old collection's indexes and subscriptions must learn the document left it.
                var leftEtag = NextEtag();
                _tombstones.Put(EtagKey(leftEtag), Tombstone.Encode(Encoding.UTF8.GetString(key), oldCollection));
                _collectionTombstones.Add(Encoding.UTF8.GetBytes(oldCollection.ToLowerInvariant()), EtagKey(leftEtag));
                _changes.Add(leftEtag, id, oldCollection, DocumentChangeKind.Delete);
            }
        }
        else
        {
            ChangeCollectionCount(collection, +1);
        }

        var etag = NextEtag();
        var lastModified = TimeOfWrite(etag);
        // The record holds no time when its batch's is kept once.
        DateTime? heldTime = _sharesTime ? null : lastModified;
        var changeVector = ChangeVector.ToString(etag, _store.DatabaseIdBytes);
        Span<byte> idBuffer = stackalloc byte[DocumentIds.MaxIdBytes];
        ReadOnlySpan<byte> idBytes = idBuffer[..Encoding.UTF8.GetBytes(id, idBuffer)];
        var collectionBytes = _collectionBytes;
        var properties = _metadata.Write(collectionBytes, idBytes, etag, _store.DatabaseIdBytes, lastModified);
        var comma = document.MetadataHasProperties ? 1 : 0;
        var jsonLength = document.Prefix.Length + comma + properties.Length + 1;
        var compression = jsonLength >= MinCompressedJson ? _store.Compression.ForWriting(_loweredCollection, collection) : null;
        if (compression is null)
            WritePlain(key, etag, heldTime, idBytes, document, comma, properties, jsonLength);
        else
            WriteCompressed(key, compression, etag, heldTime, idBytes, document, comma, properties, jsonLength);

        _etagIndex.Add(_collectionNumber, etag, key);
        _changes.Add(etag, id, collection, DocumentChangeKind.Put);
        return new WriteResult(id, collection, changeVector, lastModified, etag, Deleted: false);
    }

    /// <summary>
    /// Compresses the body without the store's metadata (which reads rebuild from the header,
    /// <see cref="Document.CompressedPrefixMagiclessFlag"/>) with the collection's current dictionary and stores it with the
    /// whole JSON's length in front, or stores the whole JSON as it is when the frame would not come out smaller than
    /// what it holds (so incompressible bodies are still read in place, without a copy). Feeds
    /// the collection's samples and ratio, and starts a training when the samples are ready.
    /// </summary>
    private void WriteCompressed(ReadOnlySpan<byte> key, CollectionCompression compression, long etag, DateTime? heldTime, ReadOnlySpan<byte> idBytes, PreparedDocument document, int comma, ReadOnlySpan<byte> properties, int jsonLength)
    {
        var codec = _store.Compression;
        var prefix = document.Prefix;
        if (compression.Sample(prefix) is { } samples)
            codec.StartTraining(compression, samples);
        var dictionary = compression.Current;
        var compressed = codec.CompressedScratch(jsonLength);
        if (dictionary.TryCompress(prefix, compressed, prefix.Length, out var written, out var bare))
        {
            var form = Document.CompressedForm(bare);
            var headerLength = Document.HeaderLength(etag, heldTime, key, idBytes, _collectionNumber, _collectionBytes, _numberedName, form, dictionary.Id, jsonLength);
            var record = _docs.Reserve(key, headerLength + written);
            Document.WriteHeader(record, etag, heldTime, key, idBytes, _collectionNumber, _collectionBytes, _numberedName, form, dictionary.Id, jsonLength);
            compressed[..written].CopyTo(record[headerLength..]);
            compression.Observe(jsonLength, written);
            return;
        }
        WritePlain(key, etag, heldTime, idBytes, document, comma, properties, jsonLength);
        compression.Observe(jsonLength, jsonLength);
    }

    private void WritePlain(ReadOnlySpan<byte> key, long etag, DateTime? heldTime, ReadOnlySpan<byte> idBytes, PreparedDocument document, int comma, ReadOnlySpan<byte> properties, int jsonLength)
    {
        var headerLength = Document.HeaderLength(etag, heldTime, key, idBytes, _collectionNumber, _collectionBytes, _numberedName);
        var record = _docs.Reserve(key, headerLength + jsonLength);
        Document.WriteHeader(record, etag, heldTime, key, idBytes, _collectionNumber, _collectionBytes, _numberedName);
        LayOut(record[headerLength..], document, comma, properties);
    }

    /// <summary>
    /// The stored JSON: the prepared prefix (which leaves "@metadata" open), a comma when the client's metadata
    /// has properties, the store's properties (the metadata object without its opening brace) and the closing brace.
    /// </summary>
    private static void LayOut(Span<byte> json, PreparedDocument document, int comma, ReadOnlySpan<byte> properties)
    {
        document.Prefix.CopyTo(json);
        if (comma == 1)
            json[document.Prefix.Length] = (byte)',';
        properties.CopyTo(json[(document.Prefix.Length + comma)..]);
        json[^1] = (byte)'}';
    }

    /// <summary>
    /// The time a put writes: the batch's, the same for every document, when it shares one (kept at the first
    /// document's etag); otherwise now.
    /// </summary>
    private DateTime TimeOfWrite(long etag)
    {
        if (!_sharesTime)
            return DateTime.UtcNow;
        if (_sharedTime == default)
        {
            _sharedTime = DateTime.UtcNow;
            WriteTimes.Keep(_transaction.OpenTree(WriteTimes.TreeName)!, etag, _sharedTime.Ticks);
            _changes.KeepTime(etag, _sharedTime.Ticks);
        }
        return _sharedTime;
    }

    public WriteResult? Delete(string id, string? expectedChangeVector)
    {
        DocumentIds.Validate(id);
        Span<byte> keyBuffer = stackalloc byte[DocumentIds.MaxKeyBytes];
        ReadOnlySpan<byte> key = Key(id, keyBuffer);
        if (!_docs.TryGet(key, out var stored))
        {
            CheckExpected(id, expectedChangeVector, exists: false, 0);
            return null;
        }
        var existing = new Document(key, stored, _store.CollectionNames);
        CheckExpected(id, expectedChangeVector, exists: true, existing.Etag);
        var originalId = existing.IdString;
        var collection = existing.CollectionString;
        var collectionKey = CollectionKey(collection);
        _etagIndex.Remove(existing.CollectionNumber, existing.Etag);
        _docs.Delete(key);
        ChangeCollectionCount(collection, -1);

        var etag = NextEtag();
        _tombstones.Put(EtagKey(etag), Tombstone.Encode(Encoding.UTF8.GetString(key), collection));
        _collectionTombstones.Add(collectionKey, EtagKey(etag));
        _changes.Add(etag, originalId, collection, DocumentChangeKind.Delete);
        return new WriteResult(originalId, collection, null, DateTime.UtcNow, etag, Deleted: true);
    }

    private void CheckExpected(string id, string? expected, bool exists, long etag)
    {
        if (expected is null)
            return;
        // An empty change vector is the seeds' clients' "only if it does not exist yet".
        if (expected.Length == 0 && !exists)
            return;
        if (exists && ChangeVector.TryParse(expected, _store.DatabaseIdBytes, out var expectedEtag) && expectedEtag == etag)
            return;
        var actual = exists ? ChangeVector.ToString(etag, _store.DatabaseIdBytes) : null;
        throw new ConcurrencyException(exists
            ? $"Document '{id}' has change vector {actual}, not the expected {expected}."
            : $"Document '{id}' does not exist, so it cannot have the expected change vector {expected}.")
        {
            Id = id,
            Expected = expected,
            Actual = actual,
        };
    }

    private long NextEtag()
    {
        if (_lastEtag < 0)
            _lastEtag = _meta.TryGet(LastEtagKey, out var last) ? BinaryPrimitives.ReadInt64LittleEndian(last) : 0;
        return ++_lastEtag;
    }

    private static ReadOnlySpan<byte> Key(string id, Span<byte> buffer) =>
        DocumentIds.TryWriteKey(id, buffer, out var length) ? buffer[..length] : throw new DocumentValidationException($"The id '{id}' is too long.");

    /// <summary>
    /// The lower-cased key of a collection (and its name's bytes, for the record header, and its number, for the etag
    /// index); a batch usually writes one collection, so the last is kept.
    /// </summary>
    private byte[] CollectionKey(string collection)
    {
        if (!string.Equals(collection, _keyedCollection, StringComparison.Ordinal))
        {
            _loweredCollection = collection.ToLowerInvariant();
            _collectionKey = Encoding.UTF8.GetBytes(_loweredCollection);
            _collectionBytes = Encoding.UTF8.GetBytes(collection);
            _collectionNumber = CollectionNumbers.GetOrAdd(_numbers, _store.CollectionNames, _collectionKey, _collectionBytes);
            _numberedName = _store.CollectionNames.NameOf(_collectionNumber);
            _keyedCollection = collection;
        }
        return _collectionKey;
    }

    /// <summary>Turns <c>orders/</c> or <c>orders|</c> into <c>orders/{n}</c> with n the prefix's next number.</summary>
    private string NextIdentity(string id)
    {
        var prefix = id[..^1] + "/";
        var key = DocumentIdentities.Key(prefix);
        var next = (_meta.TryGet(key, out var current) ? BinaryPrimitives.ReadInt64LittleEndian(current) : 0) + 1;
        Span<byte> keyBuffer = stackalloc byte[DocumentIds.MaxKeyBytes];
        while (_docs.Contains(Key(prefix + next, keyBuffer)))
            next++;
        BinaryPrimitives.WriteInt64LittleEndian(_meta.Reserve(key, 8), next);
        return prefix + next.ToString(System.Globalization.CultureInfo.InvariantCulture);
    }

    /// <summary>
    /// Adds to a collection's count (kept by lower-cased name; the stored value keeps the casing the
    /// collection was created with). Written by <see cref="Complete"/>; the running count behaves as if
    /// written per document, so a collection emptied and refilled within a batch takes the new casing.
    /// </summary>
    private void ChangeCollectionCount(string collection, int delta)
    {
        var lowered = string.Equals(collection, _keyedCollection, StringComparison.Ordinal) ? _loweredCollection : collection.ToLowerInvariant();
        if (!_counts.TryGetValue(lowered, out var count))
        {
            var key = Encoding.UTF8.GetBytes(lowered);
            count = _collections.TryGet(key, out var stored)
                ? new CollectionCount(key, BinaryPrimitives.ReadInt64LittleEndian(stored), stored[8..].ToArray(), existed: true)
                : new CollectionCount(key, 0, null, existed: false);
            _counts.Add(lowered, count);
        }
        count.Count += delta;
        if (count.Count <= 0)
            count.Display = null;
        else
            count.Display ??= Encoding.UTF8.GetBytes(collection);
    }

    /// <summary>A collection's count as the batch so far left it.</summary>
    private sealed class CollectionCount(byte[] key, long count, byte[]? display, bool existed)
    {
        public byte[] Key { get; } = key;

        public long Count { get; set; } = count;

        public byte[]? Display { get; set; } = display;

        public bool Existed { get; } = existed;
    }

    private byte[] EtagKey(long etag)
    {
        BinaryPrimitives.WriteInt64BigEndian(_etagKey, etag);
        return _etagKey;
    }
}
