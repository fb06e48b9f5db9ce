using BenchmarkDotNet.Attributes;
using Folio.Server.Routing;

namespace Folio.Benchmarks.Routing;

/// <summary>
/// Route lookup cost as the route table grows: the seeds measured a scanning router costing O(routes)
/// per request at about 400 routes, so Folio's lookup must stay flat across 10, 100 and 400 routes and
/// allocate nothing, for fixed, <c>{db}</c>, named-parameter and catch-all routes alike. Run: <c>dotnet run -c Release --project tests/Benchmarks -- --filter '*RouterBenchmarks*' --job short</c>.
/// </summary>
[MemoryDiagnoser]
public class RouterBenchmarks
{
    private FolioRouter _router = null!;

    [Params(10, 100, 400)]
    public int RouteCount { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        FolioRequestHandler handler = _ => ValueTask.CompletedTask;
        var builder = new RouteTableBuilder();
        builder.Add("GET", "/admin/databases", handler);
        builder.Add("GET", "/databases/{db}/docs", handler);
        builder.Add("PUT", "/databases/{db}/docs", handler);
        builder.Add("GET", "/databases/{db}/indexes/{name}", handler);
        builder.Add("GET", "/studio/{*path}", handler);

        // The rest mirrors the real API's shape: mostly per-database routes, some fixed admin ones.
        for (int i = 5; i < RouteCount; i++)
        {
            if (i % 4 == 0)
                builder.Add("GET", $"/admin/feature{i}/settings", handler);
            else
                builder.Add("GET", $"/databases/{{db}}/feature{i}/stats", handler);
        }

        _router = builder.Build();
        if (_router.RouteCount != RouteCount)
            throw new InvalidOperationException($"Expected {RouteCount} routes, built {_router.RouteCount}.");
    }

    [Benchmark]
    public RouteMatchKind FixedRoute() => _router.Match("GET", "/admin/databases").Kind;

    [Benchmark]
    public RouteMatchKind DatabaseRoute() => _router.Match("GET", "/databases/Northwind/docs").Kind;

    [Benchmark]
    public RouteMatchKind DatabaseRouteOtherCase() => _router.Match("GET", "/DATABASES/northwind/Docs").Kind;

    [Benchmark]
    public RouteMatchKind UnknownRoute() => _router.Match("GET", "/databases/Northwind/nothing-here").Kind;

    [Benchmark]
    public RouteMatchKind WrongMethod() => _router.Match("DELETE", "/databases/Northwind/docs").Kind;

    [Benchmark]
    public RouteMatchKind NamedParameterRoute() => _router.Match("GET", "/databases/Northwind/indexes/Orders.ByCompany").Kind;

    [Benchmark]
    public RouteMatchKind CatchAllRoute() => _router.Match("GET", "/studio/css/site.css").Kind;
}
