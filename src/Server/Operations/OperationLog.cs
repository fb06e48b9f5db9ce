namespace Folio.Server.Operations;

/// <summary>The log lines of tracked operations; placeholders become structured Serilog properties.</summary>
internal static partial class OperationLog
{
    /// <summary>An operation selected its documents and starts writing batches.</summary>
    [LoggerMessage(EventId = 5000, Level = LogLevel.Information, Message = "Operation {OperationId} ({Kind}) on {Database} selected {Total} documents")]
    public static partial void Started(ILogger logger, long operationId, OperationKind kind, string database, long total);

    /// <summary>An operation ended.</summary>
    [LoggerMessage(EventId = 5001, Level = LogLevel.Information, Message = "Operation {OperationId} ({Kind}) on {Database} ended {Status} after {Processed} of {Total} documents in {ElapsedMs} ms: {Error}")]
    public static partial void Ended(ILogger logger, long operationId, OperationKind kind, string database, OperationStatus status, long processed, long total, double elapsedMs, string? error);

    /// <summary>An operation failed for a reason that is not the client's (a storage failure, a bug).</summary>
    [LoggerMessage(EventId = 5002, Level = LogLevel.Error, Message = "Operation {OperationId} ({Kind}) on {Database} failed")]
    public static partial void Failed(ILogger logger, Exception exception, long operationId, OperationKind kind, string database);

    /// <summary>Recording an operation's progress in its file failed; the operation goes on.</summary>
    [LoggerMessage(EventId = 5003, Level = LogLevel.Warning, Message = "Recording the operations of {Database} failed")]
    public static partial void SaveFailed(ILogger logger, Exception exception, string database);
}
