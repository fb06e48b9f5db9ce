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

    /// <summary>Collects every id of <paramref name="source"/> into a bit set sized for ids below <paramref name="limit"/>.</summary>
    public static (ulong[] Bits, long Count) Collect(DocIdIterator source, long limit, ulong[]? into = null)
    {
        var bits = into ?? new ulong[(limit + 63) >> 6];
        long count = 0;
        while (source.MoveNext())
        {
            var id = source.Current;
            ref var slot = ref bits[id >> 6];
            var mask = 1UL << (int)(id & 63);
            if ((slot & mask) == 0)
            {
                slot |= mask;
                count++;
            }
        }
        return (bits, count);
    }
}
