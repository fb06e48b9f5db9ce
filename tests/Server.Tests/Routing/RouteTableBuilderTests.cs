using Folio.Server.Routing;

namespace Folio.Server.Tests.Routing;

public class RouteTableBuilderTests
{
    private sealed class Declared
    {
        [FolioRoute("GET", "/one")]
        [FolioRoute("DELETE", "/databases/{db}/one")]
        public ValueTask One(FolioRequest request) => ValueTask.CompletedTask;

        public ValueTask NotARoute(FolioRequest request) => ValueTask.CompletedTask;
    }

    private sealed class WrongShape
    {
        [FolioRoute("GET", "/wrong")]
        public Task Wrong(FolioRequest request) => Task.CompletedTask;
    }

    private sealed class MalformedTemplate
    {
        [FolioRoute("GET", "/files/{*path}/meta")]
        public ValueTask Serve(FolioRequest request) => ValueTask.CompletedTask;
    }

    private sealed class NoRoutes
    {
        public ValueTask Nothing(FolioRequest request) => ValueTask.CompletedTask;
    }

    [Fact]
    public void AddHandler_RegistersEveryDeclaredRoute_WhenMethodCarriesSeveral()
    {
        var builder = new RouteTableBuilder();
        builder.AddHandler(new Declared());
        FolioRouter router = builder.Build();

        Assert.Equal(2, router.RouteCount);
        Assert.Equal(RouteMatchKind.Found, router.Match("GET", "/one").Kind);
        Assert.Equal(RouteMatchKind.Found, router.Match("DELETE", "/databases/x/one").Kind);
    }

    [Fact]
    public void AddHandler_Throws_WhenRouteMethodHasWrongSignature()
    {
        var ex = Assert.Throws<InvalidOperationException>(() => new RouteTableBuilder().AddHandler(new WrongShape()));

        Assert.Contains("WrongShape.Wrong", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void AddHandler_Throws_WhenHandlerDeclaresNoRoute()
    {
        Assert.Throws<InvalidOperationException>(() => new RouteTableBuilder().AddHandler(new NoRoutes()));
    }

    [Fact]
    public void AddHandler_ThrowsNamingMethodTemplateAndReason_WhenTemplateIsMalformed()
    {
        var ex = Assert.Throws<InvalidOperationException>(() => new RouteTableBuilder().AddHandler(new MalformedTemplate()));

        Assert.Contains("MalformedTemplate.Serve", ex.Message, StringComparison.Ordinal);
        Assert.Contains("'/files/{*path}/meta'", ex.Message, StringComparison.Ordinal);
        Assert.Contains("must be the last segment", ex.Message, StringComparison.Ordinal);
    }
}
