using System.Globalization;
using Folio.Indexing.Querying;

namespace Folio.Indexing.Tests.Facets;

/// <summary>
/// Multi-select facets: a sideways facet counts as if the query's top-level conditions on its own field were
/// absent, in the same walk as the count and the other facets.
/// </summary>
public sealed class DrillSidewaysTests : IDisposable
{
    private static readonly string[] Brands = ["Acme", "Zeta", "Nova", "Orbit"];
    private static readonly string[] Colors = ["Red", "Blue", "Green"];
    private readonly FacetTestStore _db = new();

    public void Dispose() => _db.Dispose();

    private async Task SeedAsync(int count)
    {
        var random = new Random(19);
        for (var i = 0; i < count; i++)
        {
            var brand = random.Next(10) == 0 ? "null" : $"\"{Brands[random.Next(Brands.Length)]}\"";
            var colors = string.Join(',', Enumerable.Range(0, random.Next(3)).Select(_ => $"\"{Colors[random.Next(Colors.Length)]}\""));
            await _db.PutAsync($"products/{i}", $$"""{"Brand":{{brand}},"Colors":[{{colors}}],"Price":{{random.Next(1, 100)}}}""");
        }
    }

    [Fact]
    public async Task RunAsync_CountsASidewaysFacet_WithoutTheConditionsOnItsField()
    {
        await SeedAsync(300);
        const string Sideways = """{"s":{"Sideways":true}}""";
        var (total, facets) = await _db.FacetsAsync("from Products where Brand = 'Acme' and Price > 30 select facet(Brand, $s), facet(Colors)", Sideways);
        var (withoutBrand, plain) = await _db.FacetsAsync("from Products where Price > 30 select facet(Brand), facet(Colors)");
        var (whole, wholeFacets) = await _db.FacetsAsync("from Products where Brand = 'Acme' and Price > 30 select facet(Brand), facet(Colors)");
        Assert.Equal(whole, total);
        Assert.True(withoutBrand > total);
        Assert.Equal(FacetTestStore.Counts(plain[0]), FacetTestStore.Counts(facets[0]));
        Assert.Equal(FacetTestStore.Counts(wholeFacets[1]), FacetTestStore.Counts(facets[1]));
        Assert.Equal(4, facets[0].Values.Count(v => v.Range is not null));
    }

    [Fact]
    public async Task RunAsync_CountsAsTheWholeQuery_WhenNoConditionIsOnTheFacetsField()
    {
        await SeedAsync(100);
        var (_, sideways) = await _db.FacetsAsync("from Products where Price > 30 select facet(Brand, $s)", """{"s":{"Sideways":true}}""");
        var (_, plain) = await _db.FacetsAsync("from Products where Price > 30 select facet(Brand)");
        Assert.Equal(FacetTestStore.Counts(plain[0]), FacetTestStore.Counts(sideways[0]));
    }

    /// <summary>
    /// Random conjunctions over three fields, each with every facet sideways: each facet must equal the plain facet
    /// of the query without its own field's conditions, and the total the plain query's.
    /// </summary>
    [Fact]
    public async Task RunAsync_MatchesTheQueryWithoutEachDimension_ForRandomConjunctions()
    {
        await SeedAsync(400);
        var random = new Random(7);
        const string Options = """{"s":{"Sideways":true}}""";
        for (var q = 0; q < 25; q++)
        {
            var conditions = new List<(string Field, string Text)>();
            if (random.Next(3) > 0)
                conditions.Add(("Brand", random.Next(2) == 0 ? $"Brand = '{Brands[random.Next(Brands.Length)]}'" : $"Brand in ('{Brands[random.Next(Brands.Length)]}', '{Brands[random.Next(Brands.Length)]}')"));
            if (random.Next(3) > 0)
                conditions.Add(("Colors", random.Next(2) == 0 ? $"Colors = '{Colors[random.Next(Colors.Length)]}'" : $"(Colors = 'Red' or not Colors = '{Colors[random.Next(Colors.Length)]}')"));
            if (random.Next(3) > 0)
                conditions.Add(("Price", $"Price between {random.Next(1, 50).ToString(CultureInfo.InvariantCulture)} and {random.Next(50, 100).ToString(CultureInfo.InvariantCulture)}"));
            var where = conditions.Count == 0 ? "" : " where " + string.Join(" and ", conditions.Select(c => c.Text));
            var (total, facets) = await _db.FacetsAsync($"from Products{where} select facet(Brand, $s), facet(Colors, $s), facet(Price < 50, Price >= 50, $s)", Options);
            var (plainTotal, _) = await _db.FacetsAsync($"from Products{where} select facet(Brand)");
            Assert.Equal(plainTotal, total);
            string[] facetTexts = ["facet(Brand)", "facet(Colors)", "facet(Price < 50, Price >= 50)"];
            string[] fields = ["Brand", "Colors", "Price"];
            for (var f = 0; f < fields.Length; f++)
            {
                var others = conditions.Where(c => c.Field != fields[f]).Select(c => c.Text).ToList();
                var without = others.Count == 0 ? "" : " where " + string.Join(" and ", others);
                var (_, expected) = await _db.FacetsAsync($"from Products{without} select {facetTexts[f]}");
                Assert.True(FacetTestStore.Counts(expected[0]).SequenceEqual(FacetTestStore.Counts(facets[f])), $"{where}: facet {fields[f]}");
            }
        }
    }
}
