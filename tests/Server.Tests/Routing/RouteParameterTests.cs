using Folio.Server.Routing;
using Microsoft.AspNetCore.Http;

namespace Folio.Server.Tests.Routing;

/// <summary>Named parameters, catch-alls and the precedence between routes that fit the same path.</summary>
public class RouteParameterTests
{
    private static readonly FolioRequestHandler s_index = _ => ValueTask.CompletedTask;
    private static readonly FolioRequestHandler s_indexes = _ => ValueTask.CompletedTask;
    private static readonly FolioRequestHandler s_terms = _ => ValueTask.CompletedTask;
    private static readonly FolioRequestHandler s_backup = _ => ValueTask.CompletedTask;
    private static readonly FolioRequestHandler s_studio = _ => ValueTask.CompletedTask;
    private static readonly FolioRequestHandler s_assets = _ => ValueTask.CompletedTask;
    private static readonly FolioRequestHandler s_studioIndex = _ => ValueTask.CompletedTask;
    private static readonly FolioRequestHandler s_files = _ => ValueTask.CompletedTask;

    private static FolioRouter BuildSample()
    {
        var builder = new RouteTableBuilder();
        builder.Add("GET", "/databases/{db}/indexes", s_indexes);
        builder.Add("GET", "/databases/{db}/indexes/{name}", s_index);
        builder.Add("DELETE", "/databases/{db}/indexes/{name}", s_index);
        builder.Add("GET", "/databases/{db}/indexes/{name}/terms/{field}", s_terms);
        builder.Add("POST", "/admin/databases/{db}/backup", s_backup);
        builder.Add("GET", "/studio/{*path}", s_studio);
        builder.Add("GET", "/studio/assets/{*file}", s_assets);
        builder.Add("PUT", "/studio/index", s_studioIndex);
        builder.Add("GET", "/databases/{db}/files/{*path}", s_files);
        return builder.Build();
    }

    private static FolioRequest Routed(FolioRouter router, string method, string path)
    {
        RouteMatch match = router.Match(method, path);
        Assert.Equal(RouteMatchKind.Found, match.Kind);
        return new FolioRequest(new DefaultHttpContext(), path, match);
    }

    [Fact]
    public void RouteValue_ReturnsEachNamedSegment_WhenTemplateHasSeveralParameters()
    {
        FolioRequest request = Routed(BuildSample(), "GET", "/databases/Northwind/indexes/Orders.ByCompany/terms/Company");

        Assert.Equal("Northwind", request.DatabaseSpan.ToString());
        Assert.Equal("Northwind", request.RouteValue("db").ToString());
        Assert.Equal("Orders.ByCompany", request.RouteValue("name").ToString());
        Assert.Equal("Company", request.RouteValue("field").ToString());
    }

    [Fact]
    public void RouteValue_IgnoresCaseOfTheName_AndKeepsCaseOfTheValue()
    {
        FolioRequest request = Routed(BuildSample(), "DELETE", "/DATABASES/NorthWind/Indexes/Orders");

        Assert.Equal("Orders", request.RouteValue("NAME").ToString());
        Assert.Equal("NorthWind", request.Database);
    }

    [Fact]
    public void RouteValue_Throws_WhenTemplateDeclaresNoSuchParameter()
    {
        FolioRequest request = Routed(BuildSample(), "POST", "/admin/databases/Northwind/backup");

        var ex = Assert.Throws<ArgumentException>(() => request.RouteValue("name"));
        Assert.Contains("/admin/databases/{db}/backup", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Match_CapturesDatabase_WhenParameterFollowsALongerFixedPrefix()
    {
        RouteMatch match = BuildSample().Match("POST", "/admin/databases/Northwind/backup");

        Assert.Same(s_backup, match.Handler);
        Assert.Equal("Northwind", "/admin/databases/Northwind/backup".Substring(match.DatabaseStart, match.DatabaseLength));
    }

    [Theory]
    [InlineData("/studio/css/site.css", "css/site.css")]
    [InlineData("/studio/index.html", "index.html")]
    [InlineData("/studio/a/b/", "a/b")]
    [InlineData("/studio/", "")]
    [InlineData("/studio", "")]
    [InlineData("/STUDIO/Mixed/Case", "Mixed/Case")]
    public void RouteValue_ReturnsRestOfPath_WhenRouteIsCatchAll(string path, string expected)
    {
        FolioRequest request = Routed(BuildSample(), "GET", path);

        Assert.Equal(expected, request.RouteValue("path").ToString());
    }

    [Fact]
    public void RouteValue_ReturnsRestAfterOtherParameters_WhenCatchAllFollowsThem()
    {
        FolioRequest request = Routed(BuildSample(), "GET", "/databases/Northwind/files/2024/report.pdf");

        Assert.Equal("Northwind", request.DatabaseSpan.ToString());
        Assert.Equal("2024/report.pdf", request.RouteValue("path").ToString());
    }

    [Theory]
    [InlineData("/studio/assets/logo.svg", "file", "logo.svg")]
    [InlineData("/studio/assets", "file", "")]
    [InlineData("/studio/assetsx/logo.svg", "path", "assetsx/logo.svg")]
    public void Match_PrefersLongerFixedPrefix_WhenCatchAllsOverlap(string path, string parameter, string expected)
    {
        FolioRequest request = Routed(BuildSample(), "GET", path);

        Assert.Equal(expected, request.RouteValue(parameter).ToString());
    }

    [Fact]
    public void Match_PrefersFixedRoute_OverCatchAll()
    {
        RouteMatch match = BuildSample().Match("PUT", "/studio/index");

        Assert.Same(s_studioIndex, match.Handler);
    }

    [Fact]
    public void Match_AnswersMethodNotAllowedForMostSpecificPath_EvenWhenACatchAllAcceptsTheMethod()
    {
        RouteMatch match = BuildSample().Match("GET", "/studio/index");

        Assert.Equal(RouteMatchKind.MethodNotAllowed, match.Kind);
        Assert.Equal("PUT", match.Bucket!.Allow);
    }

    [Theory]
    [InlineData("/files/x", "one")]
    [InlineData("/files/x/y", "rest")]
    [InlineData("/files", "rest")]
    public void Match_PrefersParameterOverCatchAll_WhenBothFollowTheSamePrefix(string path, string expected)
    {
        FolioRequestHandler one = _ => ValueTask.CompletedTask;
        FolioRequestHandler rest = _ => ValueTask.CompletedTask;
        var builder = new RouteTableBuilder();
        builder.Add("GET", "/files/{id}", one);
        builder.Add("GET", "/files/{*path}", rest);

        RouteMatch match = builder.Build().Match("GET", path);

        Assert.Same(expected == "one" ? one : rest, match.Handler);
    }

    [Theory]
    [InlineData("/a/b/c", "fixedSecond")]
    [InlineData("/a/z/c", "fixedThird")]
    [InlineData("/a/b/c/d", "fallback")]
    public void Match_PrefersLeftmostFixedSegment_AndFallsBack_WhenRoutesOverlap(string path, string expected)
    {
        var handlers = new Dictionary<string, FolioRequestHandler>
        {
            ["fixedSecond"] = _ => ValueTask.CompletedTask,
            ["fixedThird"] = _ => ValueTask.CompletedTask,
            ["fallback"] = _ => ValueTask.CompletedTask,
        };
        var builder = new RouteTableBuilder();
        builder.Add("GET", "/a/b/{x}", handlers["fixedSecond"]);
        builder.Add("GET", "/a/{x}/c", handlers["fixedThird"]);
        builder.Add("GET", "/a/{x}/c/d", handlers["fallback"]);

        RouteMatch match = builder.Build().Match("GET", path);

        Assert.Same(handlers[expected], match.Handler);
    }

    [Theory]
    [InlineData(0, "/a/b/c/d", "deep", "d")]
    [InlineData(0, "/a/b/c", "deep", "")]
    [InlineData(0, "/a/b/x", "middle", "x")]
    [InlineData(0, "/a/x", "shallow", "x")]
    [InlineData(0, "/a/x/y", "any", "x/y")]
    [InlineData(0, "/A/B/X/", "middle", "X")]
    [InlineData(6, "/a/b/c/d", "deep", "d")]
    [InlineData(6, "/a/b/c", "deep", "")]
    [InlineData(6, "/a/b/x", "middle", "x")]
    [InlineData(6, "/a/x", "shallow", "x")]
    [InlineData(6, "/a/x/y", "any", "x/y")]
    [InlineData(6, "/A/B/X/", "middle", "X")]
    public void Match_AppliesTheSamePrecedence_WhetherANodeHasFewOrManyPrefixes(int otherPrefixes, string path, string expected, string value)
    {
        // Past a few prefixes a node looks them up at each '/' instead of comparing each in turn.
        var handlers = new Dictionary<string, FolioRequestHandler>
        {
            ["deep"] = _ => ValueTask.CompletedTask,
            ["middle"] = _ => ValueTask.CompletedTask,
            ["shallow"] = _ => ValueTask.CompletedTask,
            ["any"] = _ => ValueTask.CompletedTask,
        };
        var builder = new RouteTableBuilder();
        builder.Add("GET", "/a/b/c/{*v}", handlers["deep"]);
        builder.Add("GET", "/a/b/{v}", handlers["middle"]);
        builder.Add("GET", "/a/{v}", handlers["shallow"]);
        builder.Add("GET", "/a/{*v}", handlers["any"]);
        for (int i = 0; i < otherPrefixes; i++)
            builder.Add("GET", $"/other{i}/{{v}}", s_index);

        FolioRouter router = builder.Build();
        RouteMatch match = router.Match("GET", path);

        Assert.Same(handlers[expected], match.Handler);
        Assert.Equal(value, new FolioRequest(new DefaultHttpContext(), path, match).RouteValue("v").ToString());
        Assert.Equal(RouteMatchKind.NotFound, router.Match("GET", "/b/x").Kind);
    }

    [Fact]
    public void Match_LetsACatchAllTakeEverythingElse_WhenItIsAtTheRoot()
    {
        FolioRequestHandler fallback = _ => ValueTask.CompletedTask;
        var builder = new RouteTableBuilder();
        builder.Add("GET", "/healthz", s_index);
        builder.Add("GET", "/{*path}", fallback);
        FolioRouter router = builder.Build();

        Assert.Same(s_index, router.Match("GET", "/healthz/").Handler);
        Assert.Equal("", Routed(router, "GET", "/").RouteValue("path").ToString());
        Assert.Equal("", Routed(router, "GET", "").RouteValue("path").ToString());
        Assert.Equal("x/y", Routed(router, "GET", "/x/y").RouteValue("path").ToString());
    }

    [Theory]
    [InlineData("/databases/a%2Fb/indexes/Orders%2FTotals", "a%2Fb", "Orders%2FTotals")]
    [InlineData("/databases/my db/indexes/Orders by date", "my db", "Orders by date")]
    [InlineData("/databases/x/indexes/100%25", "x", "100%25")]
    public void Match_KeepsEachSegmentWhole_WhenPathHoldsDecodedOrEncodedCharacters(string path, string db, string name)
    {
        FolioRequest request = Routed(BuildSample(), "GET", path);

        Assert.Equal(db, request.DatabaseSpan.ToString());
        Assert.Equal(name, request.RouteValue("name").ToString());
    }

    [Theory]
    [InlineData("/databases/x/indexes/Orders/", "Orders")]
    [InlineData("/databases/x/indexes/Orders/terms/Company/", "Orders")]
    public void Match_IgnoresOneTrailingSlash_WhenRouteHasParameters(string path, string name)
    {
        Assert.Equal(name, Routed(BuildSample(), "GET", path).RouteValue("name").ToString());
    }

    [Theory]
    [InlineData("/databases/x/indexes//terms/Company")]
    [InlineData("/databases/x/indexes/Orders//")]
    [InlineData("/databases/x/indexes/Orders/terms")]
    [InlineData("/databases/x/indexes/Orders/terms/Company/extra")]
    [InlineData("/admin/databases//backup")]
    [InlineData("/admin/databases/x")]
    public void Match_ReturnsNotFound_WhenAParameterSegmentIsEmptyOrMissing(string path)
    {
        Assert.Equal(RouteMatchKind.NotFound, BuildSample().Match("GET", path).Kind);
    }

    [Fact]
    public void Match_AllocatesNothing_WhenRoutesHaveParametersAndCatchAlls()
    {
        FolioRouter router = BuildSample();
        string[] paths =
        [
            "/databases/Northwind/indexes/Orders/terms/Company",
            "/DATABASES/northwind/INDEXES/orders/",
            "/studio/css/site.css",
            "/studio",
            "/studio/assets/logo.svg",
            "/databases/x/files/a/b/c",
            "/databases/x/indexes/Orders/terms",
        ];
        var context = new DefaultHttpContext();
        int found = 0;
        foreach (string path in paths)
            found += Read(router.Match("GET", path), path);

        long before = GC.GetAllocatedBytesForCurrentThread();
        for (int i = 0; i < 1000; i++)
        {
            foreach (string path in paths)
                found += Read(router.Match("GET", path), path);
        }

        long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        Assert.Equal(0, allocated);
        Assert.True(found > 0);

        int Read(RouteMatch match, string path)
        {
            if (match.Kind != RouteMatchKind.Found)
                return 0;
            var request = new FolioRequest(context, path, match);
            string name = match.Bucket!.Template.EndsWith("{*path}", StringComparison.Ordinal) ? "path"
                : match.Bucket.Template.EndsWith("{*file}", StringComparison.Ordinal) ? "file" : "db";
            return request.RouteValue(name).Length + request.DatabaseSpan.Length;
        }
    }

    [Fact]
    public void Add_Throws_WhenTemplatesForOnePathNameParametersDifferently()
    {
        var builder = new RouteTableBuilder();
        builder.Add("GET", "/databases/{db}/indexes/{name}", s_index);

        var ex = Assert.Throws<InvalidOperationException>(() => builder.Add("PUT", "/databases/{db}/indexes/{index}", s_index));

        Assert.Contains("/databases/{db}/indexes/{name}", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Add_SharesOneBucket_WhenTemplatesDifferOnlyInCase()
    {
        var builder = new RouteTableBuilder();
        builder.Add("GET", "/databases/{db}/indexes/{name}", s_index);
        builder.Add("PUT", "/Databases/{DB}/Indexes/{Name}", s_indexes);

        RouteMatch match = builder.Build().Match("PATCH", "/databases/x/indexes/y");

        Assert.Equal("GET, PUT, HEAD", match.Bucket!.Allow);
    }
}
