using BenchmarkDotNet.Attributes;
using Folio.Server.Configuration;
using Folio.Server.Databases;
using Folio.Server.Monitoring;
using Folio.Server.Routing;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Logging.Abstractions;

namespace Folio.Benchmarks.Monitoring;

/// <summary>
/// What the stats endpoint and /metrics add to every request: the long-running check on the request's features,
/// one record into HdrHistogram's recorder, and the Prometheus counter and histogram of the request's route,
/// method and status. Against a GET by id that takes tens of microseconds over HTTP, this must be noise.
/// Run: <c>dotnet run -c Release --project tests/Benchmarks -- --filter '*ServerMetricsBenchmarks*' --job short --inProcess</c>.
/// </summary>
[MemoryDiagnoser]
public class ServerMetricsBenchmarks
{
    private readonly string _dataDir = Path.Combine(Path.GetTempPath(), "folio-metrics-bench-" + Guid.NewGuid().ToString("N"));
    private ServerMetrics _metrics = null!;
    private PrometheusMetrics _prometheus = null!;
    private DatabaseRegistry _databases = null!;
    private DefaultHttpContext _context = null!;
    private RouteBucket _route = null!;
    private long _ticks;

    [GlobalSetup]
    public void Setup()
    {
        _metrics = new ServerMetrics();
        _databases = new DatabaseRegistry(new ServerOptions { DataDir = _dataDir }, NullLogger<DatabaseRegistry>.Instance);
        _prometheus = new PrometheusMetrics(_databases);
        _context = new DefaultHttpContext();
        var routes = new RouteTableBuilder();
        routes.Add("GET", "/databases/{db}/docs", _ => ValueTask.CompletedTask);
        _route = routes.Build().Match("GET", "/databases/shop/docs").Bucket!;
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _metrics.Dispose();
        _databases.DisposeAsync().AsTask().GetAwaiter().GetResult();
        Directory.Delete(_dataDir, recursive: true);
    }

    /// <summary>The stats endpoint's share: the feature check and the HdrHistogram record.</summary>
    [Benchmark]
    public void RecordStats()
    {
        _ticks = (_ticks + 7919) & 0xFFFFF;
        _metrics.Record(_ticks, 200, question: !LongRunningRequest.IsMarked(_context));
    }

    /// <summary>The /metrics share: the route's counter and histogram.</summary>
    [Benchmark]
    public void RecordPrometheus()
    {
        _ticks = (_ticks + 7919) & 0xFFFFF;
        _prometheus.Record(_route, "GET", 200, _ticks / 1e7, question: true);
    }
}
