using Folio.Server.Routing;

namespace Folio.Server.Tests.Routing;

public class RouteTemplateTests
{
    [Fact]
    public void Parse_SplitsAroundDb_WhenTemplateHasParameter()
    {
        var template = RouteTemplate.Parse("/databases/{db}/indexes/stats");

        Assert.True(template.HasDatabase);
        Assert.Equal("/databases/", template.Prefix);
        Assert.Equal("/indexes/stats", template.Suffix);
    }

    [Fact]
    public void Parse_KeepsWholeTextAsPrefix_WhenTemplateIsFixed()
    {
        var template = RouteTemplate.Parse("/admin/databases");

        Assert.False(template.HasDatabase);
        Assert.Equal("/admin/databases", template.Prefix);
        Assert.Equal(string.Empty, template.Suffix);
    }

    [Theory]
    [InlineData("")]
    [InlineData("docs")]
    [InlineData("/docs/")]
    [InlineData("//docs")]
    [InlineData("/a//b")]
    [InlineData("/{name}")]
    [InlineData("/{db}/x/{db}")]
    [InlineData("/x{db}")]
    [InlineData("/a b")]
    [InlineData("/docs?id=1")]
    public void Parse_Throws_WhenTemplateIsMalformed(string template)
    {
        Assert.Throws<ArgumentException>(() => RouteTemplate.Parse(template));
    }
}
