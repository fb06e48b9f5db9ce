using System.Buffers.Binary;
using Folio.Storage.Trees;

namespace Folio.Storage.Documents;

/// <summary>
/// One source of changes in etag order, for <see cref="DocumentChangeReader"/> to merge: the documents or
/// the tombstones of one collection (values of a multi-value tree) or of all of them (keys of a tree).
/// </summary>
internal sealed class EtagStream
{
    private readonly TreeCursor? _tree;
    private readonly MultiValueCursor? _values;

    private EtagStream(TreeCursor? tree, MultiValueCursor? values, bool tombstones)
    {
        _tree = tree;
        _values = values;
        IsTombstones = tombstones;
    }

    /// <summary>Whether the stream holds tombstones rather than documents.</summary>
    public bool IsTombstones { get; }

    /// <summary>Whether the stream is on a change (false once it has run out).</summary>
    public bool HasCurrent { get; private set; }

    /// <summary>The etag of the current change.</summary>
    public long Etag { get; private set; }

    /// <summary>The current change's etag as a big-endian key (how the etag trees key documents and tombstones).</summary>
    public ReadOnlySpan<byte> EtagKey => _values is not null ? _values.Value : _tree!.Key;

    /// <summary>
    /// Whether the stream holds more than the etag: an all-collections stream holds a document's id key or a
    /// tombstone's record beside it (<see cref="Record"/>); a collection's stream holds only the etag.
    /// </summary>
    public bool HoldsRecord => _tree is not null;

    /// <summary>The id key (documents) or the record (tombstones) of an all-collections stream's current change.</summary>
    public ReadOnlySpan<byte> Record => _tree!.Value;

    public static EtagStream OfTree(TreeCursor cursor, bool tombstones) => new(cursor, null, tombstones);

    public static EtagStream OfValues(MultiValueCursor cursor, bool tombstones) => new(null, cursor, tombstones);

    /// <summary>Moves to the first change after <paramref name="afterEtag"/>.</summary>
    public void Start(long afterEtag)
    {
        Span<byte> key = stackalloc byte[8];
        BinaryPrimitives.WriteInt64BigEndian(key, afterEtag + 1);
        Settle(_values?.Seek(key) ?? _tree!.Seek(key));
    }

    /// <summary>Moves to the next change.</summary>
    public void MoveNext() => Settle(_values?.MoveNext() ?? _tree!.MoveNext());

    private void Settle(bool moved)
    {
        HasCurrent = moved;
        if (moved)
            Etag = BinaryPrimitives.ReadInt64BigEndian(EtagKey);
    }
}
