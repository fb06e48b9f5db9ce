namespace Folio.Server.Backup;

/// <summary>The log lines of backups and restores; placeholders become structured Serilog properties.</summary>
internal static partial class BackupLog
{
    [LoggerMessage(EventId = 4000, Level = LogLevel.Information, Message = "Backup ({Kind}) of {Database} into {Directory} started")]
    public static partial void Started(ILogger logger, string database, string kind, string directory);

    [LoggerMessage(EventId = 4001, Level = LogLevel.Information, Message = "Backup of {Database}: {Documents} documents and {Deletes} deletes written in {ElapsedMs} ms")]
    public static partial void Progress(ILogger logger, string database, long documents, long deletes, double elapsedMs);

    [LoggerMessage(EventId = 4002, Level = LogLevel.Information, Message = "Backup ({Kind}) of {Database} wrote {File}: {Documents} documents, {Deletes} deletes, {Bytes} bytes in {ElapsedMs} ms")]
    public static partial void Completed(ILogger logger, string database, string kind, string file, long documents, long deletes, long bytes, double elapsedMs);

    [LoggerMessage(EventId = 4003, Level = LogLevel.Information, Message = "Restore of {Directory} into {Database} started: {Files} files")]
    public static partial void RestoreStarted(ILogger logger, string directory, string database, int files);

    [LoggerMessage(EventId = 4004, Level = LogLevel.Information, Message = "Restore into {Database}: {Documents} documents and {Deletes} deletes applied in {ElapsedMs} ms")]
    public static partial void RestoreProgress(ILogger logger, string database, long documents, long deletes, double elapsedMs);

    [LoggerMessage(EventId = 4005, Level = LogLevel.Information, Message = "Restore into {Database} completed: {Documents} documents, {Deletes} deletes, {Indexes} indexes, {Subscriptions} subscriptions in {ElapsedMs} ms")]
    public static partial void RestoreCompleted(ILogger logger, string database, long documents, long deletes, int indexes, int subscriptions, double elapsedMs);

    [LoggerMessage(EventId = 4006, Level = LogLevel.Warning, Message = "Restore of {Directory} into {Database} failed; the half-restored database was deleted")]
    public static partial void RestoreFailed(ILogger logger, Exception exception, string directory, string database);
}
