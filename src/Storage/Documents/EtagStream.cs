using System.Buffers.Binary;
using Folio.Storage.Trees;

namespace Folio.Storage.Documents;

/// <summary>
/// One source of changes in etag order, for <see cref="EtagMerge"/> to merge: the documents of one collection (a
/// range of the collection etag index, whose values are id keys), the tombstones of one collection (values of a
/// multi-value tree) or the tombstones of all of them (keys of a tree).
/// </summary>
internal sealed class EtagStream
{
    private readonly TreeCursor? _tree;
    private readonly MultiValueCursor? _values;
    private readonly byte[]? _prefix;

    private EtagStream(TreeCursor? tree, MultiValueCursor? values, byte[]? prefix, bool tombstones)
    {
        _tree = tree;
        _values = values;
        _prefix = prefix;
        IsTombstones = tombstones;
    }

    /// <summary>Whether the stream holds tombstones rather than documents.</summary>
    public bool IsTombstones { get; }

    /// <summary>Whether the stream is on a change (false once it has run out).</summary>
    public bool HasCurrent { get; private set; }

    /// <summary>The etag of the current change.</summary>
    public long Etag { get; private set; }

    /// <summary>The current change's etag as a big-endian key (how the tombstone trees key tombstones).</summary>
    public ReadOnlySpan<byte> EtagKey => _values is not null ? _values.Value : _tree!.Key[^8..];

    /// <summary>
    /// Whether the stream holds more than the etag (<see cref="Record"/>): a document's id key, or a tombstone's record
    /// in the stream of all tombstones; a collection's tombstone stream holds only the etag.
    /// </summary>
    public bool HoldsRecord => _tree is not null;

    /// <summary>The id key (documents) or the record (all tombstones) of the current change.</summary>
    public ReadOnlySpan<byte> Record => _tree!.Value;

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
        Settle(_values?.Seek(key) ?? InRange(_tree!.Seek(key)));
    }

    /// <summary>Moves to the next change.</summary>
    public void MoveNext() => Settle(_values?.MoveNext() ?? InRange(_tree!.MoveNext()));

    /// <summary>
    /// Moves over up to <paramref name="count"/> changes, ending where that many <see cref="MoveNext"/> calls would, but
    /// not onto a change at or after <paramref name="belowEtag"/>: the first such change is where it stops (or the end),
    /// and it is not counted. Returns how many it moved over, one step per leaf passed. Only a collection's documents
    /// skip (listings skip; the changes reader, which reads tombstones, does not).
    /// </summary>
    public int Skip(int count, long belowEtag = long.MaxValue)
    {
        if (_prefix is null)
            throw new InvalidOperationException("Only a stream of a collection's documents skips.");
        if (!HasCurrent || count == 0)
            return 0;
        Span<byte> below = stackalloc byte[CollectionNumbers.MaxKeyLength];
        var length = 0;
        if (belowEtag != long.MaxValue)
        {
            _prefix.CopyTo(below);
            length = _prefix.Length + 8;
            BinaryPrimitives.WriteInt64BigEndian(below[_prefix.Length..], belowEtag);
        }
        var skipped = _tree!.Skip(count, _prefix, below[..length]);
        Settle(InRange(_tree.IsValid));
        return skipped;
    }

    private bool InRange(bool moved) => moved && (_prefix is null || _tree!.Key.StartsWith(_prefix));

    private void Settle(bool moved)
    {
        HasCurrent = moved;
        if (moved)
            Etag = BinaryPrimitives.ReadInt64BigEndian(EtagKey);
    }
}
