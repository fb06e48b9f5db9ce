using System.Buffers;
using System.Collections;

namespace Folio.Indexing.Querying;

/// <summary>
/// A page of results, each a complete JSON value, copied one after another into one pooled buffer
/// while the query's snapshot is open. A byte array per result was the largest part of what a query
/// allocated; this way a page costs nothing once the pool is warm. Each item is valid until the owning
/// <see cref="QueryResult"/> is disposed.
/// </summary>
public sealed class QueryResultList : IReadOnlyList<ReadOnlyMemory<byte>>, IDisposable
{
    private byte[] _bytes = [];
    private int[] _ends = [];
    private int _count;
    private int _length;

    /// <summary>The number of results.</summary>
    public int Count => _count;

    /// <summary>The result at <paramref name="index"/>.</summary>
    public ReadOnlyMemory<byte> this[int index]
    {
        get
        {
            ArgumentOutOfRangeException.ThrowIfGreaterThanOrEqual((uint)index, (uint)_count, nameof(index));
            var start = index == 0 ? 0 : _ends[index - 1];
            return _bytes.AsMemory(start, _ends[index] - start);
        }
    }

    /// <summary>Appends a copy of <paramref name="json"/>.</summary>
    public void Add(ReadOnlySpan<byte> json)
    {
        if (_bytes.Length - _length < json.Length)
            _bytes = Grow(_bytes, _length, _length + json.Length);
        if (_count == _ends.Length)
            _ends = Grow(_ends, _count, _count + 1);
        json.CopyTo(_bytes.AsSpan(_length));
        _length += json.Length;
        _ends[_count++] = _length;
    }

    /// <summary>Walks the results without allocating an enumerator.</summary>
    public Enumerator GetEnumerator() => new(this);

    IEnumerator<ReadOnlyMemory<byte>> IEnumerable<ReadOnlyMemory<byte>>.GetEnumerator() => GetEnumerator();

    IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();

    /// <summary>Gives the buffers back to the pool; the results must not be read afterwards.</summary>
    public void Dispose()
    {
        if (_bytes.Length > 0)
            ArrayPool<byte>.Shared.Return(_bytes);
        if (_ends.Length > 0)
            ArrayPool<int>.Shared.Return(_ends);
        _bytes = [];
        _ends = [];
        _count = 0;
        _length = 0;
    }

    private static T[] Grow<T>(T[] current, int used, int needed)
    {
        var next = ArrayPool<T>.Shared.Rent(Math.Max(needed, Math.Max(16, current.Length * 2)));
        current.AsSpan(0, used).CopyTo(next);
        if (current.Length > 0)
            ArrayPool<T>.Shared.Return(current);
        return next;
    }

    /// <summary>Walks a <see cref="QueryResultList"/>.</summary>
    public struct Enumerator : IEnumerator<ReadOnlyMemory<byte>>
    {
        private readonly QueryResultList _list;
        private int _index;

        internal Enumerator(QueryResultList list)
        {
            _list = list;
            _index = -1;
        }

        /// <inheritdoc/>
        public readonly ReadOnlyMemory<byte> Current => _list[_index];

        readonly object IEnumerator.Current => Current;

        /// <inheritdoc/>
        public bool MoveNext() => ++_index < _list._count;

        /// <inheritdoc/>
        public void Reset() => _index = -1;

        /// <inheritdoc/>
        public readonly void Dispose()
        {
        }
    }
}
