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

    [Theory]
    [InlineData("from Orders include 'Ref Ids'", "Ref Ids")]
    [InlineData("from Orders include 'Lines[0]'", "Lines[0]")]
    [InlineData("from Orders include 'O\\'Brien'", "O'Brien")]
    public void Parse_StringThatIsNoPathText_IncludesTheOnePropertySoNamed(string query, string name)
    {
        var path = Assert.Single(RqlParser.Parse(query).Include);

        Assert.Equal([new PathSegment(name)], path.Segments);
    }

    [Theory]
    [InlineData("from Orders include 'a.b'", "a.b")]
    [InlineData("from Orders include \"'a.b'\"", "'a.b'")]
    [InlineData("from Orders include Refs.'a.b'", "Refs.'a.b'")]
    [InlineData("from Orders include 'Ref Ids'[]", "'Ref Ids'[]")]
    [InlineData("from Orders include 'Sales Lines'[].'Product Id'", "'Sales Lines'[].'Product Id'")]
    public void Parse_StringAloneIsPathText_AndAnyOtherPathReadsAsAFieldDoes(string query, string canonical)
    {
        var path = Assert.Single(RqlParser.Parse(query).Include);

        Assert.Equal(FieldPath.Parse(canonical).Segments, path.Segments);
    }

    [Fact]
    public void Parse_MalformedBareIncludePath_PointsIntoThePath()
    {
        const string query = "from Orders include Lines..Product";

        var error = Assert.Throws<RqlParseException>(() => RqlParser.Parse(query));

        Assert.Equal(query.IndexOf("..", StringComparison.Ordinal) + 1, error.Position);
        Assert.Contains("Expected a name after '.'", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Parse_IncludeOfId_IsRefused()
    {
        const string query = "from Orders include id()";

        var error = Assert.Throws<RqlParseException>(() => RqlParser.Parse(query));

        Assert.Equal(query.IndexOf("id()", StringComparison.Ordinal), error.Position);
    }
}
