using System.Text;
using System.Text.Json;
using Folio.Indexing.Definitions;
using Folio.Indexing.Documents;

namespace Folio.Indexing.Tests.Definitions;

public sealed class FanOutDefinitionTests
{
    private const string Lines = """{"Name":"Orders/ByLine","Collections":["Orders"],"ForEach":"Lines[]","Fields":{"Product":{"Path":"Lines[].Product"},"Company":{"Path":"Company"}}}""";

    [Fact]
    public void Parse_ForEach_RoundTripsAndSurvivesAChangeOfEngine()
    {
        var definition = Parse(Lines);

        Assert.Equal("Lines[]", definition.ForEach?.Text);
        Assert.True(definition.SameAs(Parse(IndexDefinitionJson.ToJson(definition))));
        Assert.Equal("Lines[]", definition.WithSearchEngine("lucene").ForEach?.Text);
        Assert.False(definition.SameAs(Parse(Lines.Replace("\"ForEach\":\"Lines[]\",", "", StringComparison.Ordinal))));
    }

    [Theory]
    [InlineData("""{"Name":"X","Collections":["Orders"],"ForEach":"Lines","Fields":{"P":{"Path":"Lines[].Product"}}}""", "must be a path ending in []")]
    [InlineData("""{"Name":"X","Collections":["Orders"],"ForEach":"Lines[]","Reduce":{"GroupBy":["Company"],"Aggregations":{"Count":{"Op":"Count"}}}}""", "ForEach needs a map index")]
    [InlineData("""{"Name":"X","Collections":["Orders"],"ForEach":3,"Fields":{"P":{"Path":"Company"}}}""", "ForEach must be the path of an array")]
    public void Parse_BadForEach_ThrowsNamingIt(string json, string message)
    {
        var error = Assert.Throws<IndexDefinitionException>(() => Parse(json));

        Assert.Contains(message, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void ExtractAll_MakesAnEntryPerElement_ElementFieldsFromTheElementOthersFromTheDocument()
    {
        var json = Encoding.UTF8.GetBytes("""{"Company":"companies/1","Lines":[{"Product":"p1"},{"Product":"p2"},{"Other":1}]}""");

        var entries = DocumentFieldExtractor.ExtractAll(Parse(Lines), "orders/1", json);

        Assert.Equal(["orders/1\u001f0", "orders/1\u001f1", "orders/1\u001f2"], entries.Select(e => e.Key));
        Assert.All(entries, e => Assert.Contains(e.Values, v => v.Field == IndexDefinition.IdField && v.Value.Text == "orders/1"));
        Assert.All(entries, e => Assert.Contains(e.Values, v => v.Field == "Company" && v.Value.Text == "companies/1"));
        Assert.Equal(["p1", "p2"], entries.SelectMany(e => e.Values.Where(v => v.Field == "Product").Select(v => v.Value.Text!)));
        Assert.Equal("orders/1", IndexDefinition.DocumentKeyOf(entries[2].Key));
        Assert.Empty(DocumentFieldExtractor.ExtractAll(Parse(Lines), "orders/2", Encoding.UTF8.GetBytes("""{"Lines":[]}""")));
    }

    private static IndexDefinition Parse(string json)
    {
        using var document = JsonDocument.Parse(json);
        return IndexDefinitionJson.Parse(document.RootElement);
    }
}
