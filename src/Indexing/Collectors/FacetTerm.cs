using Folio.Indexing.Search;

namespace Folio.Indexing.Collectors;

/// <summary>
/// One value a <see cref="TermFacetCollector"/> counted: the value, its kind and bytes as the doc values hold them
/// (values of one field order by kind, then by these bytes), how many matches have it, and its aggregation slot.
/// </summary>
/// <param name="Value">The value decoded.</param>
/// <param name="Kind">What the value holds.</param>
/// <param name="Bytes">The value's bytes in its kind's form (<see cref="DocValue.Bytes"/>).</param>
/// <param name="Count">How many matches have the value.</param>
/// <param name="Slot">Where the collector's <see cref="FacetAggregator"/> keeps the value's numbers.</param>
public readonly record struct FacetTerm(FieldValue Value, DocValueKind Kind, byte[] Bytes, long Count, int Slot)
{
    /// <summary>Orders values as the doc values do: by kind (null, text, long, double), then byte by byte.</summary>
    public static int CompareValues(FacetTerm x, FacetTerm y) =>
        x.Kind != y.Kind ? x.Kind.CompareTo(y.Kind) : x.Bytes.AsSpan().SequenceCompareTo(y.Bytes);
}
