using BenchmarkDotNet.Attributes;
using Folio.Server.Monitoring;
using Microsoft.AspNetCore.Http;

namespace Folio.Benchmarks.Monitoring;

/// <summary>
/// What the stats endpoint adds to every request: the long-running check on the request's features and one
/// record into HdrHistogram's recorder. Against a GET by id that takes tens of microseconds over HTTP, this must be
/// noise. Run: <c>dotnet run -c Release --project tests/Benchmarks -- --filter '*ServerMetricsBenchmarks*' --job short</c>.
/// </summary>
[MemoryDiagnoser]
public class ServerMetricsBenchmarks
{
    private ServerMetrics _metrics = null!;
    private DefaultHttpContext _context = null!;
    private long _ticks;

    [GlobalSetup]
    public void Setup()
    {
        _metrics = new ServerMetrics();
        _context = new DefaultHttpContext();
    }

    [GlobalCleanup]
    public void Cleanup() => _metrics.Dispose();

    /// <summary>One answered request, as the dispatcher records it.</summary>
    [Benchmark]
    public void RecordRequest()
    {
        _ticks = (_ticks + 7919) & 0xFFFFF;
        _metrics.Record(_ticks, 200, question: !LongRunningRequest.IsMarked(_context));
    }
}
