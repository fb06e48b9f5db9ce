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
    /// The positions of <paramref name="terms"/> in <paramref name="mode"/>'s order; values with equal counts by value.
    /// </summary>
    public static int[] Order(FacetTerm[] terms, FacetTermSortMode mode)
    {
        var order = new int[terms.Length];
        for (var i = 0; i < order.Length; i++)
            order[i] = i;
        if (terms.Length < 2)
            return order;
        var keys = new ulong[terms.Length];
        if (mode is FacetTermSortMode.ValueAsc or FacetTermSortMode.ValueDesc)
        {
            SortByValue(terms, order.AsSpan(), keys.AsSpan(), mode == FacetTermSortMode.ValueDesc);
            return order;
        }
        // Counts are never negative, so their complement orders them from the largest.
        for (var i = 0; i < terms.Length; i++)
            keys[i] = mode == FacetTermSortMode.CountAsc ? (ulong)terms[i].Count : ~(ulong)terms[i].Count;
        keys.AsSpan().Sort(order.AsSpan());
        var start = 0;
        for (var i = 1; i <= terms.Length; i++)
        {
            if (i < terms.Length && keys[i] == keys[start])
                continue;
            // The run's own keys are no longer needed once its end is known, so its value sort may reuse them.
            if (i - start > 1)
                SortByValue(terms, order.AsSpan(start, i - start), keys.AsSpan(start, i - start), descending: false);
            start = i;
        }
        return order;
    }

    /// <summary>
    /// Sorts the positions <paramref name="run"/> by their values: first by the values' first bytes read as one integer
    /// (which order as the values do, a shorter value padded with zeros), then those that share them by comparing the
    /// values whole. A facet's values with equal counts run into the hundreds, and so compare mostly as integers.
    /// </summary>
    private static void SortByValue(FacetTerm[] terms, Span<int> run, Span<ulong> keys, bool descending)
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
    private sealed class ValueOrder(FacetTerm[] terms, bool descending) : IComparer<int>
    {
        public int Compare(int x, int y) => descending ? FacetTerm.CompareValues(terms[y], terms[x]) : FacetTerm.CompareValues(terms[x], terms[y]);
    }
}
