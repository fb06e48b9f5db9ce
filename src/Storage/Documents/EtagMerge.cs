namespace Folio.Storage.Documents;

/// <summary>
/// Several <see cref="EtagStream"/>s read as one in etag order: a min-heap on each stream's current etag, so a step
/// costs the logarithm of the number of collections. No two streams share an etag (each etag is one write).
/// </summary>
internal sealed class EtagMerge
{
    private readonly EtagStream[] _heap;
    private int _count;

    public EtagMerge(EtagStream[] streams) => _heap = streams;

    /// <summary>The stream with the earliest change, or null once every stream has run out.</summary>
    public EtagStream? Earliest => _count > 0 ? _heap[0] : null;

    /// <summary>Moves every stream to its first change after <paramref name="afterEtag"/>.</summary>
    public void Start(long afterEtag)
    {
        _count = 0;
        for (var i = 0; i < _heap.Length; i++)
        {
            var stream = _heap[i];
            stream.Start(afterEtag);
            if (stream.HasCurrent)
            {
                _heap[i] = _heap[_count];
                _heap[_count++] = stream;
            }
        }
        for (var i = (_count / 2) - 1; i >= 0; i--)
            SiftDown(i);
    }

    /// <summary>Moves the earliest stream to its next change.</summary>
    public void Advance()
    {
        _heap[0].MoveNext();
        Settle();
    }

    /// <summary>
    /// Moves over up to <paramref name="count"/> changes from the earliest and returns how many of those moves landed on
    /// a change: fewer when the streams run out first. The earliest stream moves up to the next stream's etag (one step
    /// per block of its index, <see cref="EtagStream.Skip"/>), so collections written in runs are skipped a block at a
    /// time, interleaved ones a change at a time.
    /// </summary>
    public int Skip(int count)
    {
        var skipped = 0;
        while (skipped < count && _count > 0)
        {
            var rest = count - skipped;
            var moved = _heap[0].Skip(rest, _count == 1 ? long.MaxValue : NextEtag());
            if (moved == rest)
            {
                skipped += moved;
                break;
            }
            // The earliest stream stopped before the next stream's etag or ran out: the move after its last is the
            // next stream's change, if any stream is left.
            var hadOthers = _count > 1;
            Settle();
            if (!hadOthers)
            {
                skipped += moved;
                break;
            }
            skipped += moved + 1;
        }
        return skipped;
    }

    /// <summary>The earliest etag of the streams other than the earliest (the smaller of the heap root's children).</summary>
    private long NextEtag() => _count > 2 && _heap[2].Etag < _heap[1].Etag ? _heap[2].Etag : _heap[1].Etag;

    private void Settle()
    {
        if (!_heap[0].HasCurrent)
        {
            var spent = _heap[0];
            _heap[0] = _heap[--_count];
            _heap[_count] = spent;
        }
        SiftDown(0);
    }

    private void SiftDown(int index)
    {
        while (true)
        {
            var smallest = index;
            var left = (2 * index) + 1;
            var right = left + 1;
            if (left < _count && _heap[left].Etag < _heap[smallest].Etag)
                smallest = left;
            if (right < _count && _heap[right].Etag < _heap[smallest].Etag)
                smallest = right;
            if (smallest == index)
                return;
            (_heap[index], _heap[smallest]) = (_heap[smallest], _heap[index]);
            index = smallest;
        }
    }
}
