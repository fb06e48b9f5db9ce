using System.Numerics;

namespace Folio.Indexing.Queries.Iterators;

/// <summary>
/// Ids gathered into a bit set: how a query over many terms (prefix, range, wildcard) becomes one
/// ordered stream without merging hundreds of posting lists on every step.
/// </summary>
public sealed class BitSetIterator : DocIdIterator
{
    private readonly ulong[] _bits;
    private readonly long _count;

    /// <summary>Wraps a bit set (bit i = entry i); <paramref name="count"/> is the number of bits set.</summary>
    public BitSetIterator(ulong[] bits, long count)
    {
        _bits = bits;
        _count = count;
    }

    /// <inheritdoc/>
    public override long Cost => _count;

    /// <inheritdoc/>
    public override bool MoveNext() => Seek(Current + 1);

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
        return false;
    }
}
