using System.Buffers.Binary;
using Folio.Storage.Trees;

namespace Folio.Storage.Documents;

/// <summary>
/// One source of changes in etag order, for <see cref="EtagMerge"/> to merge: the documents of one collection (its
/// range of the collection etag index, blocks of entries that each hold an etag and an id key, <see cref="EtagBlock"/>),
/// the tombstones of one collection (values of a multi-value tree) or the tombstones of all of them (keys of a tree).
/// </summary>
internal sealed class EtagStream
{
    private readonly TreeCursor? _tree;
    private readonly MultiValueCursor? _values;
    private readonly byte[]? _prefix;

    // A collection's documents: the current block's entries not read yet, where the next starts, and the current
    // entry's etag and id key (each entry's key is rebuilt over the one before it).
    private byte[]? _id;
    private int _idLength;
    private int _left;
    private int _offset;
    private long _blockEtag;

    private EtagStream(TreeCursor? tree, MultiValueCursor? values, byte[]? prefix, bool tombstones)
    {
        _tree = tree;
        _values = values;
        _prefix = prefix;
        IsTombstones = tombstones;
        // Most id keys are short, and a listing of all documents opens a stream per collection: the buffer grows when a
        // longer key comes.
        if (prefix is not null)
            _id = new byte[64];
    }

    /// <summary>Whether the stream holds tombstones rather than documents.</summary>
    public bool IsTombstones { get; }

    /// <summary>Whether the stream is on a change (false once it has run out).</summary>
    public bool HasCurrent { get; private set; }

    /// <summary>The etag of the current change.</summary>
    public long Etag { get; private set; }

    /// <summary>The current tombstone's etag as a big-endian key (how the tombstone trees key tombstones).</summary>
    public ReadOnlySpan<byte> EtagKey => _values is not null ? _values.Value : _prefix is null ? _tree!.Key : throw new InvalidOperationException("A stream of documents has no etag key.");

    /// <summary>
    /// Whether the stream holds more than the etag (<see cref="Record"/>): a document's id key, or a tombstone's record
    /// in the stream of all tombstones; a collection's tombstone stream holds only the etag.
    /// </summary>
    public bool HoldsRecord => _tree is not null;

    /// <summary>The id key (documents) or the record (all tombstones) of the current change.</summary>
    public ReadOnlySpan<byte> Record => _id is not null ? _id.AsSpan(0, _idLength) : _tree!.Value;

    /// <summary>The documents of the collection whose index keys start with <paramref name="prefix"/>.</summary>
    public static EtagStream OfCollection(TreeCursor cursor, byte[] prefix) => new(cursor, null, prefix, tombstones: false);

    /// <summary>The tombstones of every collection, keyed by etag.</summary>
    public static EtagStream OfTombstones(TreeCursor cursor) => new(cursor, null, null, tombstones: true);

    /// <summary>The tombstones of one collection, as the etags its multi-value tree key holds.</summary>
    public static EtagStream OfCollectionTombstones(MultiValueCursor cursor) => new(null, cursor, null, tombstones: true);

    /// <summary>Moves to the first change after <paramref name="afterEtag"/>.</summary>
    public void Start(long afterEtag)
    {
        Span<byte> key = stackalloc byte[CollectionNumbers.MaxKeyLength];
        var length = 0;
        if (_prefix is not null)
        {
            _prefix.CopyTo(key);
            length = _prefix.Length;
        }
        BinaryPrimitives.WriteInt64BigEndian(key[length..], afterEtag + 1);
        key = key[..(length + 8)];
        if (_prefix is null)
        {
            Settle(_values?.Seek(key) ?? _tree!.Seek(key));
            return;
        }
        // The block that may hold the first etag after afterEtag starts at or before it; else the collection's first
        // block starts after it.
        var found = (_tree!.SeekLastAtOrBefore(key) && _tree.Key.StartsWith(_prefix)) || InRange(_tree.Seek(key));
        if (found)
        {
            OpenBlock();
            found = NextDocument();
        }
        while (found && _blockEtag <= afterEtag)
            found = NextDocument();
        Settle(found);
    }

    /// <summary>Moves to the next change.</summary>
    public void MoveNext() => Settle(_prefix is not null ? NextDocument() : _values?.MoveNext() ?? _tree!.MoveNext());

    /// <summary>
    /// Moves over up to <paramref name="count"/> changes, ending where that many <see cref="MoveNext"/> calls would, but
    /// not onto a change at or after <paramref name="belowEtag"/>: the first such change is where it stops (or the end),
    /// and it is not counted. Returns how many it moved over; a block the count passes whole, below the bound, is one
    /// step. Only a collection's documents skip (listings skip; the changes reader, which reads tombstones, does not).
    /// </summary>
    public int Skip(int count, long belowEtag = long.MaxValue)
    {
        if (_prefix is null)
            throw new InvalidOperationException("Only a stream of a collection's documents skips.");
        if (!HasCurrent || count == 0)
            return 0;
        var skipped = 0;
        while (skipped < count)
        {
            if (_left == 0)
            {
                if (!InRange(_tree!.MoveNext()))
                {
                    Settle(false);
                    return skipped;
                }
                OpenBlock();
                // Passed whole only when the move after its last entry is still to come, so the stream never rests on
                // an entry it did not read.
                if (_left < count - skipped && BlockBelow(belowEtag))
                {
                    skipped += _left;
                    _left = 0;
                    continue;
                }
            }
            ReadEntry();
            if (_blockEtag >= belowEtag)
                break;
            skipped++;
        }
        Settle(true);
        return skipped;
    }

    /// <summary>
    /// Whether every etag of the current block is below <paramref name="belowEtag"/>: known from the next block's base
    /// etag when that block is on the same leaf (it is above all of this block's), else from decoding this block's etags.
    /// </summary>
    private bool BlockBelow(long belowEtag)
    {
        if (belowEtag == long.MaxValue)
            return true;
        if (_tree!.TryPeekNextInLeaf(out var next) && next.StartsWith(_prefix) && CollectionNumbers.EtagOf(next) <= belowEtag)
            return true;
        return EtagBlock.LastEtag(_tree.Value, _blockEtag) < belowEtag;
    }

    private bool InRange(bool moved) => moved && (_prefix is null || _tree!.Key.StartsWith(_prefix));

    /// <summary>Reads the next entry of the current block, or of the next block that has one; false past the collection's last.</summary>
    private bool NextDocument()
    {
        while (_left == 0)
        {
            if (!InRange(_tree!.MoveNext()))
                return false;
            OpenBlock();
        }
        ReadEntry();
        return true;
    }

    private void OpenBlock()
    {
        _left = EtagBlock.Count(_tree!.Value);
        _offset = 1;
        _blockEtag = CollectionNumbers.EtagOf(_tree.Key);
        _idLength = 0;
    }

    private void ReadEntry()
    {
        _offset = EtagBlock.ReadEntry(_tree!.Value, _offset, ref _blockEtag, ref _id!, ref _idLength);
        _left--;
    }

    private void Settle(bool moved)
    {
        HasCurrent = moved;
        if (moved)
            Etag = _prefix is not null ? _blockEtag : BinaryPrimitives.ReadInt64BigEndian(EtagKey);
    }
}
