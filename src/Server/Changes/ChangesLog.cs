namespace Folio.Server.Changes;

/// <summary>The changes feed's log messages.</summary>
internal static partial class ChangesLog
{
    [LoggerMessage(Level = LogLevel.Debug, Message = "Changes WebSocket on {Database} ended: {Reason}")]
    public static partial void SocketEnded(ILogger logger, string database, string reason);

    [LoggerMessage(Level = LogLevel.Information, Message = "Changes WebSocket on {Database} took longer than {SendTimeout} to accept a message; disconnected")]
    public static partial void SlowConsumer(ILogger logger, string database, TimeSpan sendTimeout);

    [LoggerMessage(Level = LogLevel.Information, Message = "Changes WebSocket on {Database} fell behind at etag {ResumeFrom} (newest {LastEtag}); skipped to the newest")]
    public static partial void FellBehind(ILogger logger, string database, long resumeFrom, long lastEtag);

    [LoggerMessage(Level = LogLevel.Warning, Message = "Changes WebSocket on {Database} was not woken by the writes after etag {Position} (newest {LastEtag}); found them by its periodic look")]
    public static partial void MissedWakeup(ILogger logger, string database, long position, long lastEtag);
}
