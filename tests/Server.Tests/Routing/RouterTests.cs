using Folio.Server.Routing;

namespace Folio.Server.Tests.Routing;

public class RouterTests
{
    private static readonly FolioRequestHandler s_get = _ => ValueTask.CompletedTask;
    private static readonly FolioRequestHandler s_put = _ => ValueTask.CompletedTask;
    private static readonly FolioRequestHandler s_other = _ => ValueTask.CompletedTask;

    private static FolioRouter BuildSample()
    {
        var builder = new RouteTableBuilder();
        builder.Add("GET", "/healthz", s_get);
        builder.Add("GET", "/databases", s_get);
        builder.Add("GET", "/databases/stats", s_other);
        builder.Add("GET", "/databases/{db}", s_other);
        builder.Add("GET", "/databases/{db}/docs", s_get);
        builder.Add("PUT", "/databases/{db}/docs", s_put);
        builder.Add("GET", "/databases/{db}/indexes/stats", s_other);
        builder.Add("GET", "/", s_other);
        return builder.Build();
    }

    [Fact]
    public void Match_FindsFixedRoute_WhenPathAndMethodMatch()
    {
        RouteMatch match = BuildSample().Match("GET", "/healthz");

        Assert.Equal(RouteMatchKind.Found, match.Kind);
        Assert.Same(s_get, match.Handler);
        Assert.Equal(0, match.DatabaseLength);
    }

    [Theory]
    [InlineData("/databases/Northwind/docs", "GET", "Northwind")]
    [InlineData("/databases/Northwind/docs", "PUT", "Northwind")]
    [InlineData("/databases/a.b-c_d/indexes/stats", "GET", "a.b-c_d")]
    [InlineData("/databases/x", "GET", "x")]
    public void Match_CapturesDatabaseSegment_WhenRouteHasDbParameter(string path, string method, string expected)
    {
        RouteMatch match = BuildSample().Match(method, path);

        Assert.Equal(RouteMatchKind.Found, match.Kind);
        Assert.Equal(expected, path.Substring(match.DatabaseStart, match.DatabaseLength));
    }

    [Theory]
    [InlineData("/HEALTHZ")]
    [InlineData("/HealthZ")]
    [InlineData("/DATABASES/Northwind/DOCS")]
    [InlineData("/Databases/Northwind/Indexes/Stats")]
    public void Match_IgnoresCase_WhenPathDiffersOnlyInCase(string path)
    {
        Assert.Equal(RouteMatchKind.Found, BuildSample().Match("GET", path).Kind);
    }

    [Fact]
    public void Match_KeepsDatabaseCase_WhenMatchingCaseInsensitively()
    {
        const string path = "/DATABASES/NorthWind/Docs";
        RouteMatch match = BuildSample().Match("GET", path);

        Assert.Equal("NorthWind", path.Substring(match.DatabaseStart, match.DatabaseLength));
    }

    [Theory]
    [InlineData("/healthz/")]
    [InlineData("/databases/Northwind/docs/")]
    public void Match_IgnoresOneTrailingSlash_WhenRouteExists(string path)
    {
        Assert.Equal(RouteMatchKind.Found, BuildSample().Match("GET", path).Kind);
    }

    [Theory]
    [InlineData("/nope")]
    [InlineData("/databases//docs")]
    [InlineData("/databases/Northwind/docs/extra")]
    [InlineData("/databases/Northwind/unknown")]
    [InlineData("/healthzz")]
    [InlineData("//healthz")]
    public void Match_ReturnsNotFound_WhenNoRouteHasPath(string path)
    {
        RouteMatch match = BuildSample().Match("GET", path);

        Assert.Equal(RouteMatchKind.NotFound, match.Kind);
        Assert.Null(match.Bucket);
    }

    [Fact]
    public void Match_MapsEmptyPathToRoot_WhenRootRouteExists()
    {
        Assert.Equal(RouteMatchKind.Found, BuildSample().Match("GET", "").Kind);
    }

    [Theory]
    [InlineData("DELETE")]
    [InlineData("POST")]
    [InlineData("PROPFIND")]
    public void Match_ReturnsMethodNotAllowedWithAllow_WhenPathKnownButMethodNot(string method)
    {
        RouteMatch match = BuildSample().Match(method, "/databases/db1/docs");

        Assert.Equal(RouteMatchKind.MethodNotAllowed, match.Kind);
        Assert.Equal("GET, PUT, HEAD", match.Bucket!.Allow);
    }

    [Fact]
    public void Match_UsesGetHandlerForHead_WhenNoHeadRouteDeclared()
    {
        RouteMatch match = BuildSample().Match("HEAD", "/healthz");

        Assert.Equal(RouteMatchKind.Found, match.Kind);
        Assert.Same(s_get, match.Handler);
    }

    [Fact]
    public void Match_AcceptsLowerCaseMethod_WhenClientSendsIt()
    {
        Assert.Equal(RouteMatchKind.Found, BuildSample().Match("get", "/healthz").Kind);
    }

    [Fact]
    public void Match_PrefersFixedRoute_WhenParameterRouteAlsoFits()
    {
        RouteMatch match = BuildSample().Match("GET", "/databases/stats");

        Assert.Same(s_other, match.Handler);
        Assert.Equal(0, match.DatabaseLength);
    }

    [Fact]
    public void Match_TriesLongerPrefixFirst_WhenPrefixesOverlap()
    {
        FolioRequestHandler shortPrefix = _ => ValueTask.CompletedTask;
        FolioRequestHandler longPrefix = _ => ValueTask.CompletedTask;
        var builder = new RouteTableBuilder();
        builder.Add("GET", "/a/{db}/x", shortPrefix);
        builder.Add("GET", "/a/b/{db}/x", longPrefix);
        FolioRouter router = builder.Build();

        RouteMatch deep = router.Match("GET", "/a/b/c/x");
        RouteMatch shallow = router.Match("GET", "/a/b/x");

        Assert.Same(longPrefix, deep.Handler);
        Assert.Equal("c", "/a/b/c/x".Substring(deep.DatabaseStart, deep.DatabaseLength));
        Assert.Same(shortPrefix, shallow.Handler);
        Assert.Equal("b", "/a/b/x".Substring(shallow.DatabaseStart, shallow.DatabaseLength));
    }

    [Fact]
    public void Match_AllocatesNothing_WhenLookingUpRoutes()
    {
        FolioRouter router = BuildSample();
        string[] paths = ["/healthz", "/databases/Northwind/docs", "/DATABASES/northwind/DOCS/", "/missing/path", "/databases/x/indexes/stats"];
        int found = 0;
        foreach (string path in paths)
            found += (int)router.Match("GET", path).Kind;

        long before = GC.GetAllocatedBytesForCurrentThread();
        for (int i = 0; i < 1000; i++)
        {
            foreach (string path in paths)
                found += (int)router.Match("GET", path).Kind;
            found += (int)router.Match("DELETE", "/healthz").Kind;
        }

        long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        Assert.Equal(0, allocated);
        Assert.True(found > 0);
    }

    [Fact]
    public void Add_Throws_WhenSameMethodAndTemplateDeclaredTwice()
    {
        var builder = new RouteTableBuilder();
        builder.Add("GET", "/databases/{db}/docs", s_get);

        Assert.Throws<InvalidOperationException>(() => builder.Add("get", "/DATABASES/{db}/Docs", s_put));
    }

    [Fact]
    public void Add_Throws_WhenMethodIsNotRoutable()
    {
        Assert.Throws<ArgumentException>(() => new RouteTableBuilder().Add("BREW", "/coffee", s_get));
    }

    [Fact]
    public void RouteCount_CountsDeclaredRoutes_WhenBuilt()
    {
        Assert.Equal(8, BuildSample().RouteCount);
    }
}
