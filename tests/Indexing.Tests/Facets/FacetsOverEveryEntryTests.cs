namespace Folio.Indexing.Tests.Facets;

/// <summary>
/// Facets of a query without a where clause: fields whose every entry has at most one value and no null are counted
/// from the index's per-value counts, the others by a walk over every entry, in one answer that agrees with both.
/// </summary>
public sealed class FacetsOverEveryEntryTests : IDisposable
{
    private readonly FacetTestStore _db = new();

    public void Dispose() => _db.Dispose();

    private const string Query = "from Products select facet(Brand), facet(Tags), facet(Price < 10, Price between 10 and 20, Price > 20) as Price";

    [Fact]
    public async Task RunAsync_CountsEveryDocument_WhetherEachFacetIsCountedByValueOrWalked()
    {
        await _db.PutAsync("products/1", """{"Brand":"Acme","Tags":["new","NEW","sale"],"Price":5}""");
        await _db.PutAsync("products/2", """{"Brand":"ACME","Tags":"sale","Price":10}""");
        await _db.PutAsync("products/3", """{"Brand":"Bolt","Tags":"new","Price":20}""");
        await _db.PutAsync("products/4", """{"Brand":"bolt","Price":25.5}""");
        await _db.PutAsync("products/5", """{"Tags":"old"}""");
        await _db.DeleteAsync("products/3");
        await _db.PutAsync("products/6", """{"Brand":"Cargo","Tags":"new","Price":20}""");

        var (total, facets) = await _db.FacetsAsync(Query);
        Assert.Equal(5, total);
        // Acme and ACME tie, and the first in byte order wins.
        Assert.Equal(["ACME:2", "bolt:1", "Cargo:1"], FacetTestStore.Counts(facets[0]));
        Assert.Equal(1, facets[0].MissingCount);
        Assert.Equal(["new:2", "sale:2", "old:1"], FacetTestStore.Counts(facets[1]));
        Assert.Equal(1, facets[1].MissingCount);
        Assert.Equal(["Price < 10:1", "Price between 10 and 20:2", "Price > 20:1"], FacetTestStore.Counts(facets[2]));

        // Once the array is gone every facet is counted by value, and answers as a walk would.
        await _db.PutAsync("products/1", """{"Brand":"Acme","Tags":"sale","Price":5}""");
        (total, facets) = await _db.FacetsAsync(Query);
        Assert.Equal(5, total);
        Assert.Equal(["ACME:2", "bolt:1", "Cargo:1"], FacetTestStore.Counts(facets[0]));
        Assert.Equal(["sale:2", "new:1", "old:1"], FacetTestStore.Counts(facets[1]));
        Assert.Equal(["Price < 10:1", "Price between 10 and 20:2", "Price > 20:1"], FacetTestStore.Counts(facets[2]));
        var (matched, walked) = await _db.FacetsAsync(Query.Replace("select", "where Price >= 0 or Tags = 'old' select", StringComparison.Ordinal));
        Assert.Equal(total, matched);
        for (var f = 0; f < facets.Count; f++)
            Assert.Equal(FacetTestStore.Counts(walked[f]), FacetTestStore.Counts(facets[f]));
    }
}
