using Folio.Server.Routing;

namespace Folio.Server.Monitoring;

/// <summary><c>GET /metrics</c>: the server's figures in Prometheus' text exposition format, for a Prometheus scrape.</summary>
public sealed class MetricsHandler
{
    private readonly PrometheusMetrics _metrics;

    /// <summary>Creates the handler.</summary>
    /// <param name="metrics">The registry to export.</param>
    public MetricsHandler(PrometheusMetrics metrics)
    {
        _metrics = metrics;
    }

    /// <summary>Answers the text format (version 0.0.4): request counts and latency histograms by route, per-database and per-index series, and the runtime's.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the answer is written.</returns>
    [FolioRoute("GET", "/metrics", Access = RouteAccess.Admin)]
    public async ValueTask Get(FolioRequest request)
    {
        request.Response.ContentType = "text/plain; version=0.0.4; charset=utf-8";
        await _metrics.Registry.CollectAndExportAsTextAsync(request.Response.Body, request.Aborted);
    }
}
