namespace Folio.Indexing.Postings;

/// <summary>
/// Walks an encoded posting list in id order, decoding one block of up to
/// <see cref="PostingsEncoder.BlockSize"/> ids at a time into buffers it owns, and skips ahead with
/// the list's skip table without decoding the blocks it passes.
/// </summary>
/// <remarks>
/// A class over <see cref="ReadOnlyMemory{T}"/> rather than a ref struct so query operators (AND,
/// OR, NOT) can hold iterators in fields and arrays. One instance can be reused for many lists
/// through <see cref="Reset"/>; after construction nothing allocates. The memory must stay valid
/// (for storage-engine values: the read transaction must stay open) while the iterator is used.
/// Corrupt data surfaces as <see cref="InvalidDataException"/> from whichever call decodes it.
/// </remarks>
public sealed class PostingsIterator
{
    private const int BlockSize = PostingsFormat.BlockSize;

    private static readonly byte[] EmptyList = [PostingsFormat.LayoutInline, 0];

    private readonly long[] _ids = new long[BlockSize];
    private readonly int[] _frequencies = new int[BlockSize];
    private readonly ulong[] _scratch = new ulong[BlockSize];
    private ReadOnlyMemory<byte> _data;
    private PostingsHeader _header;
    private int _length;
    private int _index;
    private int _nextBlock;
    private int _streamPosition;
    private int _streamRemaining;
    private long _streamPrevious;
    private long _current;

    /// <summary>Creates an iterator positioned before the first id of an empty list; call
    /// <see cref="Reset"/> to point it at a list.</summary>
    public PostingsIterator()
    {
        Reset(EmptyList);
    }

    /// <summary>Creates an iterator positioned before the first id of <paramref name="encoded"/>.</summary>
    /// <param name="encoded">An encoded posting list.</param>
    /// <exception cref="InvalidDataException">The header is corrupt or truncated.</exception>
    public PostingsIterator(ReadOnlyMemory<byte> encoded)
    {
        Reset(encoded);
    }

    /// <summary>The number of ids in the list, from its header.</summary>
    public int Count => _header.Count;

    /// <summary>Whether the list stores a frequency per id.</summary>
    public bool HasFrequencies => _header.HasFrequencies;

    /// <summary>The current id: -1 before the first call to <see cref="MoveNext"/> or
    /// <see cref="Advance"/>; meaningful only after one of them returned <see langword="true"/>.</summary>
    public long Current => _current;

    /// <summary>The current id's term frequency; 1 when the list has no frequencies.</summary>
    public int Frequency => _header.HasFrequencies ? _frequencies[_index] : 1;

    /// <summary>Points the iterator at another list, before its first id, reusing its buffers.</summary>
    /// <param name="encoded">An encoded posting list.</param>
    /// <exception cref="InvalidDataException">The header is corrupt or truncated.</exception>
    public void Reset(ReadOnlyMemory<byte> encoded)
    {
        var header = PostingsHeader.Read(encoded.Span);
        _data = encoded;
        _header = header;
        _length = 0;
        _index = -1;
        _nextBlock = 0;
        _streamPosition = header.StreamStart;
        _streamRemaining = header.StreamCount;
        _streamPrevious = header.BlockCount == 0 ? -1 : long.MinValue;
        _current = -1;
    }

    /// <summary>Moves to the next id.</summary>
    /// <returns><see langword="false"/> when the list is exhausted.</returns>
    public bool MoveNext()
    {
        var next = _index + 1;
        if (next < _length)
        {
            _index = next;
            _current = _ids[next];
            return true;
        }

        return LoadNext() && Select(0);
    }

    /// <summary>
    /// Moves to the first id at or after <paramref name="target"/>, jumping over whole blocks with the
    /// skip table. Never moves backwards: if the current id already is at or after the target,
    /// nothing changes.
    /// </summary>
    /// <param name="target">The id to reach.</param>
    /// <returns><see langword="false"/> when no id at or after <paramref name="target"/> remains.</returns>
    public bool Advance(long target)
    {
        if (_index >= 0 && _index < _length)
        {
            if (_current >= target)
            {
                return true;
            }

            if (_ids[_length - 1] >= target)
            {
                return Select(Search(_index + 1, target));
            }
        }

        if (_nextBlock < _header.BlockCount)
        {
            var block = FindBlock(target);
            if (block < _header.BlockCount)
            {
                _nextBlock = block;
                LoadNext();
                return Select(Search(0, target));
            }

            // Every remaining block ends before the target: continue in the stream after them.
            _nextBlock = _header.BlockCount;
        }

        while (_streamRemaining > 0)
        {
            LoadNext();
            if (_ids[_length - 1] >= target)
            {
                return Select(Search(0, target));
            }
        }

        _length = 0;
        return false;
    }

    private bool Select(int index)
    {
        _index = index;
        _current = _ids[index];
        return true;
    }

    /// <summary>Decodes the next block or stream chunk into the buffers; false at the end.</summary>
    private bool LoadNext()
    {
        var data = _data.Span;
        if (_nextBlock < _header.BlockCount)
        {
            _header.DecodeBlock(data, _nextBlock++, _current, _ids, _frequencies, _scratch);
            _length = BlockSize;
            return true;
        }

        if (_streamRemaining == 0)
        {
            _length = 0;
            return false;
        }

        if (_streamPrevious == long.MinValue)
        {
            // Blocks may have been skipped, so the stream's base comes from the skip table.
            _streamPrevious = _header.StreamBase(data);
        }

        var chunk = Math.Min(_streamRemaining, BlockSize);
        _header.DecodeStream(data, ref _streamPosition, _streamPrevious, _ids.AsSpan(0, chunk), _frequencies);
        if (_ids[0] <= _current)
        {
            PostingsFormat.ThrowCorrupt("ids out of order");
        }

        _streamRemaining -= chunk;
        _streamPrevious = _ids[chunk - 1];
        if (_streamRemaining == 0 && _streamPosition != data.Length)
        {
            PostingsFormat.ThrowCorrupt("bytes after the end of the list");
        }

        _length = chunk;
        return true;
    }

    /// <summary>The first buffered index at or after <paramref name="from"/> whose id is at least
    /// <paramref name="target"/>; the caller knows the last buffered id qualifies.</summary>
    private int Search(int from, long target)
    {
        var lo = from;
        var hi = _length - 1;
        while (lo < hi)
        {
            var mid = (lo + hi) >>> 1;
            if (_ids[mid] < target)
            {
                lo = mid + 1;
            }
            else
            {
                hi = mid;
            }
        }

        return lo;
    }

    /// <summary>
    /// The first block from <see cref="_nextBlock"/> on whose last id is at least <paramref name="target"/>,
    /// or the block count. Gallops before bisecting because intersections mostly skip a few blocks.
    /// </summary>
    private int FindBlock(long target)
    {
        var data = _data.Span;
        var count = _header.BlockCount;
        var lo = _nextBlock;
        if (_header.ReadBlockLast(data, lo) >= target)
        {
            return lo;
        }

        // Invariant: block lo ends before the target; find hi whose block does not (or the end).
        var step = 1;
        var hi = lo + step;
        while (hi < count && _header.ReadBlockLast(data, hi) < target)
        {
            lo = hi;
            step <<= 1;
            hi = lo + step;
        }

        if (hi >= count)
        {
            hi = count;
        }

        while (hi - lo > 1)
        {
            var mid = (lo + hi) >>> 1;
            if (_header.ReadBlockLast(data, mid) < target)
            {
                lo = mid;
            }
            else
            {
                hi = mid;
            }
        }

        return hi;
    }
}
