using System.Buffers.Binary;
using Folio.Storage.Trees;

namespace Folio.Indexing.Queries.Iterators;

/// <summary>Every entry id, from the entries tree (whose keys are big-endian ids).</summary>
internal sealed class EntriesIterator(TreeCursor cursor, long count) : DocIdIterator
{
    private bool _started;

    public override long Cost => count;

    public override bool MoveNext()
    {
        var moved = _started ? cursor.MoveNext() : cursor.First();
        _started = true;
        return Set(moved);
    }

    public override bool Advance(long target)
    {
        if (Current >= target)
            return Current != NoMoreIds;
        Span<byte> key = stackalloc byte[8];
        BinaryPrimitives.WriteInt64BigEndian(key, target);
        _started = true;
        return Set(cursor.Seek(key));
    }

    private bool Set(bool moved)
    {
        Current = moved ? BinaryPrimitives.ReadInt64BigEndian(cursor.Key) : NoMoreIds;
        return moved;
    }
}
