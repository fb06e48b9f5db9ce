using System.Numerics;
using Folio.Indexing.Search;
using Folio.Storage.Trees;

namespace Folio.Indexing.Queries.Iterators;

/// <summary>Every entry id, from the entry blocks (<see cref="EntryStore"/>, keyed so that they sort like their ids).</summary>
internal sealed class EntriesIterator(TreeCursor cursor, long count) : DocIdIterator
{
    private bool _started;
    private long _firstId;
    // The ids of the current block not returned yet (bit i for the block's i-th id).
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
        var number = EntryStore.BlockOf(target);
        if (_started && _left != 0 && EntryStore.BlockOf(_firstId) == number)
        {
            _left &= ~0u << (int)(target - _firstId);
            return _left != 0 ? Next() : MoveNext();
        }
        Span<byte> key = stackalloc byte[SearchIndex.MaxEntryKeySize];
        _started = true;
        if (!cursor.Seek(SearchIndex.EntryKey(number, key)))
            return Enter(false, 0);
        return Enter(true, SearchIndex.EntryIdOf(cursor.Key) == number ? target : 0);
    }

    /// <summary>Takes the block under the cursor (when <paramref name="moved"/>), from id <paramref name="from"/> on, and returns its first such id.</summary>
    private bool Enter(bool moved, long from)
    {
        while (moved)
        {
            _firstId = EntryStore.FirstIdOf(SearchIndex.EntryIdOf(cursor.Key));
            _left = EntryStore.Mask(cursor.Value);
            if (from > _firstId)
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
