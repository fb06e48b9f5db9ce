namespace Folio.Server.Subscriptions.Tcp;

/// <summary>The subscription sessions' log messages.</summary>
internal static partial class SubscriptionLog
{
    [LoggerMessage(Level = LogLevel.Information, Message = "Subscription {Subscription} on {Database}: worker {Address} connected at etag {Etag}")]
    public static partial void Connected(ILogger logger, string subscription, string database, string address, long etag);

    [LoggerMessage(Level = LogLevel.Information, Message = "Subscription {Subscription}: session ended ({Reason})")]
    public static partial void SessionEnded(ILogger logger, string subscription, string reason);

    [LoggerMessage(Level = LogLevel.Information, Message = "Subscription {Subscription} refused a worker: {Code} {Detail}")]
    public static partial void Refused(ILogger logger, string subscription, string code, string detail);
}
