using System.Text.Json;
using Folio.Indexing.Definitions;

namespace Folio.Indexing.Tests.MapReduce;

public sealed class ReduceDefinitionTests
{
    private static IndexDefinition Parse(string reduce, string extra = "") =>
        IndexDefinitionJson.Parse(JsonDocument.Parse($$"""{"Name":"R","Collections":["Orders"],"Reduce":{{reduce}}{{extra}}}""").RootElement);

    [Theory]
    [InlineData("""{"GroupBy":[],"Aggregations":{}}""", "at least one field")]
    [InlineData("""{"GroupBy":["Company"],"Aggregations":{"T":{"Op":"Median","Path":"Freight"}}}""", "unknown Op 'Median'")]
    [InlineData("""{"GroupBy":["Company"],"Aggregations":{"T":{"Op":"Sum"}}}""", "'T' (Sum) needs a Path")]
    [InlineData("""{"GroupBy":["Company"],"Aggregations":{"Company":{"Op":"Count"}}}""", "named like a GroupBy field")]
    [InlineData("""{"GroupBy":["Company","Lines[].Company"],"Aggregations":{}}""", "names 'Company' twice")]
    [InlineData("""{"GroupBy":["Company"],"Aggregations":{"T":{"Path":"Freight"}}}""", "has no Op")]
    [InlineData("""{"GroupBy":["Company"],"Aggregations":{"T":{"Op":"Sum","Path":"a..b"}}}""", "Path of aggregation 'T' is not valid")]
    [InlineData("""{"GroupBy":"Company"}""", "GroupBy must be an array")]
    [InlineData("""{"GroupBy":["Company"],"Having":1}""", "Unknown property 'Having'")]
    [InlineData("[]", "Reduce must be an object")]
    public void Parse_RefusesWithAMessage_WhenTheReduceIsBad(string reduce, string message)
    {
        var error = Assert.Throws<IndexDefinitionException>(() => Parse(reduce));
        Assert.Contains(message, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Parse_RefusesFields_BesideReduce()
    {
        var error = Assert.Throws<IndexDefinitionException>(() => Parse("""{"GroupBy":["Company"]}""", ""","Fields":{"A":{}}"""));
        Assert.Contains("remove Fields", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Parse_NamesAGroupFieldAfterItsLastProperty_AndRoundTrips()
    {
        var definition = Parse("""{"GroupBy":["Lines[].'Product Id'",{"Name":"Who","Path":"Customer.Name"}],"Aggregations":{"Count":{"Op":"count"},"Avg":{"Op":"Avg","Path":"Lines[].Price"}}}""");
        var reduce = definition.Reduce!;
        Assert.Equal(["Product Id", "Who"], reduce.GroupBy.Select(g => g.Name));
        Assert.Equal([AggregationOp.Count, AggregationOp.Average], reduce.Aggregations.Select(a => a.Op));
        // The rows' fields: each group field with its full-text twin, each aggregation.
        Assert.Equal(["Product Id", "search(Product Id)", "Who", "search(Who)", "Count", "Avg"], definition.Fields.Keys);
        var again = IndexDefinitionJson.Parse(JsonDocument.Parse(IndexDefinitionJson.ToJson(definition)).RootElement);
        Assert.True(again.SameAs(definition));
        Assert.Equal("Lines[].'Product Id'", again.Reduce!.GroupBy[0].Path.Text);
    }

    [Theory]
    [InlineData(",\"OutputCollection\":\"orders\"", "is one of the collections index 'R' reads")]
    [InlineData(",\"OutputCollection\":\" \"", "non-empty collection name")]
    [InlineData(",\"OutputCollection\":\"@hilo\"", "not starting with '@'")]
    [InlineData(""","OutputCollection":7""", "must be a collection name")]
    public void Parse_RefusesAnOutputCollection_ThatCannotTakeTheResults(string extra, string message)
    {
        var error = Assert.Throws<IndexDefinitionException>(() => Parse("""{"GroupBy":["Company"]}""", extra));
        Assert.Contains(message, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Parse_RefusesAnOutputCollection_OnAMapIndex()
    {
        var error = Assert.Throws<IndexDefinitionException>(() => IndexDefinitionJson.Parse(JsonDocument.Parse("""{"Name":"M","Collections":["Orders"],"Fields":{"A":{}},"OutputCollection":"X"}""").RootElement));
        Assert.Contains("needs a map/reduce index", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Parse_KeepsTheOutputCollection_AndRoundTrips()
    {
        var definition = Parse("""{"GroupBy":["Company"]}""", ",\"OutputCollection\":\"CompanyTotals\"");
        Assert.Equal("CompanyTotals", definition.OutputCollection);
        var again = IndexDefinitionJson.Parse(JsonDocument.Parse(IndexDefinitionJson.ToJson(definition)).RootElement);
        Assert.Equal("CompanyTotals", again.OutputCollection);
        Assert.True(definition.SameAs(again));
        Assert.False(definition.SameAs(Parse("""{"GroupBy":["Company"]}""")));
    }
}
