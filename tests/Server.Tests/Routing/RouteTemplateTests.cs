using Folio.Server.Routing;

namespace Folio.Server.Tests.Routing;

public class RouteTemplateTests
{
    [Fact]
    public void Parse_SplitsAroundDb_WhenTemplateHasParameter()
    {
        var template = RouteTemplate.Parse("/databases/{db}/indexes/stats");

        Assert.Equal(0, template.DatabaseIndex);
        Assert.Equal(["/databases", "/indexes/stats"], template.FixedRuns);
        Assert.Equal("/databases/{}/indexes/stats", template.Shape);
    }

    [Fact]
    public void Parse_KeepsWholeTextAsOneRun_WhenTemplateIsFixed()
    {
        var template = RouteTemplate.Parse("/admin/databases");

        Assert.Equal(-1, template.DatabaseIndex);
        Assert.Equal(["/admin/databases"], template.FixedRuns);
        Assert.Empty(template.ParameterNames);
    }

    [Fact]
    public void Parse_RecordsEveryParameterAndItsSegment_WhenTemplateHasSeveral()
    {
        var template = RouteTemplate.Parse("/databases/{db}/indexes/{name}/terms/{field}");

        Assert.Equal(["db", "name", "field"], template.ParameterNames);
        Assert.Equal([1, 3, 5], template.ParameterSegments);
        Assert.Equal(["/databases", "/indexes", "/terms", ""], template.FixedRuns);
        Assert.False(template.HasCatchAll);
    }

    [Fact]
    public void Parse_EndsRunsBeforeTheCatchAll_WhenTemplateHasOne()
    {
        var template = RouteTemplate.Parse("/databases/{db}/files/{*path}");

        Assert.True(template.HasCatchAll);
        Assert.Equal(["db", "path"], template.ParameterNames);
        Assert.Equal(["/databases", "/files"], template.FixedRuns);
        Assert.Equal(1, template.SegmentParameterCount);
        Assert.Equal("/databases/{}/files/{*}", template.Shape);
    }

    [Theory]
    [InlineData("/{name}", "")]
    [InlineData("/{*path}", "")]
    [InlineData("/", "/")]
    public void Parse_AcceptsParametersAtTheRoot_WhenNothingPrecedesThem(string text, string firstRun)
    {
        var template = RouteTemplate.Parse(text);

        Assert.Equal(firstRun, template.FixedRuns[0]);
    }

    [Theory]
    [InlineData("/databases/{db}/indexes/{name}", "/DATABASES/{DB}/Indexes/{Name}", true)]
    [InlineData("/databases/{db}/indexes/{name}", "/databases/{db}/indexes/{index}", false)]
    public void NamesParametersLike_ComparesNamesIgnoringCase_WhenShapesAreEqual(string first, string second, bool alike)
    {
        var a = RouteTemplate.Parse(first);
        var b = RouteTemplate.Parse(second);

        Assert.Equal(a.Shape, b.Shape, StringComparer.OrdinalIgnoreCase);
        Assert.Equal(alike, a.NamesParametersLike(b));
    }

    [Theory]
    [InlineData("")]
    [InlineData("docs")]
    [InlineData("/docs/")]
    [InlineData("//docs")]
    [InlineData("/a//b")]
    [InlineData("/{db}/x/{db}")]
    [InlineData("/x{db}")]
    [InlineData("/a b")]
    [InlineData("/docs?id=1")]
    public void Parse_Throws_WhenTemplateIsMalformed(string template)
    {
        Assert.Throws<ArgumentException>(() => RouteTemplate.Parse(template));
    }

    [Theory]
    [InlineData("/x/{db}y", "a parameter must be a whole segment")]
    [InlineData("/x/{a}{b}", "not allowed in a parameter name")]
    [InlineData("/x/{}", "must start with a letter")]
    [InlineData("/x/{1st}", "must start with a letter")]
    [InlineData("/x/{id:int}", "constraints, defaults and optional parameters are not supported")]
    [InlineData("/x/{id?}", "constraints, defaults and optional parameters are not supported")]
    [InlineData("/x/{**path}", "must start with a letter")]
    [InlineData("/x/{*path}/y", "the catch-all {*path} must be the last segment")]
    [InlineData("/x/{Name}/{name}", "names the parameter 'name' twice")]
    [InlineData("/x/{*db}", "{db} is one database segment and cannot be a catch-all")]
    [InlineData("/x/y}", "a parameter must be a whole segment")]
    public void Parse_ThrowsNamingTheTemplateAndTheReason_WhenParameterIsMalformed(string template, string reason)
    {
        var ex = Assert.Throws<ArgumentException>(() => RouteTemplate.Parse(template));

        Assert.Contains($"'{template}'", ex.Message, StringComparison.Ordinal);
        Assert.Contains(reason, ex.Message, StringComparison.Ordinal);
    }
}
