using Folio.Storage.Compaction;

namespace Folio.Server.Operations;

/// <summary>The log lines of compactions; placeholders become structured Serilog properties.</summary>
internal static partial class CompactionLog
{
    /// <summary>A compaction's progress, at each phase and every few seconds while copying.</summary>
    [LoggerMessage(EventId = 5100, Level = LogLevel.Information, Message = "Compaction {OperationId} of {Database}: {Phase} {Percent:F1}% at {MegabytesPerSecond:F1} MB/s, {CopiedBytes} bytes copied")]
    public static partial void Progress(ILogger logger, long operationId, string database, CompactionPhase phase, double percent, double megabytesPerSecond, long copiedBytes);

    /// <summary>A compaction swapped its new file in.</summary>
    [LoggerMessage(EventId = 5101, Level = LogLevel.Information, Message = "Compaction {OperationId} of {Database} completed: {SizeBefore} -> {SizeAfter} bytes ({ShareReturned:P1} returned) in {ElapsedMs} ms, writes paused {WritesPausedMs} ms, {CatchUpRounds} catch-up rounds")]
    public static partial void Completed(ILogger logger, long operationId, string database, long sizeBefore, long sizeAfter, double shareReturned, double elapsedMs, double writesPausedMs, int catchUpRounds);
}
