using Folio.Indexing.Querying;
using Folio.Indexing.Rql;

namespace Folio.Indexing.Tests.Facets;

/// <summary>Stored facet setups: <c>select facet(id('facets/…'))</c> runs the facets a document lists.</summary>
public sealed class FacetSetupTests : IDisposable
{
    private readonly FacetTestStore _db = new();

    public void Dispose() => _db.Dispose();

    private async Task SeedAsync()
    {
        await _db.PutAsync("products/1", """{"Brand":"Acme","Price":100,"Major Genre":"Tools"}""");
        await _db.PutAsync("products/2", """{"Brand":"Acme","Price":300,"Major Genre":"Toys"}""");
        await _db.PutAsync("products/3", """{"Brand":"Zeta","Price":700,"Major Genre":"Toys"}""");
        await _db.PutAsync("products/4", """{"Brand":"Nova","Price":50}""");
    }

    private const string Setup = """
        {"Facets":[{"FieldName":"Brand","DisplayFieldName":"Brands","Options":{"PageSize":2,"TermSortMode":"CountDesc","IncludeRemainingTerms":true},
                    "Aggregations":{"Sum":[{"Name":"Price","DisplayName":"Revenue"}],"Max":"Price"}},
                   {"FieldName":"Major Genre"}],
         "RangeFacets":[{"Ranges":["Price < 200","Price between 200 and 600","Price >= 600"],"Aggregations":{"Average":["Price"]}}]}
        """;

    [Fact]
    public async Task RunAsync_RunsTheFacetsOfAStoredSetup()
    {
        await SeedAsync();
        await _db.PutAsync("facets/ProductSearch", Setup);
        var (total, facets) = await _db.FacetsAsync("from Products select facet(id('facets/ProductSearch'))");
        Assert.Equal(4, total);
        Assert.Equal(["Brands", "Major Genre", "Price"], facets.Select(f => f.Name));

        var brands = facets[0];
        Assert.Equal(["Acme:2", "Acme:2", "Nova:1", "Nova:1"], FacetTestStore.Counts(brands));
        Assert.Equal(new FacetValue("Acme", 2) { Aggregates = new("Revenue", RqlFacetAggregationOp.Sum, Sum: 400) }, brands.Values[0]);
        Assert.Equal(new FacetValue("Acme", 2) { Aggregates = new("Price", RqlFacetAggregationOp.Max, Max: 300) }, brands.Values[1]);
        Assert.Equal(["Zeta"], brands.RemainingTerms);

        Assert.Equal(["Toys:2", "Tools:1"], FacetTestStore.Counts(facets[1]));
        Assert.Equal(1, facets[1].MissingCount);

        Assert.Equal(["Price < 200:2", "Price between 200 and 600:1", "Price >= 600:1"], FacetTestStore.Counts(facets[2]));
        Assert.Equal([75.0, 300.0, 700.0], facets[2].Values.Select(v => v.Average!.Value));
    }

    [Fact]
    public async Task RunAsync_ReadsTheSetupAtEachQuery_WhenItChanges()
    {
        await SeedAsync();
        await _db.PutAsync("facets/s", """{"Facets":[{"FieldName":"Brand"}]}""");
        var (_, before) = await _db.FacetsAsync("from Products select facet(id($setup))", """{"setup":"facets/s"}""");
        Assert.Equal("Brand", before[0].Name);
        await _db.PutAsync("facets/s", """{"RangeFacets":[{"Ranges":["Price < 500","Price >= 500"]}]}""");
        var (_, after) = await _db.FacetsAsync("from Products select facet(id($setup))", """{"setup":"facets/s"}""");
        Assert.Equal(["Price < 500:3", "Price >= 500:1"], FacetTestStore.Counts(after[0]));
    }

    [Fact]
    public async Task RunAsync_MixesASetupWithFacetsOfTheQuery()
    {
        await SeedAsync();
        await _db.PutAsync("facets/s", """{"Facets":[{"FieldName":"Brand"}]}""");
        var (_, facets) = await _db.FacetsAsync("from Products where Price > 60 select facet(Price < 500), facet(id('facets/s'))");
        Assert.Equal(["Price", "Brand"], facets.Select(f => f.Name));
        Assert.Equal(["Acme:2", "Zeta:1"], FacetTestStore.Counts(facets[1]));
    }

    [Theory]
    [InlineData(null, "There is no facet setup document 'facets/none'")]
    [InlineData("""{"Facets":[]}""", "lists no facets")]
    [InlineData("""{"Facets":[{"Options":{}}]}""", "has no FieldName")]
    [InlineData("""{"Facets":{"FieldName":"Brand"}}""", "must be an array")]
    [InlineData("""{"Facets":[{"FieldName":"Brand","Aggregations":{"Median":"Price"}}]}""", "Sum, Min, Max and Average")]
    [InlineData("""{"Facets":[{"FieldName":"Brand","Options":{"PageSize":"ten"}}]}""", "PageSize")]
    [InlineData("""{"RangeFacets":[{"Ranges":["Price <"]}]}""", "A range facet of the setup 'facets/none'")]
    [InlineData("""{"RangeFacets":[{"Ranges":["Price < 1), facet(Brand"]}]}""", "is not one range")]
    public async Task RunAsync_RefusesABadSetup(string? setup, string message)
    {
        await SeedAsync();
        if (setup is not null)
            await _db.PutAsync("facets/none", setup);
        var error = await Assert.ThrowsAsync<QueryException>(() => _db.FacetsAsync("from Products select facet(id('facets/none'))"));
        Assert.Contains(message, error.Message, StringComparison.Ordinal);
    }
}
