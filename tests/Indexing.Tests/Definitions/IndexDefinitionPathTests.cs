using System.Text.Json;
using Folio.Indexing.Definitions;

namespace Folio.Indexing.Tests.Definitions;

public sealed class IndexDefinitionPathTests
{
    [Fact]
    public void Parse_QuotedPath_ReadsTheAwkwardNameAndWritesItBackCanonically()
    {
        var definition = Parse("""{"Name":"Movies/ByRating","Collections":["Movies"],"Fields":{"Rating":{"Path":"\"IMDB Rating\"","Type":"Double"},"Genre":{"Path":"Details.'Major Genre'"}}}""");

        Assert.Equal([new PathSegment("IMDB Rating")], definition.Fields["Rating"].Path.Segments);
        Assert.Equal([new PathSegment("Details"), new PathSegment("Major Genre")], definition.Fields["Genre"].Path.Segments);
        Assert.Contains("\"Path\":\"\\u0027IMDB Rating\\u0027\"", IndexDefinitionJson.ToJson(definition), StringComparison.Ordinal);
        Assert.True(definition.SameAs(Parse(IndexDefinitionJson.ToJson(definition))));
    }

    [Fact]
    public void Parse_MalformedPath_ThrowsIndexDefinitionExceptionNamingTheFieldAndPosition()
    {
        var error = Assert.Throws<IndexDefinitionException>(() => Parse("""{"Name":"Movies/ByRating","Collections":["Movies"],"Fields":{"Rating":{"Path":"IMDB Rating"}}}"""));

        Assert.Contains("The Path of field 'Rating' is not valid: The path 'IMDB Rating' has a space in a bare name at position 4; write the name in quotes: 'IMDB Rating'.", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Parse_FieldWithoutPathWhoseNameIsNoPath_SaysTheNameIsReadAsThePath()
    {
        var error = Assert.Throws<IndexDefinitionException>(() => Parse("""{"Name":"Movies/ByGenre","Collections":["Movies"],"Fields":{"Major Genre":{}}}"""));

        Assert.Contains("Field 'Major Genre' has no Path, so its name is read as one: The path 'Major Genre' has a space", error.Message, StringComparison.Ordinal);
    }

    private static IndexDefinition Parse(string json)
    {
        using var document = JsonDocument.Parse(json);
        return IndexDefinitionJson.Parse(document.RootElement);
    }
}
