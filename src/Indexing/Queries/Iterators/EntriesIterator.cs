using Folio.Indexing.Search;
using Folio.Storage.Trees;

namespace Folio.Indexing.Queries.Iterators;

/// <summary>Every entry id, from the entries tree (whose keys sort like the ids, <see cref="SearchIndex.EntryKey(long)"/>).</summary>
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
        Span<byte> key = stackalloc byte[SearchIndex.MaxEntryKeySize];
        _started = true;
        return Set(cursor.Seek(SearchIndex.EntryKey(target, key)));
    }

    private bool Set(bool moved)
    {
        Current = moved ? SearchIndex.EntryIdOf(cursor.Key) : NoMoreIds;
        return moved;
    }
}
