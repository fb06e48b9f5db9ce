using System.Diagnostics;
using Folio.Server.Http;
using Folio.Server.Logging;
using Folio.Server.Monitoring;
using Folio.Server.Security;

namespace Folio.Server.Routing;

/// <summary>
/// Kestrel's single terminal middleware: routes every request through <see cref="FolioRouter"/>, turns
/// routing misses and handler exceptions into problem+json answers, and records each request's metrics (the log
/// line is Serilog.AspNetCore's middleware's, around this one; see <see cref="RequestLogging"/>).
/// </summary>
internal sealed class RequestDispatcher
{
    /// <summary>Status logged when the client disconnected before an answer (nginx's convention).</summary>
    public const int ClientClosedRequest = 499;

    private readonly FolioRouter _router;
    private readonly ILogger _logger;
    private readonly ServerMetrics _metrics;
    private readonly PrometheusMetrics _prometheus;
    private readonly Authenticator _authenticator;
    private readonly Configuration.ServerOptions _options;
    private readonly Databases.DatabaseRegistry _databases;

    public RequestDispatcher(FolioRouter router, ILogger<RequestDispatcher> logger, ServerMetrics metrics, PrometheusMetrics prometheus, Authenticator authenticator, Configuration.ServerOptions options, Databases.DatabaseRegistry databases)
    {
        _databases = databases;
        _options = options;
        _authenticator = authenticator;
        _prometheus = prometheus;
        _router = router;
        _logger = logger;
        _metrics = metrics;
    }

    /// <summary>Serves one request; never throws, so one failing request cannot take the server down.</summary>
    /// <param name="context">The request's context.</param>
    /// <returns>Completes when the response is written.</returns>
    public async Task InvokeAsync(HttpContext context)
    {
        long started = Stopwatch.GetTimestamp();
        string method = context.Request.Method;
        string path = context.Request.Path.Value ?? string.Empty;
        RouteBucket? route = null;
        try
        {
            RouteMatch match = _router.Match(method, path);
            route = match.Bucket;
            RavenProtocol.RavenServerVersion.Announce(context);
            switch (match.Kind)
            {
                case RouteMatchKind.Found:
                    if (_authenticator.Required && _authenticator.Check(context, match.Access, path.AsSpan(match.DatabaseStart, match.DatabaseLength)) is { } refusal)
                    {
                        await Authenticator.WriteRefusalAsync(context.Response, refusal, context.RequestAborted);
                        break;
                    }

                    // An unloaded database opens here, where waiting for its last instance to close holds no thread;
                    // the handler's lease then finds it open. A loaded one costs a lookup.
                    if (match.DatabaseLength > 0)
                        await _databases.EnsureLoadedAsync(path.AsSpan(match.DatabaseStart, match.DatabaseLength));
                    await match.Handler!(new FolioRequest(context, path, match));
                    break;
                case RouteMatchKind.MethodNotAllowed:
                    context.Response.Headers.Allow = match.Bucket!.Allow;
                    await ProblemWriter.WriteAsync(context.Response, MethodNotAllowed(method, match.Bucket), context.RequestAborted);
                    break;
                default:
                    await ProblemWriter.WriteAsync(context.Response, NotFound(path), context.RequestAborted);
                    break;
            }
        }
        catch (Exception ex) when (context.RequestAborted.IsCancellationRequested && IsCancellation(ex))
        {
            // Nobody is left to read an answer; record why the request ended.
            if (!context.Response.HasStarted)
                context.Response.StatusCode = ClientClosedRequest;
        }
        catch (Exception ex)
        {
            await AnswerFailureAsync(context, method, path, ex);
        }

        long elapsed = Stopwatch.GetTimestamp() - started;
        int status = context.Response.StatusCode;
        bool question = !LongRunningRequest.IsMarked(context);
        _metrics.Record(elapsed, status, question);
        _prometheus.Record(route, method, status, elapsed / (double)Stopwatch.Frequency, question);
    }

    private async Task AnswerFailureAsync(HttpContext context, string method, string path, Exception exception)
    {
        Problem problem = ExceptionMapper.ToProblem(exception, context.TraceIdentifier);
        // Bytes a handler wrote but did not flush cannot be taken back (the pipe has no way to drop them), so a
        // problem written now would follow half an answer under the problem's status: cut the connection instead.
        if (context.Response.HasStarted || (context.Response.BodyWriter.CanGetUnflushedBytes && context.Response.BodyWriter.UnflushedBytes > 0))
        {
            // Headers are gone, so the status cannot change; cutting the connection at least tells the
            // client the body is incomplete instead of letting it look whole.
            RequestLog.FailedAfterStart(_logger, exception, method, path, context.TraceIdentifier);
            context.Abort();
            return;
        }

        if (ExceptionMapper.IsServerFault(problem))
            RequestLog.Failed(_logger, exception, method, path, context.TraceIdentifier);

        try
        {
            context.Response.Clear();
            RavenProtocol.RavenServerVersion.Announce(context);
            if (problem.Status == StatusCodes.Status413PayloadTooLarge)
                await RefusedBody.DrainAsync(context, _options.RequestBodyDrainBytes, _options.RequestBodyDrainTimeout);
            await ProblemWriter.WriteAsync(context.Response, problem, context.RequestAborted);
        }
        catch (OperationCanceledException) when (context.RequestAborted.IsCancellationRequested)
        {
            context.Response.StatusCode = ClientClosedRequest;
        }
    }

    /// <summary>Whether the request stopped because it was cancelled: a cancelled script says so in its own exception.</summary>
    private static bool IsCancellation(Exception exception) =>
        exception is OperationCanceledException or Indexing.Scripting.ScriptException { Failure: Indexing.Scripting.ScriptFailure.Canceled };

    private static Problem NotFound(string path) =>
        new(StatusCodes.Status404NotFound, "Route not found", $"No route matches '{path}'.", ProblemTypes.RouteNotFound);

    private static Problem MethodNotAllowed(string method, RouteBucket bucket) =>
        new(
            StatusCodes.Status405MethodNotAllowed,
            "Method not allowed",
            $"{bucket.Template} does not accept {method}; it accepts {bucket.Allow}.",
            ProblemTypes.MethodNotAllowed);
}
