using System.Buffers.Binary;
using Folio.Storage.Trees;

namespace Folio.Storage.Documents;

/// <summary>Walks documents by id prefix, by etag or by collection; <see cref="Current"/> is valid until the next move.</summary>
public sealed class DocumentCursor
{
    private readonly DocumentReader _reader;
    private readonly TreeCursor? _tree;
    private readonly MultiValueCursor? _values;
    private readonly byte[] _prefix;
    private readonly long _afterEtag;
    private readonly bool _byEtag;
    private bool _started;
    private bool _done;
    private long _moves;
    private Compression.BodyBuffer? _buffer;

    private DocumentCursor(DocumentReader reader, TreeCursor? tree, MultiValueCursor? values, byte[] prefix, long afterEtag, bool byEtag)
    {
        _reader = reader;
        _tree = tree;
        _values = values;
        _prefix = prefix;
        _afterEtag = afterEtag;
        _byEtag = byEtag;
    }

    /// <summary>The current document.</summary>
    public Document Current
    {
        get
        {
            if (!_started || _done)
                throw new InvalidOperationException("The cursor is not on a document.");
            var buffer = _buffer ??= _reader.CursorBuffer();
            if (_values is not null)
                return _reader.TryGetByEtagKey(_values.Value, out var byCollection, buffer, _moves) ? byCollection : throw Missing();
            if (_byEtag)
                return _reader.TryGetByKey(_tree!.Value, out var byEtag, buffer, _moves) ? byEtag : throw Missing();
            return _reader.Decode(_tree!.Key, _tree.Value, buffer, _moves);
        }
    }

    internal static DocumentCursor ForPrefix(DocumentReader reader, TreeCursor cursor, byte[] prefix) => new(reader, cursor, null, prefix, 0, byEtag: false);

    internal static DocumentCursor ForEtags(DocumentReader reader, TreeCursor cursor, long afterEtag) => new(reader, cursor, null, [], afterEtag, byEtag: true);

    internal static DocumentCursor ForCollection(DocumentReader reader, MultiValueCursor values, long afterEtag) => new(reader, null, values, [], afterEtag, byEtag: true);

    /// <summary>Moves to the next document; false when there are no more.</summary>
    public bool MoveNext()
    {
        if (_done)
            return false;
        _moves++;
        bool moved;
        if (!_started)
        {
            _started = true;
            Span<byte> etag = stackalloc byte[8];
            BinaryPrimitives.WriteInt64BigEndian(etag, _afterEtag + 1);
            if (_values is not null)
                moved = _values.Seek(etag);
            else if (_byEtag)
                moved = _tree!.Seek(etag);
            else
                moved = _prefix.Length == 0 ? _tree!.First() : _tree!.Seek(_prefix);
        }
        else
        {
            moved = _values?.MoveNext() ?? _tree!.MoveNext();
        }
        if (moved && _values is null && !_byEtag && !_tree!.Key.StartsWith(_prefix))
            moved = false;
        _done = !moved;
        return moved;
    }

    /// <summary>
    /// Skips up to <paramref name="count"/> documents, ending where that many <see cref="MoveNext"/> calls would;
    /// returns how many it skipped. Reads no documents and costs one step per index leaf passed, not one per document.
    /// </summary>
    /// <param name="count">How many documents to skip; zero or more.</param>
    /// <returns>How many documents it skipped: fewer than <paramref name="count"/> when the listing ends first.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="count"/> is negative.</exception>
    public int Skip(int count)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        if (count == 0 || !MoveNext())
            return 0;
        var rest = count - 1;
        _moves++;
        var moved = _values?.Skip(rest) ?? (_byEtag ? _tree!.Skip(rest) : _tree!.Skip(rest, _prefix));
        _done = moved < rest;
        return 1 + moved;
    }

    private static CorruptionException Missing() => new("An index entry points to a document that is not there.");
}
