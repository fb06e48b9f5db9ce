using Folio.Storage.Trees;

namespace Folio.Storage.Documents;

/// <summary>Walks documents by id prefix, by etag or by collection; <see cref="Current"/> is valid until the next move.</summary>
public sealed class DocumentCursor
{
    private readonly DocumentReader _reader;
    private readonly TreeCursor? _tree;
    private readonly EtagMerge? _merge;
    private readonly byte[] _prefix;
    private readonly long _afterEtag;
    private bool _started;
    private bool _done;
    private long _moves;
    private Compression.BodyBuffer? _buffer;

    private DocumentCursor(DocumentReader reader, TreeCursor? tree, EtagMerge? merge, byte[] prefix, long afterEtag)
    {
        _reader = reader;
        _tree = tree;
        _merge = merge;
        _prefix = prefix;
        _afterEtag = afterEtag;
    }

    /// <summary>The current document.</summary>
    public Document Current
    {
        get
        {
            if (!_started || _done)
                throw new InvalidOperationException("The cursor is not on a document.");
            var buffer = _buffer ??= _reader.CursorBuffer();
            if (_merge is not null)
                return _reader.TryGetByKey(_merge.Earliest!.Record, out var byEtag, buffer, _moves) ? byEtag : throw Missing();
            return _reader.Decode(_tree!.Key, _tree.Value, buffer, _moves);
        }
    }

    internal static DocumentCursor ForPrefix(DocumentReader reader, TreeCursor cursor, byte[] prefix) => new(reader, cursor, null, prefix, 0);

    /// <summary>A cursor over the documents of the merged collection streams, in etag order.</summary>
    internal static DocumentCursor ForEtags(DocumentReader reader, EtagMerge merge, long afterEtag) => new(reader, null, merge, [], afterEtag);

    /// <summary>Moves to the next document; false when there are no more.</summary>
    public bool MoveNext()
    {
        if (_done)
            return false;
        _moves++;
        bool moved;
        if (_merge is not null)
        {
            if (_started)
                _merge.Advance();
            else
                _merge.Start(_afterEtag);
            _started = true;
            moved = _merge.Earliest is not null;
        }
        else
        {
            moved = _started ? _tree!.MoveNext() : _prefix.Length == 0 ? _tree!.First() : _tree!.Seek(_prefix);
            _started = true;
            if (moved && !_tree!.Key.StartsWith(_prefix))
                moved = false;
        }
        _done = !moved;
        return moved;
    }

    /// <summary>
    /// Skips up to <paramref name="count"/> documents, ending where that many <see cref="MoveNext"/> calls would;
    /// returns how many it skipped. Reads no documents. By id prefix it costs one step per leaf of the documents tree
    /// passed; within one collection, one per block of its etag index (64 documents); across several collections, the
    /// same while one collection's run lasts, and a step of their merge where they interleave.
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
        var moved = _merge?.Skip(rest) ?? _tree!.Skip(rest, _prefix);
        _done = moved < rest;
        return 1 + moved;
    }

    private static CorruptionException Missing() => new("An index entry points to a document that is not there.");
}
