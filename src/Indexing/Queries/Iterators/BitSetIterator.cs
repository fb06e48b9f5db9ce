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

    // Whether an Advance jumped over words it never read, which may still hold bits; otherwise every
    // word before the current one was either empty or cleared on the way past it.
    private bool _jumped;

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
    public override bool Advance(long target)
    {
        if (Current >= target)
            return Current != NoMoreIds;
        if ((target >> 6) > (Current >> 6) + 1)
            _jumped = true;
        return Seek(target);
    }

    private bool Seek(long from)
    {
        if (_release is not null && Current >= 0 && from >> 6 > Current >> 6)
            _bits[Current >> 6] = 0;
        if (from >> 6 >= _bits.Length)
            return Exhausted();
        var word = (int)(from >> 6);
        var bits = _bits[word] & (ulong.MaxValue << (int)(from & 63));
        if (bits == 0)
        {
            if (_release is not null)
                _bits[word] = 0;
            // Most words of a sparse set are empty: a vectorized search crosses them several at a time.
            var next = _bits.AsSpan(word + 1).IndexOfAnyExcept(0UL);
            if (next < 0)
                return Exhausted();
            word += next + 1;
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
            // Without jumps, the words passed are clear already and the rest were empty to begin with.
            if (_jumped)
                Array.Clear(bits);
            _release(bits);
        }
        return false;
    }
}
