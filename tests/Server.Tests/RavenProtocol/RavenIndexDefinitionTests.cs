using System.Text.Json;
using Folio.Indexing.Definitions;
using Folio.Server.RavenProtocol.Indexes;

namespace Folio.Server.Tests.RavenProtocol;

/// <summary>How a seeds' index definition's field options and spatial fields become Folio's fields.</summary>
public sealed class RavenIndexDefinitionTests
{
    private static IndexDefinition Translate(string json)
    {
        using var document = JsonDocument.Parse(json);
        return RavenIndexDefinition.Translate(document.RootElement);
    }

    [Theory]
    [InlineData("Lucene.Net.Analysis.Standard.StandardAnalyzer", "Standard")]
    [InlineData("WhitespaceAnalyzer", "Whitespace")]
    [InlineData("Simple", "Simple")]
    public void Translate_MakesAFieldWithAKnownAnalyzer_FullTextWithIt(string written, string analyzer)
    {
        var definition = Translate("""{"Name":"Data","Maps":["map('Data', d => ({ body: d.body, tag: d.tag }))"],"Fields":{"body":{"Analyzer":""" + JsonSerializer.Serialize(written) + "}}}");
        Assert.True(definition.Fields["body"].Search);
        Assert.Equal(analyzer, definition.Fields["body"].Analyzer);
        Assert.False(definition.Fields["tag"].Search);
    }

    [Theory]
    [InlineData("""{"Analyzer":"My.Custom.Analyzer"}""", false)]
    [InlineData("""{"Analyzer":"StandardAnalyzer","Indexing":"Exact"}""", false)]
    [InlineData("""{"Analyzer":"KeywordAnalyzer","Indexing":"Search"}""", true)]
    public void Translate_KeepsTheIndexing_WhenTheAnalyzerIsUnknownOrIndexingSaysOtherwise(string options, bool search)
    {
        var definition = Translate("""{"Name":"Data","Maps":["map('Data', d => ({ body: d.body }))"],"Fields":{"body":""" + options + "}}");
        Assert.Equal(search, definition.Fields["body"].Search);
    }

    [Fact]
    public void Translate_MakesSpatialFields_OfCreateSpatialField()
    {
        var definition = Translate("""{"Name":"Shops","Maps":["from e in docs.Shops select new { e.venue, coordinates = CreateSpatialField(e.latitude, e.longitude) }"]}""");
        var spatial = definition.Fields["coordinates"].Spatial;
        Assert.NotNull(spatial);
        Assert.Equal("latitude", spatial.Latitude!.Text);
        Assert.Equal("longitude", spatial.Longitude!.Text);
        Assert.Null(definition.Fields["venue"].Spatial);
    }

    [Fact]
    public void Translate_RefusesASpatialField_InAMapReduceIndex()
    {
        var refused = Assert.Throws<IndexDefinitionException>(() => Translate(
            """{"Name":"Shops","Maps":["map('Shops', s => ({ venue: s.venue, count: 1, where: createSpatialField(s.lat, s.lng) }))"],"Reduce":"groupBy(x => x.venue).aggregate(g => ({ venue: g.key, count: g.values.reduce((a, b) => a + b.count, 0) }))"}"""));
        Assert.Contains("spatial", refused.Message, StringComparison.Ordinal);
    }
}
