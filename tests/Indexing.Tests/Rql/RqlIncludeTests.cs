using Folio.Indexing.Definitions;
using Folio.Indexing.Rql;

namespace Folio.Indexing.Tests.Rql;

public sealed class RqlIncludeTests
{
    [Theory]
    [InlineData("from Orders include Lines[].Product", "Lines[].Product")]
    [InlineData("from Orders include 'Lines[].Product'", "Lines[].Product")]
    [InlineData("from Orders include \"'Ref Ids'\"", "'Ref Ids'")]
    [InlineData("from Orders include '\\'Ref Ids\\''", "'Ref Ids'")]
    [InlineData("from Orders include 'Address.\"e-mail\"'", "Address.e-mail")]
    [InlineData("from Orders include '\"a.b\"[]'", "'a.b'[]")]
    [InlineData("from Orders limit 5 include \"Lines[].'Unit Price'\"", "Lines[].'Unit Price'")]
    public void Parse_IncludePath_ReadsItWithThePathParser(string query, string canonical)
    {
        var parsed = RqlParser.Parse(query);

        var path = Assert.Single(parsed.Include);
        Assert.Equal(canonical, path.Text);
        Assert.Equal(FieldPath.Parse(canonical).Segments, path.Segments);
    }

    [Fact]
    public void Parse_SeveralIncludes_KeepsTheirOrder()
    {
        var parsed = RqlParser.Parse("from Orders include Company, 'Lines[].Product', \"'Ref Ids'\"");

        Assert.Equal(["Company", "Lines[].Product", "'Ref Ids'"], parsed.Include.Select(p => p.Text));
    }

    [Fact]
    public void Parse_MalformedBareIncludePath_PointsIntoThePath()
    {
        const string query = "from Orders include Lines..Product";

        var error = Assert.Throws<RqlParseException>(() => RqlParser.Parse(query));

        Assert.Equal(query.IndexOf("..", StringComparison.Ordinal) + 1, error.Position);
        Assert.Contains("Invalid include path: The path 'Lines..Product' has an empty segment at position 6", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Parse_UnquotedAwkwardNameInAString_SaysToQuoteItInsideTheString()
    {
        const string query = "from Orders include 'Ref Ids'";

        var error = Assert.Throws<RqlParseException>(() => RqlParser.Parse(query));

        Assert.Equal(query.IndexOf('\'', StringComparison.Ordinal), error.Position);
        Assert.Contains("has a space in a bare name at position 3", error.Message, StringComparison.Ordinal);
        Assert.Contains("include \"'Unit Price'\"", error.Message, StringComparison.Ordinal);
    }
}
