using System.Numerics;
using Folio.Indexing.Search;
using Folio.Storage.Trees;

namespace Folio.Indexing.Queries.Iterators;

/// <summary>Every entry id, from the entry blocks (<see cref="EntryStore"/>, keyed by their first ids).</summary>
internal sealed class EntriesIterator(TreeCursor cursor, long count) : DocIdIterator
{
    private bool _started;
    private long _firstId;
    // The ids of the current block not returned yet (bit i for its first id + i).
    private uint _left;

    public override long Cost => count;

    public override bool MoveNext()
    {
        if (_left != 0)
            return Next();
        var moved = _started ? cursor.MoveNext() : cursor.First();
        _started = true;
        return Enter(moved, 0);
    }

    public override bool Advance(long target)
    {
        if (Current >= target)
            return Current != NoMoreIds;
        if (_started && _left != 0 && target - _firstId < EntryStore.BlockSpan)
        {
            _left &= ~0u << (int)(target - _firstId);
            // A block closed early (by its byte limit) leaves the next one starting below the target.
            return _left != 0 ? Next() : Enter(cursor.MoveNext(), target);
        }
        Span<byte> key = stackalloc byte[SearchIndex.MaxEntryKeySize];
        _started = true;
        var moved = cursor.SeekLastAtOrBefore(SearchIndex.EntryKey(target, key)) || cursor.First();
        return Enter(moved, target);
    }

    /// <summary>Takes the block under the cursor (when <paramref name="moved"/>) and the ones after it, from id <paramref name="from"/> on, and returns the first such id.</summary>
    private bool Enter(bool moved, long from)
    {
        while (moved)
        {
            _firstId = SearchIndex.EntryIdOf(cursor.Key);
            _left = EntryStore.Mask(cursor.Value);
            if (from - _firstId >= EntryStore.BlockSpan)
                _left = 0;
            else if (from > _firstId)
                _left &= ~0u << (int)(from - _firstId);
            if (_left != 0)
                return Next();
            moved = cursor.MoveNext();
        }
        _left = 0;
        Current = NoMoreIds;
        return false;
    }

    private bool Next()
    {
        var slot = BitOperations.TrailingZeroCount(_left);
        _left &= _left - 1;
        Current = _firstId + slot;
        return true;
    }
}
