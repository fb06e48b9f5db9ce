using Folio.Indexing.Querying;
using Folio.Indexing.Rql;

namespace Folio.Indexing.Tests.Facets;

/// <summary>Sums, minimums, maximums and averages per facet value and per range, computed in the counting walk.</summary>
public sealed class FacetAggregationTests : IDisposable
{
    private readonly FacetTestStore _db = new();

    public void Dispose() => _db.Dispose();

    private async Task SeedAsync()
    {
        await _db.PutAsync("products/1", """{"Brand":"Acme","Price":10,"Stock":5,"Sizes":[1,2]}""");
        await _db.PutAsync("products/2", """{"Brand":"Acme","Price":30.5,"Stock":1,"Sizes":[3]}""");
        await _db.PutAsync("products/3", """{"Brand":"Zeta","Price":"unknown","Stock":7}""");
        await _db.PutAsync("products/4", """{"Brand":"Zeta","Price":null}""");
        await _db.PutAsync("products/5", """{"Brand":"Nova","Price":200,"Stock":0}""");
    }

    [Fact]
    public async Task RunAsync_AggregatesNumbersPerValue_WithSumMinMaxAndAverage()
    {
        await SeedAsync();
        var (total, facets) = await _db.FacetsAsync("from Products select facet(Brand, sum(Price), min(Price), max(Price), avg(Price))");
        Assert.Equal(5, total);
        var values = facets[0].Values;
        Assert.Equal(["Acme:2", "Zeta:2", "Nova:1"], FacetTestStore.Counts(facets[0]));
        var ops = RqlFacetAggregationOp.Sum | RqlFacetAggregationOp.Min | RqlFacetAggregationOp.Max | RqlFacetAggregationOp.Average;
        Assert.Equal(new FacetValue("Acme", 2) { Aggregates = new("Price", ops, Sum: 40.5, Min: 10, Max: 30.5, Average: 20.25) }, values[0]);
        // Text and null are not numbers: the sum is 0 and the rest have nothing to answer.
        Assert.Equal(new FacetValue("Zeta", 2) { Aggregates = new("Price", ops, Sum: 0) }, values[1]);
        Assert.Equal(new FacetValue("Nova", 1) { Aggregates = new("Price", ops, Sum: 200, Min: 200, Max: 200, Average: 200) }, values[2]);
    }

    [Fact]
    public async Task RunAsync_AnswersOneValuePerAggregatedField_WhenAFacetAggregatesSeveralFields()
    {
        await SeedAsync();
        var (_, facets) = await _db.FacetsAsync("from Products where Brand = 'Acme' select facet(Brand, sum(Price), max(Stock) as MostInStock, avg(Sizes), min(Price))");
        var values = facets[0].Values;
        Assert.Equal(3, values.Count);
        Assert.Equal(new FacetValue("Acme", 2) { Aggregates = new("Price", RqlFacetAggregationOp.Sum | RqlFacetAggregationOp.Min, Sum: 40.5, Min: 10) }, values[0]);
        Assert.Equal(new FacetValue("Acme", 2) { Aggregates = new("MostInStock", RqlFacetAggregationOp.Max, Max: 5) }, values[1]);
        // An array gives every number it holds: 1, 2 and 3 average 2.
        Assert.Equal(new FacetValue("Acme", 2) { Aggregates = new("Sizes", RqlFacetAggregationOp.Average, Average: 2) }, values[2]);
    }

    [Fact]
    public async Task RunAsync_AggregatesPerRange_ForRangeFacets()
    {
        await SeedAsync();
        var (_, facets) = await _db.FacetsAsync("from Products select facet(Price < 100, Price >= 100, sum(Stock), max(Stock))");
        var values = facets[0].Values;
        Assert.Equal(["Price < 100:2", "Price >= 100:1"], FacetTestStore.Counts(facets[0]));
        var ops = RqlFacetAggregationOp.Sum | RqlFacetAggregationOp.Max;
        Assert.Equal(new FacetValue("Price < 100", 2) { Aggregates = new("Stock", ops, Sum: 6, Max: 5) }, values[0]);
        Assert.Equal(new FacetValue("Price >= 100", 1) { Aggregates = new("Stock", ops, Sum: 0, Max: 0) }, values[1]);
    }

    [Fact]
    public async Task RunAsync_ReadsTypedFields_OnAStaticIndex()
    {
        await SeedAsync();
        _db.PutIndex("""{"Name":"Products/Typed","Collections":["Products"],"Fields":{"Brand":{"Path":"Brand"},"Stock":{"Path":"Stock","Type":"Long"}}}""");
        var (_, facets) = await _db.FacetsAsync("from index 'Products/Typed' select facet(Brand, sum(Stock), min(Stock))");
        Assert.Equal(["Acme:2", "Zeta:2", "Nova:1"], FacetTestStore.Counts(facets[0]));
        Assert.Equal([6.0, 7.0, 0.0], facets[0].Values.Select(v => v.Sum!.Value));
        Assert.Equal([1.0, 7.0, 0.0], facets[0].Values.Select(v => v.Min!.Value));
    }

    [Fact]
    public async Task RunAsync_RefusesToAggregate_AStaticFieldOfText()
    {
        await SeedAsync();
        _db.PutIndex("""{"Name":"Products/Text","Collections":["Products"],"Fields":{"Brand":{"Path":"Brand"},"Price":{"Path":"Price"}}}""");
        var error = await Assert.ThrowsAsync<QueryException>(() => _db.FacetsAsync("from index 'Products/Text' select facet(Brand, sum(Price))"));
        Assert.Contains("holds text", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task RunAsync_RefusesTwoFieldsUnderOneName()
    {
        await SeedAsync();
        var error = await Assert.ThrowsAsync<QueryException>(() => _db.FacetsAsync("from Products select facet(Brand, sum(Price) as X, max(Stock) as X)"));
        Assert.Contains("two different fields 'X'", error.Message, StringComparison.Ordinal);
    }
}
