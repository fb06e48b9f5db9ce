using System.Buffers;
using System.Buffers.Binary;
using Folio.Storage.Compaction;

namespace Folio.Storage.Documents.Compression;

/// <summary>
/// Rewrites document records as a compaction copies them. A body stored as it is, compressed with an older
/// dictionary than its collection's current one, in an older form (whole with the store's metadata, or with Zstd's
/// magic number: <see cref="Document.CompressedPrefixMagiclessFlag"/>), or on the write path at a lower level than
/// <see cref="DocumentCompressionOptions.CompactionLevel"/>, is compressed again with the current one at that level and
/// kept only when that comes out smaller; one stored whole that could be bare is made bare. Etag, dates, id and JSON stay
/// exactly as they were. Compresses with copies of the dictionaries of its own, since a dictionary's compressor belongs
/// to the write thread.
/// </summary>
internal sealed class DocumentRecompressor(DocumentStore store) : ICompactionValueRewriter, IWriteTimeSource, IDisposable
{
    private readonly Dictionary<string, CompressionDictionary?> _currentByCollection = new(StringComparer.Ordinal);
    private byte[] _raw = [];
    private byte[]? _lastCollection;
    private CompressionDictionary? _lastCurrent;
    private byte[] _compressed = [];

    /// <summary>Drops the batch times no document uses any more before the copy (<see cref="DocumentStore.DropUnusedWriteTimes"/>).</summary>
    public void BeforeCopy(CancellationToken cancellation) => store.DropUnusedWriteTimes(cancellation);

    public bool TryRewrite(string tree, ReadOnlySpan<byte> key, ReadOnlySpan<byte> value, IBufferWriter<byte> output)
    {
        if (tree != DocumentStore.DocsTree)
            return false;
        var stored = new Document(key, value, store.CollectionNames, this);
        if (TryRecompress(key, stored, output, out var markCompacted))
            return true;
        ReadOnlySpan<byte> body = stored.StoredBody;
        var flags = stored.BodyFlags;
        if (stored.BodyFlags == Document.CompressedPrefixMagiclessFlag && BareFrame.TryStripCopy(stored.StoredBody, ref _compressed, out var bareLength))
        {
            body = _compressed.AsSpan(0, bareLength);
            flags = Document.CompressedBareFlags;
        }
        else if (!markCompacted)
        {
            return false;
        }
        body.CopyTo(Reserve(output, key, stored, flags, stored.DictionaryVersion, stored.RawLength, body.Length, out var length, compacted: markCompacted || stored.IsCompacted));
        output.Advance(length);
        return true;
    }

    /// <summary>
    /// Whether <see cref="TryRewrite"/> would try to rewrite this record (it may still keep a body that does not come
    /// out smaller): what a compaction estimate counts without compressing anything. <paramref name="forLevelOnly"/>:
    /// the body is in the current form under the current dictionary and would be recompressed only for the compaction's
    /// level, which saves far less a body than a new dictionary or form does, so an estimate samples those apart.
    /// </summary>
    public bool MayRewrite(Document stored, out bool forLevelOnly)
    {
        forLevelOnly = false;
        if (Outdated(stored) is not { } current)
            return false;
        forLevelOnly = InCurrentForm(stored, current);
        return true;
    }

    /// <summary>
    /// The collection's current dictionary when the record's body is not stored with it in the current form, or is but
    /// was compressed on the write path at a lower level than a compaction's; else null.
    /// </summary>
    private CompressionDictionary? Outdated(Document stored)
    {
        var current = CurrentFor(stored.Collection);
        if (current is null || current.Id == 0)
            return null;
        return !InCurrentForm(stored, current) || AwaitsLevel(stored) ? current : null;
    }

    private bool AwaitsLevel(Document stored) => !stored.IsCompacted && store.Compression.Options.CompactionLevel > store.Compression.Options.Level;

    private static bool InCurrentForm(Document stored, CompressionDictionary current) =>
        stored.BodyFlags is Document.CompressedPrefixMagiclessFlag or Document.CompressedBareFlags && stored.DictionaryVersion == current.Id;

    /// <summary>
    /// Compresses the body again with its collection's current dictionary; false when it need not be, cannot be read back,
    /// or would come out no smaller. <paramref name="markCompacted"/>: a body in the current form that the compaction's
    /// level could not shrink, which the copy marks so that the next compaction does not count it or try again (one that
    /// could not be read back is not marked, so it stays counted).
    /// </summary>
    private bool TryRecompress(ReadOnlySpan<byte> key, Document stored, IBufferWriter<byte> output, out bool markCompacted)
    {
        markCompacted = false;
        if (Outdated(stored) is not { } current)
            return false;
        if (RawJson(stored) is not { } json)
            return false;
        var prefixLength = StoreMetadata.PrefixLength(stored, store.DatabaseIdBytes, json);
        if (prefixLength < 0)
            return false;
        // A whole frame a copy could make bare for nothing is measured as bare: a new one must beat that.
        var limit = Math.Min(prefixLength, stored.StoredBody.Length - (stored.BodyFlags == Document.CompressedPrefixMagiclessFlag ? BareFrame.SavedBytes : 0));
        if (_compressed.Length < json.Length)
            _compressed = new byte[json.Length];
        if (limit <= 0 || !current.TryCompress(json.AsSpan(0, prefixLength), _compressed, limit, out var written, out var bare))
        {
            // Outdated only for the level when already in the current form.
            markCompacted = InCurrentForm(stored, current);
            return false;
        }
        // Marked only when written at a level above the write path's: a compaction that later runs at a higher one
        // must still see this body as one to recompress.
        var options = store.Compression.Options;
        var body = Reserve(output, key, stored, Document.CompressedForm(bare), current.Id, json.Length, written, out var length, compacted: options.CompactionLevel > options.Level);
        _compressed.AsSpan(0, written).CopyTo(body);
        output.Advance(length);
        return true;
    }

    /// <summary>Lays out the header of a copy of <paramref name="stored"/> in <paramref name="output"/> and returns the span its body goes to.</summary>
    private Span<byte> Reserve(IBufferWriter<byte> output, ReadOnlySpan<byte> key, Document stored, byte bodyFlags, int dictionaryVersion, int rawLength, int bodyLength, out int length, bool compacted)
    {
        var id = stored.Id;
        var number = stored.CollectionNumber;
        var numbered = store.CollectionNames.NameOf(number);
        var collection = stored.Collection;
        var headerLength = Document.HeaderLength(stored.Etag, stored.HeldLastModified, key, id, number, collection, numbered, bodyFlags, dictionaryVersion, rawLength);
        length = headerLength + bodyLength;
        var record = output.GetSpan(length)[..length];
        Document.WriteHeader(record, stored.Etag, stored.HeldLastModified, key, id, number, collection, numbered, bodyFlags, dictionaryVersion, rawLength, compacted);
        return record[headerLength..];
    }

    /// <summary>
    /// A time the entries in memory do not cover, from the latest snapshot: the copy reads records from several, and the
    /// entries any of them needs were all kept by the drop that ran before the first (<see cref="BeforeCopy"/>).
    /// </summary>
    public long TicksAt(long etag)
    {
        if (store.WriteTimes.TryFind(etag, out var ticks))
            return ticks;
        using var latest = store.Environment.BeginRead();
        return WriteTimes.Find(latest.OpenTree(WriteTimes.TreeName)?.CreateCursor(), etag);
    }

    public void Dispose()
    {
        foreach (var (_, dictionary) in _currentByCollection)
            dictionary?.Dispose();
        _currentByCollection.Clear();
    }

    /// <summary>The body's JSON, decompressed when stored compressed; null when its dictionary cannot be found (the copy keeps it as it is).</summary>
    private byte[]? RawJson(Document stored)
    {
        var body = stored.StoredBody;
        if (!stored.IsCompressed)
            return Fill(body);
        var rawLength = stored.RawLength;
        var dictionary = store.Compression.Find(stored.DictionaryVersion, null);
        if (dictionary is null)
        {
            using var read = store.Environment.BeginRead();
            dictionary = store.Compression.Find(stored.DictionaryVersion, read.OpenTree(DictionaryRecord.Tree));
            if (dictionary is null)
                return null;
        }
        if (_raw.Length != rawLength)
            _raw = new byte[rawLength];
        var written = dictionary.Decompress(body, _raw, stored.IsMagicless, stored.IsBare);
        if (stored.HoldsPrefix)
            written = StoreMetadata.Complete(stored, store.DatabaseIdBytes, _raw, written);
        return written == rawLength ? _raw : null;
    }

    private byte[] Fill(ReadOnlySpan<byte> json)
    {
        if (_raw.Length != json.Length)
            _raw = new byte[json.Length];
        json.CopyTo(_raw);
        return _raw;
    }

    private CompressionDictionary? CurrentFor(ReadOnlySpan<byte> collectionName)
    {
        // Records come in id order, mostly a collection's run after another's: the last one's answer saves a string
        // and a lookup per record on a walk over every document.
        if (_lastCollection is not null && collectionName.SequenceEqual(_lastCollection))
            return _lastCurrent;
        var collection = System.Text.Encoding.UTF8.GetString(collectionName);
        _lastCollection = collectionName.ToArray();
        _lastCurrent = CurrentFor(collection);
        return _lastCurrent;
    }

    private CompressionDictionary? CurrentFor(string collection)
    {
        if (_currentByCollection.TryGetValue(collection, out var known))
            return known;
        var options = store.Compression.Options;
        CompressionDictionary? copy = null;
        if (options.Compresses(collection))
        {
            var collectionKey = collection.ToLowerInvariant();
            var version = store.Compression.CurrentVersion(collectionKey);
            if (version != 0 && store.Compression.Find(version, null) is { } current)
                copy = new CompressionDictionary(current.Id, collectionKey, current.Bytes.ToArray(), Math.Max(options.Level, options.CompactionLevel));
        }
        _currentByCollection[collection] = copy;
        return copy;
    }
}
