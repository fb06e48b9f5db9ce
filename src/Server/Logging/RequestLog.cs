namespace Folio.Server.Logging;

/// <summary>
/// Folio's request log. Source-generated so the per-request line does not box its arguments or parse
/// its template; the placeholders become structured properties in Serilog.
/// </summary>
internal static partial class RequestLog
{
    /// <summary>The one line each request produces, written by the dispatcher after the response status is final.</summary>
    [LoggerMessage(EventId = 1000, Message = "HTTP {Method} {Path} responded {StatusCode} in {ElapsedMs} ms")]
    public static partial void Completed(ILogger logger, LogLevel level, string method, string path, int statusCode, double elapsedMs);

    /// <summary>A handler failed in a way the server did not expect; the client got a 500 naming the trace id.</summary>
    [LoggerMessage(EventId = 1001, Level = LogLevel.Error, Message = "Request {Method} {Path} failed (trace id {TraceId})")]
    public static partial void Failed(ILogger logger, Exception exception, string method, string path, string traceId);

    /// <summary>A handler failed after the response had started, so the connection is cut instead of answered.</summary>
    [LoggerMessage(EventId = 1002, Level = LogLevel.Error, Message = "Request {Method} {Path} failed after its response started (trace id {TraceId}); aborting the connection")]
    public static partial void FailedAfterStart(ILogger logger, Exception exception, string method, string path, string traceId);
}
