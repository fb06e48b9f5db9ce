using Serilog.AspNetCore;
using Serilog.Events;

namespace Folio.Server.Logging;

/// <summary>
/// The line each request logs, written by Serilog.AspNetCore's request logging middleware around the dispatcher.
/// It replaced a hand-written line once the package was available: measured side by side, the middleware cost the same
/// time per request and about the same garbage (docs/benchmarks.md, "The request log").
/// </summary>
internal static class RequestLogging
{
    /// <summary>
    /// The category request lines are logged under: the middleware names itself, so this is what a level override
    /// names to quiet or silence them.
    /// </summary>
    public const string SourceContext = "Serilog.AspNetCore.RequestLoggingMiddleware";

    /// <summary>The message template (what tests and log searches match on).</summary>
    public const string Template = "HTTP {RequestMethod} {RequestPath} responded {StatusCode} in {Elapsed:0.0000} ms";

    /// <summary>Sets the middleware's options: Folio's root logger, its template, its levels and the request's ids.</summary>
    /// <param name="options">The middleware's options.</param>
    /// <param name="logger">The server's root logger (the middleware otherwise writes to Serilog's static logger, which Folio never sets).</param>
    public static void Configure(RequestLoggingOptions options, Serilog.ILogger logger)
    {
        options.Logger = logger;
        options.MessageTemplate = Template;
        options.GetLevel = static (context, _, exception) =>
            exception is not null || context.Response.StatusCode >= StatusCodes.Status500InternalServerError
                ? LogEventLevel.Warning
                : LogEventLevel.Information;
        // RequestId is the trace id a 500 answer names, so a client's report leads to its line.
        options.EnrichDiagnosticContext = static (diagnostics, context) =>
        {
            diagnostics.Set("RequestId", context.TraceIdentifier);
            diagnostics.Set("ConnectionId", context.Connection.Id);
        };
    }
}
