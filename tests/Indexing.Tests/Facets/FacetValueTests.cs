namespace Folio.Indexing.Tests.Facets;

/// <summary>
/// What a term facet's values are: explicit nulls as the value null, missing fields counted apart, arrays once per
/// distinct value, and text in the spelling the data uses most, on auto, static and map/reduce indexes.
/// </summary>
public sealed class FacetValueTests : IDisposable
{
    private readonly FacetTestStore _db = new();

    public void Dispose() => _db.Dispose();

    [Fact]
    public async Task RunAsync_CountsNullAsAValue_AndMissingApart()
    {
        await _db.PutAsync("a/1", """{"Code":null}""");
        await _db.PutAsync("a/2", """{"Code":[null,"X",null,"x"]}""");
        await _db.PutAsync("a/3", """{"Code":{"Nested":1}}""");
        await _db.PutAsync("a/4", """{"Other":1}""");
        await _db.PutAsync("a/5", """{"Code":"null"}""");
        var (total, facets) = await _db.FacetsAsync("from A select facet(Code)");
        Assert.Equal(5, total);
        // "null" the string and null the value are two values; X and x are one, counted once for a/2.
        Assert.Equal(["null:2", "null:1", "X:1"], FacetTestStore.Counts(facets[0]));
        Assert.Null(facets[0].Values[0].Range);
        Assert.Equal("null", facets[0].Values[1].Range);
        Assert.Equal(2, facets[0].MissingCount);
    }

    [Fact]
    public async Task RunAsync_AnswersTheMostFrequentSpelling_WhenMatchingFoldsCase()
    {
        await _db.PutAsync("airports/1", """{"City":"DFW"}""");
        await _db.PutAsync("airports/2", """{"City":"DFW"}""");
        await _db.PutAsync("airports/3", """{"City":"dfw"}""");
        await _db.PutAsync("airports/4", """{"City":"Lhr"}""");
        await _db.PutAsync("airports/5", """{"City":"LHR"}""");
        await _db.PutAsync("airports/6", """{"City":"sfo"}""");
        var (_, facets) = await _db.FacetsAsync("from Airports select facet(City)");
        // DFW twice against dfw once; LHR and Lhr tie, and the first in byte order wins.
        Assert.Equal(["DFW:3", "LHR:2", "sfo:1"], FacetTestStore.Counts(facets[0]));
        // The spelling is the index's, not the matches': one match spelled dfw still reads DFW.
        var (_, matched) = await _db.FacetsAsync("from Airports where id() in ('airports/3', 'airports/4') or City = 'sfo' select facet(City)");
        Assert.Equal(["DFW:1", "LHR:1", "sfo:1"], FacetTestStore.Counts(matched[0]));
    }

    [Fact]
    public async Task RunAsync_FollowsTheSpelling_AsDocumentsChangeAndGo()
    {
        await _db.PutAsync("airports/1", """{"City":"DFW"}""");
        await _db.PutAsync("airports/2", """{"City":"DFW"}""");
        await _db.PutAsync("airports/3", """{"City":"dfw"}""");
        Assert.Equal(["DFW:3"], FacetTestStore.Counts((await _db.FacetsAsync("from Airports select facet(City)")).Facets[0]));
        await _db.PutAsync("airports/1", """{"City":"Dfw"}""");
        await _db.PutAsync("airports/4", """{"City":"dfw"}""");
        Assert.Equal(["dfw:4"], FacetTestStore.Counts((await _db.FacetsAsync("from Airports select facet(City)")).Facets[0]));
        await _db.DeleteAsync("airports/3");
        await _db.DeleteAsync("airports/4");
        // DFW and Dfw left, one each: the tie goes to DFW.
        Assert.Equal(["DFW:2"], FacetTestStore.Counts((await _db.FacetsAsync("from Airports select facet(City)")).Facets[0]));
        await _db.PutAsync("airports/2", """{"City":["Dfw","DFW"]}""");
        // An entry counts its first spelling of a value only.
        Assert.Equal(["Dfw:2"], FacetTestStore.Counts((await _db.FacetsAsync("from Airports select facet(City)")).Facets[0]));
    }

    [Fact]
    public async Task RunAsync_KeepsSpellings_OnStaticIndexesThatFoldCase_AndNotOnThoseThatDoNot()
    {
        await _db.PutAsync("airports/1", """{"City":"DFW"}""");
        await _db.PutAsync("airports/2", """{"City":"dfw"}""");
        await _db.PutAsync("airports/3", """{"City":"DFW"}""");
        _db.PutIndex("""{"Name":"Airports/Folded","Collections":["Airports"],"Fields":{"City":{"Path":"City"}}}""");
        _db.PutIndex("""{"Name":"Airports/Exact","Collections":["Airports"],"Fields":{"City":{"Path":"City","CaseSensitive":true}}}""");
        Assert.Equal(["DFW:3"], FacetTestStore.Counts((await _db.FacetsAsync("from index 'Airports/Folded' select facet(City)")).Facets[0]));
        Assert.Equal(["DFW:2", "dfw:1"], FacetTestStore.Counts((await _db.FacetsAsync("from index 'Airports/Exact' select facet(City)")).Facets[0]));
    }

    [Fact]
    public async Task RunAsync_CountsTheRowsOfAMapReduceIndex_WithAggregations()
    {
        _db.PutIndex("""
            {"Name":"Orders/ByCompany","Collections":["Orders"],"Reduce":{"GroupBy":["Company","Country"],
             "Aggregations":{"Count":{"Op":"Count"},"Total":{"Op":"Sum","Path":"Freight"}}}}
            """);
        await _db.PutAsync("orders/1", """{"Company":"ACME","Country":"FR","Freight":10}""");
        await _db.PutAsync("orders/2", """{"Company":"ACME","Country":"FR","Freight":5}""");
        await _db.PutAsync("orders/3", """{"Company":"Zeta","Country":"FR","Freight":1}""");
        await _db.PutAsync("orders/4", """{"Company":"Zeta","Country":"DE","Freight":2.5}""");
        await _db.PutAsync("orders/5", """{"Company":"Nova","Freight":4}""");
        var (total, facets) = await _db.FacetsAsync("from index 'Orders/ByCompany' where Count >= 1 select facet(Country, sum(Total), max(Total)), facet(Total < 5, Total >= 5, sum(Count))");
        Assert.Equal(4, total);
        Assert.Equal(["FR:2", "null:1", "DE:1"], FacetTestStore.Counts(facets[0]));
        Assert.Equal([16.0, 4.0, 2.5], facets[0].Values.Select(v => v.Sum!.Value));
        Assert.Equal([15.0, 4.0, 2.5], facets[0].Values.Select(v => v.Max!.Value));
        Assert.Equal(["Total < 5:3", "Total >= 5:1"], FacetTestStore.Counts(facets[1]));
        Assert.Equal([3.0, 2.0], facets[1].Values.Select(v => v.Sum!.Value));
    }
}
