using Folio.Indexing.Queries.Iterators;
using Folio.Storage.Trees;

namespace Folio.Indexing.Search;

/// <summary>
/// The entries with one value of a numeric field, read from its points block by block as the walk goes:
/// a value many entries share spans many blocks, which an intersection crosses with <see cref="Advance"/>
/// by seeking the block that holds (value, target) instead of decoding the ones between. A field's main blocks
/// and each of its runs (<see cref="PointRuns"/>) have an iterator of their own, read one after another.
/// </summary>
internal sealed class PointValueIterator : DocIdIterator
{
    // Blocks counted for Cost before settling for an upper bound; a value past them is a common one.
    private const int CountedBlocks = 4;

    private readonly PointBlocks _blocks;
    private readonly TreeCursor _cursor;
    private readonly ulong _value;
    private readonly byte[] _key = new byte[PointBlocks.MaxKeySize];
    private long _cost;
    // The ids with the value in the block the cursor is on, from _next on not yet returned.
    private long[] _ids = new long[16];
    private int _count;
    private int _next;
    // Whether the points after the loaded block may still have the value.
    private bool _more;

    private PointValueIterator(PointBlocks blocks, ulong value)
    {
        _blocks = blocks;
        _cursor = blocks.Tree.CreateCursor();
        _value = value;
    }

    /// <inheritdoc/>
    public override long Cost => _cost;

    /// <summary>An iterator over the entries with <paramref name="value"/> in a field's sets of points; empty when none has it.</summary>
    /// <param name="sets">The field's point sets, each one's ids above those of the sets before it.</param>
    /// <param name="value">The value, as a point stores it.</param>
    /// <param name="entryLimit">An upper bound of the entry ids (for the cost of a value too common to count).</param>
    public static DocIdIterator Create(List<PointBlocks> sets, ulong value, long entryLimit)
    {
        List<DocIdIterator>? found = null;
        for (var i = 0; i < sets.Count; i++)
        {
            var iterator = new PointValueIterator(sets[i], value);
            var counted = iterator.CountFirstBlocks(out var complete);
            if (counted == 0)
                continue;
            // A set's ids lie below the next set's first: a value too common to count costs at most that range.
            var idRange = (i + 1 < sets.Count ? sets[i + 1].FirstId : entryLimit) - sets[i].FirstId;
            iterator._cost = complete ? counted : Math.Max(counted, idRange);
            iterator.Load(new Point(value, 0));
            (found ??= []).Add(iterator);
        }
        return found switch
        {
            null => new EmptyIterator(),
            [var one] => one,
            _ => new ConcatenatedIterator(found),
        };
    }

    /// <inheritdoc/>
    public override bool MoveNext()
    {
        if (Current == NoMoreIds)
            return false;
        while (_next == _count)
        {
            if (!_more || !_blocks.MoveNext(_cursor))
                return Exhausted();
            ReadBlock(new Point(_value, 0));
        }
        Current = _ids[_next++];
        return true;
    }

    /// <inheritdoc/>
    public override bool Advance(long target)
    {
        if (Current >= target)
            return Current != NoMoreIds;
        if (_count > 0 && _ids[_count - 1] >= target)
        {
            while (_ids[_next] < target)
                _next++;
            Current = _ids[_next++];
            return true;
        }
        if (!_more || !Load(new Point(_value, target)))
            return Exhausted();
        return MoveNext();
    }

    /// <summary>Positions on the block that holds <paramref name="from"/> (or would) and loads its ids from there on; false when there are none.</summary>
    private bool Load(Point from)
    {
        if (!_blocks.SeekBlockOf(_cursor, from, _key))
            return false;
        ReadBlock(from);
        while (_count == 0 && _more && _blocks.MoveNext(_cursor))
            ReadBlock(from);
        return _count > 0;
    }

    /// <summary>Loads the ids of the cursor's block that have the value and order at or after <paramref name="from"/>.</summary>
    private void ReadBlock(Point from)
    {
        _count = 0;
        _next = 0;
        _more = true;
        var block = new PointBlock.Reader(_blocks.PointKey(_cursor.Key), _cursor.Value);
        if (_ids.Length < block.Remaining)
            _ids = new long[Math.Max(block.Remaining, _ids.Length * 2)];
        while (block.MoveNext())
        {
            var point = block.Current;
            if (point.Value > _value)
            {
                _more = false;
                return;
            }
            if (point.Value == _value && point.Id >= from.Id)
                _ids[_count++] = point.Id;
        }
    }

    /// <summary>Counts the value's points in its first few blocks; <paramref name="complete"/> tells whether that was all of them.</summary>
    private int CountFirstBlocks(out bool complete)
    {
        complete = true;
        if (!Load(new Point(_value, 0)))
            return 0;
        var counted = _count;
        for (var blocks = 1; _more; blocks++)
        {
            if (blocks == CountedBlocks)
            {
                complete = false;
                break;
            }
            if (!_blocks.MoveNext(_cursor))
                break;
            ReadBlock(new Point(_value, 0));
            counted += _count;
        }
        return counted;
    }

    private bool Exhausted()
    {
        Current = NoMoreIds;
        return false;
    }
}
