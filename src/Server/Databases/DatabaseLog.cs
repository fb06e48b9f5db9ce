namespace Folio.Server.Databases;

/// <summary>The log lines of database lifecycle events.</summary>
internal static partial class DatabaseLog
{
    /// <summary>A database found on disk was opened at start.</summary>
    [LoggerMessage(EventId = 2000, Level = LogLevel.Information, Message = "Opened database {Database} in {Directory}")]
    public static partial void Opened(ILogger logger, string database, string directory);

    /// <summary>A client created a database.</summary>
    [LoggerMessage(EventId = 2001, Level = LogLevel.Information, Message = "Created database {Database} in {Directory}")]
    public static partial void Created(ILogger logger, string database, string directory);

    /// <summary>A client deleted a database and its files.</summary>
    [LoggerMessage(EventId = 2002, Level = LogLevel.Information, Message = "Deleted database {Database} and its directory {Directory}")]
    public static partial void Deleted(ILogger logger, string database, string directory);

    /// <summary>A directory under Databases was not opened as a database.</summary>
    [LoggerMessage(EventId = 2003, Level = LogLevel.Warning, Message = "Ignoring directory {Directory}: {Reason}")]
    public static partial void SkippedDirectory(ILogger logger, string directory, string reason);
}
