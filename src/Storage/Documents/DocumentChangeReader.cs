using System.Text;

namespace Folio.Storage.Documents;

/// <summary>
/// The documents and tombstones changed after an etag, in etag order, from one snapshot
/// (<see cref="DocumentReader.ChangesAfter"/>): what indexers, subscriptions and the changes feed read to
/// catch up. A read of several collections merges their etag trees, so a bound that stops it stops all of
/// them at the same etag, and <see cref="UpToEtag"/> is exact: every change of the collections up to it was
/// returned, none after it.
/// </summary>
public sealed class DocumentChangeReader
{
    private readonly DocumentReader _reader;
    private readonly EtagMerge _merge;
    private readonly int _maxChanges;
    private readonly long _maxBytes;
    private readonly long _lastEtag;
    private EtagStream? _current;
    private bool _measured;
    private bool _done;
    private long _bytes;
    private Compression.BodyBuffer? _buffer;

    internal DocumentChangeReader(DocumentReader reader, long afterEtag, IReadOnlyList<string>? collections, int maxChanges, long maxBytes)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(afterEtag);
        ArgumentOutOfRangeException.ThrowIfNegative(maxChanges);
        ArgumentOutOfRangeException.ThrowIfNegative(maxBytes);
        _reader = reader;
        _maxChanges = maxChanges;
        _maxBytes = maxBytes;
        _lastEtag = Math.Max(afterEtag, reader.LastEtag);
        UpToEtag = afterEtag;
        _merge = new EtagMerge(Open(reader, collections));
        _merge.Start(afterEtag);
    }

    /// <summary>Whether the current change stored a document (<see cref="Document"/>) or deleted one (<see cref="Tombstone"/>).</summary>
    public DocumentChangeKind Kind => Current.IsTombstones ? DocumentChangeKind.Delete : DocumentChangeKind.Put;

    /// <summary>The etag of the current change.</summary>
    public long Etag => Current.Etag;

    /// <summary>The document the current change stored, valid until the reader moves on (a compressed body is decompressed into a buffer the next change reuses). Each access looks it up: read it once.</summary>
    public Document Document
    {
        get
        {
            var stream = Current;
            if (stream.IsTombstones)
                throw new InvalidOperationException("The current change is a delete; read its Tombstone.");
            var document = Load(stream);
            if (!_measured)
            {
                _bytes += document.Json.Length;
                _measured = true;
            }
            return document;
        }
    }

    /// <summary>The tombstone the current change left (its id is lower-cased).</summary>
    public Tombstone Tombstone
    {
        get
        {
            var stream = Current;
            if (!stream.IsTombstones)
                throw new InvalidOperationException("The current change stored a document; read its Document.");
            if (stream.HoldsRecord)
                return Tombstone.Decode(stream.Etag, stream.Record);
            return _reader.TryGetTombstoneRecord(stream.EtagKey, out var record)
                ? Tombstone.Decode(stream.Etag, record)
                : throw new CorruptionException("A collection's tombstone index points to a tombstone that is not there.");
        }
    }

    /// <summary>How many changes the read has returned.</summary>
    public int Count { get; private set; }

    /// <summary>How many bytes of JSON the documents returned so far hold (what the byte bound counts).</summary>
    public long Bytes
    {
        get
        {
            Measure();
            return _bytes;
        }
    }

    /// <summary>
    /// The etag through which the read is complete: while reading, the current change's; once
    /// <see cref="MoveNext"/> returned false, the snapshot's last etag if the changes ran out, or the etag
    /// just before the first change a bound left out. The next read starts after it.
    /// </summary>
    public long UpToEtag { get; private set; }

    /// <summary>Whether the read stopped at a bound with changes left to read.</summary>
    public bool ReachedBound { get; private set; }

    /// <summary>Moves to the next change; false when the changes ran out or a bound was reached.</summary>
    public bool MoveNext()
    {
        if (_done)
            return false;
        if (_current is not null)
        {
            Measure();
            _merge.Advance();
            _current = null;
        }
        var next = _merge.Earliest;
        if (next is null)
        {
            _done = true;
            UpToEtag = _lastEtag;
            return false;
        }
        if (Count >= _maxChanges || _bytes >= _maxBytes)
        {
            _done = true;
            ReachedBound = true;
            UpToEtag = next.Etag - 1;
            return false;
        }
        _current = next;
        _measured = false;
        Count++;
        UpToEtag = next.Etag;
        return true;
    }

    private EtagStream Current => _current ?? throw new InvalidOperationException("The reader is not on a change.");

    private void Measure()
    {
        if (_current is { IsTombstones: false } && !_measured)
        {
            var length = _reader.JsonLengthByKey(_current.Record);
            _bytes += length >= 0 ? length : throw new CorruptionException("An etag index points to a document that is not there.");
            _measured = true;
        }
    }

    private Document Load(EtagStream stream)
    {
        var buffer = _buffer ??= _reader.CursorBuffer();
        return _reader.TryGetByKey(stream.Record, out var document, buffer, Count) ? document : throw new CorruptionException("An etag index points to a document that is not there.");
    }

    /// <summary>A document and a tombstone stream per collection (each named once), or a document stream per collection and the tombstones of all.</summary>
    private static EtagStream[] Open(DocumentReader reader, IReadOnlyList<string>? collections)
    {
        if (collections is null || collections.Count == 0)
        {
            var all = reader.CollectionDocumentStreams();
            all.Add(EtagStream.OfTombstones(reader.TombstoneCursor()));
            return [.. all];
        }
        var keys = new List<byte[]>(collections.Count);
        foreach (var collection in collections)
        {
            var key = Encoding.UTF8.GetBytes(collection.ToLowerInvariant());
            if (!Contains(keys, key))
                keys.Add(key);
        }
        var streams = new List<EtagStream>(keys.Count * 2);
        foreach (var key in keys)
        {
            if (reader.CollectionDocumentStream(key) is { } documents)
                streams.Add(documents);
            streams.Add(EtagStream.OfCollectionTombstones(reader.CollectionTombstoneCursor(key)));
        }
        return [.. streams];
    }

    private static bool Contains(List<byte[]> keys, byte[] key)
    {
        foreach (var known in keys)
        {
            if (known.AsSpan().SequenceEqual(key))
                return true;
        }
        return false;
    }
}
