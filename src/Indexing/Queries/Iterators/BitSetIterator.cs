using System.Numerics;

namespace Folio.Indexing.Queries.Iterators;

/// <summary>
/// Ids gathered into a bit set: how a query over many terms (prefix, range, wildcard) becomes one
/// ordered stream without merging hundreds of posting lists on every step.
/// </summary>
public sealed class BitSetIterator : DocIdIterator
{
    private readonly long _count;
    private readonly Action<ulong[]>? _release;
    private ulong[] _bits;

    /// <summary>Wraps a bit set (bit i = entry i); <paramref name="count"/> is the number of bits set.</summary>
    public BitSetIterator(ulong[] bits, long count)
        : this(bits, count, null)
    {
    }

    /// <summary>
    /// Wraps a bit set that is handed to <paramref name="release"/>, all bits cleared, once the iterator
    /// is exhausted (it never reads the set again), so the next query can reuse it.
    /// </summary>
    internal BitSetIterator(ulong[] bits, long count, Action<ulong[]>? release)
    {
        _bits = bits;
        _count = count;
        _release = release;
    }

    /// <inheritdoc/>
    public override long Cost => _count;

    /// <inheritdoc/>
    public override bool MoveNext() => Current != NoMoreIds && Seek(Current + 1);

    /// <inheritdoc/>
    public override bool Advance(long target) => Current >= target ? Current != NoMoreIds : Seek(target);

    private bool Seek(long from)
    {
        var word = (int)(from >> 6);
        if (word >= _bits.Length)
            return Exhausted();
        var bits = _bits[word] & (ulong.MaxValue << (int)(from & 63));
        while (bits == 0)
        {
            if (++word >= _bits.Length)
                return Exhausted();
            bits = _bits[word];
        }
        Current = ((long)word << 6) + BitOperations.TrailingZeroCount(bits);
        return true;
    }

    private bool Exhausted()
    {
        Current = NoMoreIds;
        if (_release is not null && _bits.Length > 0)
        {
            var bits = _bits;
            _bits = [];
            Array.Clear(bits);
            _release(bits);
        }
        return false;
    }
}
