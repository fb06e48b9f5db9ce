namespace Folio.Server.Databases;

/// <summary>The log lines of database lifecycle events.</summary>
internal static partial class DatabaseLog
{
    /// <summary>A database was opened for a request (its first since start or since it was unloaded).</summary>
    [LoggerMessage(EventId = 2000, Level = LogLevel.Information, Message = "Loaded database {Database} from {Directory} in {ElapsedMs} ms")]
    public static partial void Loaded(ILogger logger, string database, string directory, double elapsedMs);

    /// <summary>A client created a database.</summary>
    [LoggerMessage(EventId = 2001, Level = LogLevel.Information, Message = "Created database {Database} in {Directory}")]
    public static partial void Created(ILogger logger, string database, string directory);

    /// <summary>A client deleted a database and its files.</summary>
    [LoggerMessage(EventId = 2002, Level = LogLevel.Information, Message = "Deleted database {Database} and its directory {Directory}")]
    public static partial void Deleted(ILogger logger, string database, string directory);

    /// <summary>A directory under Databases was not opened as a database.</summary>
    [LoggerMessage(EventId = 2003, Level = LogLevel.Warning, Message = "Ignoring directory {Directory}: {Reason}")]
    public static partial void SkippedDirectory(ILogger logger, string directory, string reason);

    /// <summary>The catalog was read at start; no database is opened until it is asked for.</summary>
    [LoggerMessage(EventId = 2004, Level = LogLevel.Information, Message = "Found {Count} databases in {Directory}")]
    public static partial void CatalogRead(ILogger logger, int count, string directory);

    /// <summary>A database with nothing to do was closed.</summary>
    [LoggerMessage(EventId = 2005, Level = LogLevel.Information, Message = "Unloading database {Database}: {Reason}")]
    public static partial void Unloading(ILogger logger, string database, string reason);

    /// <summary>Closing an unloaded database's files failed; it is opened again on its next request.</summary>
    [LoggerMessage(EventId = 2006, Level = LogLevel.Error, Message = "Unloading database {Database} failed")]
    public static partial void UnloadFailed(ILogger logger, Exception exception, string database);

    /// <summary>The idle check itself failed; it runs again at its next tick.</summary>
    [LoggerMessage(EventId = 2007, Level = LogLevel.Error, Message = "Checking for idle databases failed")]
    public static partial void IdleCheckFailed(ILogger logger, Exception exception);

    /// <summary>An administrator chose which collections of a database are compressed.</summary>
    [LoggerMessage(EventId = 2008, Level = LogLevel.Information, Message = "Documents compression of {Database} set: all collections {CompressAllCollections}, {CollectionCount} named")]
    public static partial void DocumentsCompressionSet(ILogger logger, string database, bool compressAllCollections, int collectionCount);

    /// <summary>The heap was collected and compacted after databases went quiet or unloaded; every thread waited for the pause.</summary>
    [LoggerMessage(EventId = 2009, Level = LogLevel.Information, Message = "Collected the heap after {After}: paused {PauseMs} ms ({ElapsedMs} ms in all), heap {HeapBeforeMb} MB before with garbage, {HeapAfterMb} MB after, {CommittedMb} MB committed")]
    public static partial void Collected(ILogger logger, string after, double pauseMs, double elapsedMs, long heapBeforeMb, long heapAfterMb, long committedMb);

    /// <summary>Which Zstd the server compresses documents with, and whether databases compress unless told otherwise.</summary>
    [LoggerMessage(EventId = 2010, Level = LogLevel.Information, Message = "Documents compression on by default: {Enabled}; Zstd from {ZstdImplementation}")]
    public static partial void CompressionChosen(ILogger logger, bool enabled, string zstdImplementation);

    /// <summary>The server weighed compacting a database gone quiet after writes, and whether it will.</summary>
    [LoggerMessage(EventId = 2011, Level = LogLevel.Information, Message = "Compaction of {Database} estimated to give back {ReclaimableKb} KB of {FileKb} KB ({Share:P1}: free {FreeKb} KB, leaf slack {SlackKb} KB, recompression {RecompressionKb} KB over {RecompressibleDocuments} documents); compacting: {Compacting}")]
    public static partial void CompactionEstimated(ILogger logger, string database, long reclaimableKb, long fileKb, double share, long freeKb, long slackKb, long recompressionKb, long recompressibleDocuments, bool compacting);

    /// <summary>Weighing a compaction failed; the server tries again after more writes.</summary>
    [LoggerMessage(EventId = 2012, Level = LogLevel.Error, Message = "Estimating a compaction of {Database} failed")]
    public static partial void CompactionEstimateFailed(ILogger logger, Exception exception, string database);

    /// <summary>An automatic compaction the estimate called for could not be started; the server tries again after more writes.</summary>
    [LoggerMessage(EventId = 2013, Level = LogLevel.Error, Message = "Starting an automatic compaction of {Database} failed")]
    public static partial void AutoCompactionFailed(ILogger logger, Exception exception, string database);

    /// <summary>
    /// Opening a database written by an older build moves its documents to the current format before it serves
    /// anything; this says how far that has got (at the start, then about once a second).
    /// </summary>
    [LoggerMessage(EventId = 2014, Level = LogLevel.Information, Message = "Moving the documents of {Database} from format {FromFormat} to {ToFormat} (resuming an interrupted move: {Resumed}): {RecordsMoved} of {Records} records after {ElapsedMs} ms")]
    public static partial void MovingFormat(ILogger logger, string database, int fromFormat, int toFormat, bool resumed, long recordsMoved, long records, double elapsedMs);

    /// <summary>The move of a database's documents to the current format is complete.</summary>
    [LoggerMessage(EventId = 2015, Level = LogLevel.Information, Message = "Moved the documents of {Database} from format {FromFormat} to {ToFormat} (resumed: {Resumed}): {RecordsMoved} records rewritten in {ElapsedMs} ms")]
    public static partial void MovedFormat(ILogger logger, string database, int fromFormat, int toFormat, bool resumed, long recordsMoved, double elapsedMs);
}
