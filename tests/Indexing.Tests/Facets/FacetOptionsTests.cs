using Folio.Indexing.Querying;

namespace Folio.Indexing.Tests.Facets;

/// <summary>Facet options: paging, the four orders, what remains after the page, and the options refused.</summary>
public sealed class FacetOptionsTests : IDisposable
{
    private readonly FacetTestStore _db = new();

    public void Dispose() => _db.Dispose();

    // Counts: a 5, b 4, c 3, d 3, e 1, null 1; two documents have no Tag.
    private async Task SeedAsync()
    {
        string[] tags = ["a", "a", "a", "a", "a", "b", "b", "b", "b", "c", "c", "c", "d", "d", "d", "e"];
        for (var i = 0; i < tags.Length; i++)
            await _db.PutAsync($"items/{i}", $$"""{"Tag":"{{tags[i]}}"}""");
        await _db.PutAsync("items/null", """{"Tag":null}""");
        await _db.PutAsync("items/none", "{}");
        await _db.PutAsync("items/empty", """{"Tag":[]}""");
    }

    [Theory]
    [InlineData("CountDesc", "a:5,b:4,c:3,d:3,null:1,e:1")]
    [InlineData("CountAsc", "null:1,e:1,c:3,d:3,b:4,a:5")]
    [InlineData("ValueAsc", "null:1,a:5,b:4,c:3,d:3,e:1")]
    [InlineData("ValueDesc", "e:1,d:3,c:3,b:4,a:5,null:1")]
    public async Task RunAsync_OrdersValues_AsTermSortModeSays(string mode, string expected)
    {
        await SeedAsync();
        var (_, facets) = await _db.FacetsAsync("from Items select facet(Tag, $o)", $$$"""{"o":{"TermSortMode":"{{{mode}}}"}}""");
        Assert.Equal(expected, string.Join(',', FacetTestStore.Counts(facets[0])));
        Assert.Equal(2, facets[0].MissingCount);
        Assert.Equal(0, facets[0].RemainingTermsCount);
    }

    [Fact]
    public async Task RunAsync_PagesValues_AndSumsUpTheRemainingOnes()
    {
        await SeedAsync();
        var (_, facets) = await _db.FacetsAsync("from Items select facet(Tag, $o)", """{"o":{"Start":1,"PageSize":2,"IncludeRemainingTerms":true}}""");
        var facet = facets[0];
        Assert.Equal(["b:4", "c:3"], FacetTestStore.Counts(facet));
        Assert.Equal(["d", null, "e"], facet.RemainingTerms);
        Assert.Equal(3, facet.RemainingTermsCount);
        Assert.Equal(5, facet.RemainingHits);
    }

    [Fact]
    public async Task RunAsync_LeavesOutTheRemainingTerms_UnlessAsked()
    {
        await SeedAsync();
        var (_, facets) = await _db.FacetsAsync("from Items select facet(Tag, $o)", """{"o":{"PageSize":1,"TermSortMode":"ValueAsc"}}""");
        Assert.Equal(["null:1"], FacetTestStore.Counts(facets[0]));
        Assert.Empty(facets[0].RemainingTerms);
        Assert.Equal(5, facets[0].RemainingTermsCount);
        Assert.Equal(16, facets[0].RemainingHits);
    }

    [Fact]
    public async Task RunAsync_AnswersNoValues_WhenStartIsPastTheLast()
    {
        await SeedAsync();
        var (_, facets) = await _db.FacetsAsync("from Items select facet(Tag, $o)", """{"o":{"Start":50}}""");
        Assert.Empty(facets[0].Values);
        Assert.Equal(0, facets[0].RemainingTermsCount);
    }

    [Theory]
    [InlineData("""{"o":{"TermSortMode":"HitsDesc"}}""", "TermSortMode")]
    [InlineData("""{"o":{"TermSortMode":"1"}}""", "TermSortMode")]
    [InlineData("""{"o":{"PageSize":-1}}""", "PageSize")]
    [InlineData("""{"o":{"Start":1.5}}""", "Start")]
    [InlineData("""{"o":{"IncludeRemainingTerms":"yes"}}""", "IncludeRemainingTerms")]
    [InlineData("""{"o":{"Pagesize2":3}}""", "unknown property")]
    [InlineData("""{"o":[1]}""", "must be an object")]
    [InlineData("""{"p":{}}""", "QueryParameters has no 'o'")]
    public async Task RunAsync_RefusesBadOptions(string parameters, string message)
    {
        await SeedAsync();
        var error = await Assert.ThrowsAsync<QueryException>(() => _db.FacetsAsync("from Items select facet(Tag, $o)", parameters));
        Assert.Contains(message, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task RunAsync_RefusesPagingOptions_OnARangeFacet()
    {
        await SeedAsync();
        var error = await Assert.ThrowsAsync<QueryException>(() => _db.FacetsAsync("from Items select facet(Tag < 'c', Tag >= 'c', $o)", """{"o":{"PageSize":1}}"""));
        Assert.Contains("may only set Sideways", error.Message, StringComparison.Ordinal);
    }
}
