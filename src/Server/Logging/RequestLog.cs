namespace Folio.Server.Logging;

/// <summary>
/// Failures of requests. The line every request produces is the request logging middleware's (see
/// <see cref="RequestLogging"/>); these are rare and go through the usual source-generated path.
/// </summary>
internal static partial class RequestLog
{
    /// <summary>A handler failed in a way the server did not expect; the client got a 500 naming the trace id.</summary>
    [LoggerMessage(EventId = 1001, Level = LogLevel.Error, Message = "Request {Method} {Path} failed (trace id {TraceId})")]
    public static partial void Failed(ILogger logger, Exception exception, string method, string path, string traceId);

    /// <summary>A handler failed after the response had started, so the connection is cut instead of answered.</summary>
    [LoggerMessage(EventId = 1002, Level = LogLevel.Error, Message = "Request {Method} {Path} failed after its response started (trace id {TraceId}); aborting the connection")]
    public static partial void FailedAfterStart(ILogger logger, Exception exception, string method, string path, string traceId);
}
