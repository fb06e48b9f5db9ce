namespace Folio.Server.Logging;

/// <summary>The server's lifecycle log lines.</summary>
internal static partial class HostingLog
{
    /// <summary>The server bound its address; with port 0 this is where the chosen port shows.</summary>
    [LoggerMessage(EventId = 1, Level = LogLevel.Information, Message = "Folio listening on {Address} with data in {DataDir}")]
    public static partial void Listening(ILogger logger, string address, string dataDir);

    /// <summary>The subscriptions' TCP listener bound its address.</summary>
    [LoggerMessage(EventId = 6, Level = LogLevel.Information, Message = "Folio subscriptions listening on tcp://{TcpEndPoint}")]
    public static partial void ListeningTcp(ILogger logger, string tcpEndPoint);

    /// <summary>The limits in force, so an operator can tell why a request was refused.</summary>
    [LoggerMessage(EventId = 2, Level = LogLevel.Information, Message = "Limits: request body {MaxRequestBodyBytes} bytes, headers {MaxHeaderBytes} bytes in at most {MaxHeaderCount}, minimum data rate {MinRequestBytesPerSecond} B/s in and {MinResponseBytesPerSecond} B/s out after {GracePeriod}; shutdown timeout {ShutdownTimeout}")]
    public static partial void Limits(ILogger logger, long maxRequestBodyBytes, int maxHeaderBytes, int maxHeaderCount, double minRequestBytesPerSecond, double minResponseBytesPerSecond, TimeSpan gracePeriod, TimeSpan shutdownTimeout);

    /// <summary>A shutdown signal arrived; requests in flight get the timeout to finish.</summary>
    [LoggerMessage(EventId = 3, Level = LogLevel.Information, Message = "Folio stopping; requests in flight have {ShutdownTimeout} to finish")]
    public static partial void Stopping(ILogger logger, TimeSpan shutdownTimeout);

    /// <summary>The server stopped listening and finished its requests.</summary>
    [LoggerMessage(EventId = 4, Level = LogLevel.Information, Message = "Folio stopped")]
    public static partial void Stopped(ILogger logger);

    /// <summary>Kestrel could not start, typically because the address is taken.</summary>
    [LoggerMessage(EventId = 5, Level = LogLevel.Critical, Message = "Folio failed to start on {ServerUrl}")]
    public static partial void StartFailed(ILogger logger, Exception exception, string serverUrl);
}
