namespace Folio.Server.BulkInsert;

/// <summary>The log lines of bulk inserts; placeholders become structured Serilog properties.</summary>
internal static partial class BulkInsertLog
{
    /// <summary>A bulk insert began reading its body.</summary>
    [LoggerMessage(EventId = 3000, Level = LogLevel.Information, Message = "Bulk insert {BulkInsertId} into {Database} started (content encoding {ContentEncoding})")]
    public static partial void Started(ILogger logger, long bulkInsertId, string database, string contentEncoding);

    /// <summary>A long bulk insert's periodic progress.</summary>
    [LoggerMessage(EventId = 3001, Level = LogLevel.Information, Message = "Bulk insert {BulkInsertId} into {Database}: {Documents} documents, {MegaBytes} MB in {Batches} batches, {DocumentsPerSecond} docs/s, {MegaBytesPerSecond} MB/s")]
    public static partial void Progress(ILogger logger, long bulkInsertId, string database, long documents, double megaBytes, long batches, double documentsPerSecond, double megaBytesPerSecond);

    /// <summary>A bulk insert stored its whole stream.</summary>
    [LoggerMessage(EventId = 3002, Level = LogLevel.Information, Message = "Bulk insert {BulkInsertId} into {Database} stored {Documents} documents ({MegaBytes} MB) in {Batches} batches in {ElapsedMs} ms, {DocumentsPerSecond} docs/s; parse {ParseMs} ms, waiting for the network {NetworkWaitMs} ms, waiting for commits {CommitWaitMs} ms")]
    public static partial void Completed(ILogger logger, long bulkInsertId, string database, long documents, double megaBytes, long batches, double elapsedMs, double documentsPerSecond, double parseMs, double networkWaitMs, double commitWaitMs);

    /// <summary>A bulk insert stopped early; its committed batches stay.</summary>
    [LoggerMessage(EventId = 3003, Level = LogLevel.Warning, Message = "Bulk insert {BulkInsertId} into {Database} stopped after {Documents} documents in {Batches} batches: {Reason}")]
    public static partial void Stopped(ILogger logger, long bulkInsertId, string database, long documents, long batches, string reason);

    /// <summary>After a bulk insert stopped, committing what it had read failed too.</summary>
    [LoggerMessage(EventId = 3004, Level = LogLevel.Warning, Message = "Bulk insert {BulkInsertId} into {Database}: committing the batch read before it stopped failed")]
    public static partial void SettleFailed(ILogger logger, Exception exception, long bulkInsertId, string database);
}
