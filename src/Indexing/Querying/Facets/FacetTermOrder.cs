using Folio.Indexing.Collectors;

namespace Folio.Indexing.Querying;

/// <summary>
/// Orders a term facet's values as its options ask. A facet over thousands of values (5,000 brands) sorts them on
/// every query, and comparing two values through a comparison delegate, each a copy of both, was a fifth of answering
/// such a facet: by count, the counts are sorted as plain integers, and only values with equal counts are compared.
/// </summary>
internal static class FacetTermOrder
{
    private static readonly Comparison<FacetTerm> s_valueDesc = static (x, y) => FacetTerm.CompareValues(y, x);

    /// <summary>Sorts <paramref name="terms"/> by <paramref name="mode"/>; values with equal counts by value.</summary>
    public static void Sort(FacetTerm[] terms, FacetTermSortMode mode)
    {
        switch (mode)
        {
            case FacetTermSortMode.ValueAsc:
                Array.Sort(terms, FacetTerm.CompareValues);
                return;
            case FacetTermSortMode.ValueDesc:
                Array.Sort(terms, s_valueDesc);
                return;
        }
        var keys = new long[terms.Length];
        for (var i = 0; i < terms.Length; i++)
            keys[i] = mode == FacetTermSortMode.CountAsc ? terms[i].Count : -terms[i].Count;
        Array.Sort(keys, terms);
        ulong[]? prefixes = null;
        var start = 0;
        for (var i = 1; i <= terms.Length; i++)
        {
            if (i < terms.Length && keys[i] == keys[start])
                continue;
            if (i - start > 1)
                SortByValue(terms, start, i - start, prefixes ??= new ulong[terms.Length]);
            start = i;
        }
    }

    /// <summary>
    /// Sorts a run of values by value: first by their first bytes read as one integer (which order as the values do,
    /// a shorter value padded with zeros), then the values that share those bytes by comparing them whole. A facet's
    /// values with equal counts run into the hundreds, and so compare mostly as integers.
    /// </summary>
    private static void SortByValue(FacetTerm[] terms, int start, int length, ulong[] prefixes)
    {
        var keys = prefixes.AsSpan(start, length);
        var run = terms.AsSpan(start, length);
        for (var i = 0; i < length; i++)
            keys[i] = Prefix(run[i]);
        keys.Sort(run);
        var from = 0;
        for (var i = 1; i <= length; i++)
        {
            if (i < length && keys[i] == keys[from])
                continue;
            if (i - from > 1)
                Array.Sort(terms, start + from, i - from, ValueOrder.Instance);
            from = i;
        }
    }

    /// <summary>The value's kind, then its first seven bytes, big-endian: values whose prefixes differ order as them.</summary>
    private static ulong Prefix(FacetTerm term)
    {
        var prefix = (ulong)term.Kind << 56;
        var bytes = term.Bytes;
        var take = Math.Min(bytes.Length, 7);
        for (var b = 0; b < take; b++)
            prefix |= (ulong)bytes[b] << (48 - (8 * b));
        return prefix;
    }

    private sealed class ValueOrder : IComparer<FacetTerm>
    {
        public static readonly ValueOrder Instance = new();

        public int Compare(FacetTerm x, FacetTerm y) => FacetTerm.CompareValues(x, y);
    }
}
