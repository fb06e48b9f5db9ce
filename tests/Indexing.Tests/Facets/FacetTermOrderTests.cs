using System.Text;
using Folio.Indexing.Collectors;
using Folio.Indexing.Querying;
using Folio.Indexing.Search;

namespace Folio.Indexing.Tests.Facets;

public class FacetTermOrderTests
{
    [Theory]
    [InlineData("CountDesc")]
    [InlineData("CountAsc")]
    [InlineData("ValueAsc")]
    [InlineData("ValueDesc")]
    public void Order_OrdersAsTheWholeComparison_WhenValuesShareLongPrefixesAndCounts(string order)
    {
        var mode = Enum.Parse<FacetTermSortMode>(order);
        var random = new Random(7);
        // Few counts and values that share their first seven bytes or are prefixes of each other, or hold zero bytes,
        // so the integer prefix ties often and must then defer to the whole comparison.
        string[] stems = ["brand-0", "brand-00", "brand-0\0", "b", "", "brand-01x", "brandnew", "zzzzzzzzz"];
        var terms = new List<FacetTerm>();
        for (var i = 0; i < 3000; i++)
        {
            var text = stems[random.Next(stems.Length)] + (random.Next(3) == 0 ? "" : random.Next(50).ToString(System.Globalization.CultureInfo.InvariantCulture));
            var kind = random.Next(10) == 0 ? DocValueKind.Null : DocValueKind.Text;
            var bytes = kind == DocValueKind.Null ? [] : Encoding.UTF8.GetBytes(text);
            terms.Add(new FacetTerm(kind == DocValueKind.Null ? FieldValue.Null : FieldValue.From(text), kind, bytes, random.Next(4), i));
        }
        var expected = terms.ToArray();
        Array.Sort(expected, Reference(mode));
        var counted = terms.ToArray();

        var positions = FacetTermOrder.Order(counted, mode);
        var sorted = Array.ConvertAll(positions, i => counted[i]);

        Assert.Equal(Enumerable.Range(0, counted.Length), positions.Order());

        Assert.Equal(expected.Length, sorted.Length);
        for (var i = 0; i < expected.Length; i++)
            Assert.True(Reference(mode)(expected[i], sorted[i]) == 0, $"At {i}: expected {Describe(expected[i])}, got {Describe(sorted[i])}.");
    }

    private static string Describe(FacetTerm term) => $"{term.Kind} '{Encoding.UTF8.GetString(term.Bytes)}' ×{term.Count}";

    private static Comparison<FacetTerm> Reference(FacetTermSortMode mode) => mode switch
    {
        FacetTermSortMode.ValueAsc => FacetTerm.CompareValues,
        FacetTermSortMode.ValueDesc => static (x, y) => FacetTerm.CompareValues(y, x),
        FacetTermSortMode.CountAsc => static (x, y) => x.Count != y.Count ? x.Count.CompareTo(y.Count) : FacetTerm.CompareValues(x, y),
        _ => static (x, y) => x.Count != y.Count ? y.Count.CompareTo(x.Count) : FacetTerm.CompareValues(x, y),
    };
}
