using System.Buffers;
using System.Numerics;
using Folio.Indexing.Collectors;

namespace Folio.Indexing.Querying;

/// <summary>
/// Orders a term facet's values as its options ask. A facet over thousands of values (5,000 brands) orders them on
/// every query: the values stay where the collector put them and their positions are sorted instead, by plain
/// integers (the counts, then each value's first bytes), so a swap moves four bytes rather than a whole value, and
/// only values whose counts and first bytes are equal are compared whole.
/// </summary>
internal static class FacetTermOrder
{
    /// <summary>
    /// The positions of the <paramref name="collector"/>'s values in <paramref name="mode"/>'s order; values with equal
    /// counts by value. By the values' places in value order where the doc values keep them, else by their bytes.
    /// </summary>
    public static int[] Order(TermFacetCollector collector, FacetTermSortMode mode)
    {
        var terms = collector.CountedTerms;
        return terms.Count >= 2 && terms.Count <= MaxRankedTerms && OrderByRanks(collector, terms, mode) is { } ranked
            ? ranked
            : Order(terms, mode);
    }

    /// <summary>
    /// The positions of <paramref name="terms"/> in <paramref name="mode"/>'s order, values compared by their bytes; values
    /// with equal counts by value.
    /// </summary>
    public static int[] Order(ArraySegment<FacetTerm> terms, FacetTermSortMode mode)
    {
        var order = new int[terms.Count];
        for (var i = 0; i < order.Length; i++)
            order[i] = i;
        if (terms.Count < 2)
            return order;
        var keys = new ulong[terms.Count];
        if (mode is FacetTermSortMode.ValueAsc or FacetTermSortMode.ValueDesc)
        {
            SortByValue(terms, order.AsSpan(), keys.AsSpan(), mode == FacetTermSortMode.ValueDesc);
            return order;
        }
        // Counts are never negative, so their complement orders them from the largest.
        for (var i = 0; i < terms.Count; i++)
            keys[i] = mode == FacetTermSortMode.CountAsc ? (ulong)terms[i].Count : ~(ulong)terms[i].Count;
        keys.AsSpan().Sort(order.AsSpan());
        var start = 0;
        for (var i = 1; i <= terms.Count; i++)
        {
            if (i < terms.Count && keys[i] == keys[start])
                continue;
            // The run's own keys are no longer needed once its end is known, so its value sort may reuse them.
            if (i - start > 1)
                SortByValue(terms, order.AsSpan(start, i - start), keys.AsSpan(start, i - start), descending: false);
            start = i;
        }
        return order;
    }

    // A key packs a count (32 bits), a rank (16) and a position (16).
    private const int MaxRankedTerms = 1 << 16;
    private const int RankBits = 16;
    // The radix sort's digit: 2,048 buckets, so three passes order counts below 65,536 with ranks below 65,536.
    private const int DigitBits = 11;

    /// <summary>
    /// Orders by the values' places in value order kept by the doc values (<see cref="TermFacetCollector.TryRankValues"/>):
    /// each value's count, place and position packed in one integer, so one radix sort of plain integers orders them
    /// all, ties in value order without a value compared (5,000 brands: a comparison sort of the keys took about a
    /// twentieth of a term query's facets). Null when some value has no place or a count does not fit.
    /// </summary>
    private static int[]? OrderByRanks(TermFacetCollector collector, ArraySegment<FacetTerm> counted, FacetTermSortMode mode)
    {
        var terms = counted.AsSpan();
        var ranks = ArrayPool<int>.Shared.Rent(terms.Length);
        var keys = ArrayPool<ulong>.Shared.Rent(terms.Length);
        var scratch = ArrayPool<ulong>.Shared.Rent(terms.Length);
        try
        {
            if (!collector.TryRankValues(ranks.AsSpan(0, terms.Length)))
                return null;
            long largestCount = 0;
            var largestRank = 0;
            for (var i = 0; i < terms.Length; i++)
            {
                if ((ulong)terms[i].Count > uint.MaxValue || ranks[i] >= MaxRankedTerms)
                    return null;
                largestCount = Math.Max(largestCount, terms[i].Count);
                largestRank = Math.Max(largestRank, ranks[i]);
            }
            // Measured from the largest rather than complemented, so the keys keep few bits and the sort few passes.
            for (var i = 0; i < terms.Length; i++)
            {
                var byValue = (ulong)(mode == FacetTermSortMode.ValueDesc ? largestRank - ranks[i] : ranks[i]);
                var byCount = mode switch
                {
                    FacetTermSortMode.CountDesc => (ulong)(largestCount - terms[i].Count),
                    FacetTermSortMode.CountAsc => (ulong)terms[i].Count,
                    _ => 0UL,
                };
                keys[i] = (byCount << (2 * RankBits)) | (byValue << RankBits) | (uint)i;
            }
            var sorted = RadixSort(keys.AsSpan(0, terms.Length), scratch.AsSpan(0, terms.Length));
            var order = new int[sorted.Length];
            for (var i = 0; i < sorted.Length; i++)
                order[i] = (int)(sorted[i] & (MaxRankedTerms - 1));
            return order;
        }
        finally
        {
            ArrayPool<int>.Shared.Return(ranks);
            ArrayPool<ulong>.Shared.Return(keys);
            ArrayPool<ulong>.Shared.Return(scratch);
        }
    }

    /// <summary>
    /// Sorts <paramref name="keys"/> by their bits above the position (which a key's rank already makes unique), least
    /// significant digit first, through <paramref name="scratch"/>; gives whichever of the two holds them sorted.
    /// </summary>
    private static Span<ulong> RadixSort(Span<ulong> keys, Span<ulong> scratch)
    {
        ulong bits = 0;
        foreach (var key in keys)
            bits |= key;
        var highest = 64 - BitOperations.LeadingZeroCount(bits);
        Span<int> starts = stackalloc int[1 << DigitBits];
        for (var shift = RankBits; shift < highest; shift += DigitBits)
        {
            starts.Clear();
            foreach (var key in keys)
                starts[(int)(key >> shift) & ((1 << DigitBits) - 1)]++;
            var next = 0;
            for (var digit = 0; digit < starts.Length; digit++)
                (starts[digit], next) = (next, next + starts[digit]);
            foreach (var key in keys)
                scratch[starts[(int)(key >> shift) & ((1 << DigitBits) - 1)]++] = key;
            var swapped = keys;
            keys = scratch;
            scratch = swapped;
        }
        return keys;
    }

    /// <summary>
    /// Sorts the positions <paramref name="run"/> by their values: first by the values' first bytes read as one integer
    /// (which order as the values do, a shorter value padded with zeros), then those that share them by comparing the
    /// values whole. A facet's values with equal counts run into the hundreds, and so compare mostly as integers.
    /// </summary>
    private static void SortByValue(ArraySegment<FacetTerm> terms, Span<int> run, Span<ulong> keys, bool descending)
    {
        for (var i = 0; i < run.Length; i++)
            keys[i] = descending ? ~Prefix(terms[run[i]]) : Prefix(terms[run[i]]);
        keys.Sort(run);
        ValueOrder? whole = null;
        var from = 0;
        for (var i = 1; i <= run.Length; i++)
        {
            if (i < run.Length && keys[i] == keys[from])
                continue;
            if (i - from > 1)
                run.Slice(from, i - from).Sort(whole ??= new ValueOrder(terms, descending));
            from = i;
        }
    }

    /// <summary>The value's kind, then its first seven bytes, big-endian: values whose prefixes differ order as them.</summary>
    private static ulong Prefix(in FacetTerm term)
    {
        var prefix = (ulong)term.Kind << 56;
        var bytes = term.Bytes;
        var take = Math.Min(bytes.Length, 7);
        for (var b = 0; b < take; b++)
            prefix |= (ulong)bytes[b] << (48 - (8 * b));
        return prefix;
    }

    /// <summary>Compares two positions by their values whole.</summary>
    private sealed class ValueOrder(ArraySegment<FacetTerm> terms, bool descending) : IComparer<int>
    {
        public int Compare(int x, int y) => descending ? FacetTerm.CompareValues(terms[y], terms[x]) : FacetTerm.CompareValues(terms[x], terms[y]);
    }
}
