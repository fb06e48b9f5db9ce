using System.Diagnostics;
using System.IO.Pipelines;
using Folio.Storage.Documents;

namespace Folio.Server.BulkInsert;

/// <summary>
/// One bulk insert's pipeline. It parses commands into a batch and hands the batch to the transaction
/// merger when the next read would wait on the network (and the previous batch is done), or when the
/// batch is full. While a batch commits, the next one fills; a full batch waits for the one in flight,
/// so a stream never holds more than two batches and a client faster than the disk is slowed by TCP
/// itself: the server stops reading, the request pipe fills, the client's window closes.
/// </summary>
internal sealed class BulkInsertRun : IDisposable
{
    private readonly DocumentStore _store;
    private readonly BulkInsertProgress _progress;
    private readonly BulkInsertOptions _options;
    private readonly ILogger _logger;
    private readonly BulkInsertParser _parser;
    private List<DocumentCommand> _filling = [];
    private List<DocumentCommand> _inFlight = [];
    private long _fillingBytes;
    private Task<IReadOnlyList<WriteResult?>>? _commit;
    private long _inFlightThrough;
    private long _nextProgressLog;
    private long _parseTicks;
    private long _networkWaitTicks;
    private long _commitWaitTicks;

    public BulkInsertRun(DocumentStore store, BulkInsertProgress progress, BulkInsertOptions options, int maxDepth, long maxDocumentBytes, ILogger logger, bool completeAtArrayEnd = false)
    {
        _store = store;
        _progress = progress;
        _options = options;
        _logger = logger;
        _parser = new BulkInsertParser(maxDepth, maxDocumentBytes) { CompleteAtArrayEnd = completeAtArrayEnd };
    }

    /// <summary>Commands read whole so far (stored or about to be).</summary>
    public long CommandsRead => _parser.Commands;

    /// <summary>
    /// Reads the body to its end and stores every command. On a malformed command the commands before it
    /// are stored and the <see cref="BulkInsertCommandException"/> propagates; on any other failure (the
    /// client went away, the read was cancelled) the batch in flight completes and the partial one is dropped.
    /// </summary>
    public async Task<BulkInsertSummary> RunAsync(PipeReader body, CancellationToken cancellationToken)
    {
        long started = Stopwatch.GetTimestamp();
        _nextProgressLog = started + (long)(_options.ProgressInterval.TotalSeconds * Stopwatch.Frequency);
        Task<ReadResult>? pendingRead = null;
        try
        {
            bool done = false;
            while (!done)
            {
                while (true)
                {
                    if (_commit is { IsCompleted: true })
                        await CompleteCommitAsync().ConfigureAwait(false);

                    ReadResult result;
                    if (pendingRead is null && body.TryRead(out result))
                    {
                        // Buffered already: parse on.
                    }
                    else
                    {
                        if (pendingRead is null)
                        {
                            // The next read would wait on the network: the batch goes now, unless the previous
                            // one still commits, in which case it keeps filling while that finishes.
                            if (_filling.Count > 0 && _commit is null)
                                break;
                            pendingRead = body.ReadAsync(cancellationToken).AsTask();
                        }

                        long waitStarted = Stopwatch.GetTimestamp();
                        if (_commit is not null && !pendingRead.IsCompleted)
                        {
                            await Task.WhenAny(pendingRead, _commit).ConfigureAwait(false);
                            if (!pendingRead.IsCompleted)
                            {
                                _networkWaitTicks += Stopwatch.GetTimestamp() - waitStarted;
                                await CompleteCommitAsync().ConfigureAwait(false);
                                if (_filling.Count > 0)
                                    break;
                                waitStarted = Stopwatch.GetTimestamp();
                            }
                        }

                        result = await pendingRead.ConfigureAwait(false);
                        pendingRead = null;
                        _networkWaitTicks += Stopwatch.GetTimestamp() - waitStarted;
                    }

                    if (result.IsCanceled)
                        throw new OperationCanceledException("The body read was cancelled.");

                    long parseStarted = Stopwatch.GetTimestamp();
                    BulkInsertParseStatus status;
                    try
                    {
                        status = _parser.Parse(
                            result.Buffer,
                            result.IsCompleted,
                            _filling,
                            ref _fillingBytes,
                            _options.MaxBatchCommands,
                            _options.MaxBatchBytes,
                            out SequencePosition consumed,
                            out SequencePosition examined);
                        body.AdvanceTo(consumed, examined);
                    }
                    catch (BulkInsertCommandException)
                    {
                        // Release the read, so that the caller can still drain the rest of the body.
                        body.AdvanceTo(result.Buffer.End);
                        throw;
                    }
                    finally
                    {
                        _parseTicks += Stopwatch.GetTimestamp() - parseStarted;
                    }

                    if (status == BulkInsertParseStatus.Completed)
                    {
                        done = true;
                        break;
                    }

                    if (status == BulkInsertParseStatus.BatchFull)
                        break;
                }

                await SubmitAsync().ConfigureAwait(false);
            }

            if (_commit is not null)
                await CompleteCommitAsync().ConfigureAwait(false);
        }
        catch (Exception e)
        {
            if (pendingRead is not null)
                ObserveLater(pendingRead);
            await SettleAsync(storePrefix: e is BulkInsertCommandException).ConfigureAwait(false);
            throw;
        }

        return new BulkInsertSummary(
            _progress.Documents,
            _progress.Bytes,
            _progress.LastEtag,
            _progress.Batches,
            Stopwatch.GetElapsedTime(started),
            Ticks(_parseTicks),
            Ticks(_networkWaitTicks),
            Ticks(_commitWaitTicks));
    }

    /// <summary>Logs the progress line: documents, MB and rates so far.</summary>
    public void LogProgress()
    {
        double seconds = Math.Max(_progress.Elapsed.TotalSeconds, 1e-3);
        double megaBytes = _progress.Bytes / (1024.0 * 1024.0);
        BulkInsertLog.Progress(
            _logger,
            _progress.Id,
            _progress.Database,
            _progress.Documents,
            Math.Round(megaBytes, 1),
            _progress.Batches,
            Math.Round(_progress.Documents / seconds),
            Math.Round(megaBytes / seconds, 1));
    }

    public void Dispose() => _parser.Dispose();

    private static TimeSpan Ticks(long stopwatchTicks) => TimeSpan.FromSeconds(stopwatchTicks / (double)Stopwatch.Frequency);

    private static void ObserveLater(Task<ReadResult> read) =>
        read.ContinueWith(static t => _ = t.Exception, CancellationToken.None, TaskContinuationOptions.OnlyOnFaulted | TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default);

    /// <summary>Waits for the batch in flight (this is where a fast client meets the disk's pace), then sends the filled one.</summary>
    private async Task SubmitAsync()
    {
        if (_commit is not null)
            await CompleteCommitAsync().ConfigureAwait(false);
        if (_filling.Count == 0)
            return;

        (_filling, _inFlight) = (_inFlight, _filling);
        _filling.Clear();
        _fillingBytes = 0;
        _inFlightThrough = _parser.LastCommandEnd;
        _commit = _store.BatchAsync(_inFlight);
    }

    private async Task CompleteCommitAsync()
    {
        Task<IReadOnlyList<WriteResult?>> commit = _commit!;
        long waitStarted = Stopwatch.GetTimestamp();
        IReadOnlyList<WriteResult?> results = await commit.ConfigureAwait(false);
        _commitWaitTicks += Stopwatch.GetTimestamp() - waitStarted;
        _commit = null;
        _progress.BatchCommitted(_inFlight.Count, _inFlightThrough, results[^1]!.Etag);
        if (Stopwatch.GetTimestamp() >= _nextProgressLog)
        {
            LogProgress();
            _nextProgressLog = Stopwatch.GetTimestamp() + (long)(_options.ProgressInterval.TotalSeconds * Stopwatch.Frequency);
        }
    }

    /// <summary>
    /// After a failure: lets the batch in flight finish (it was whole, so it stays) and, when the stream
    /// stopped at a malformed command, stores the whole commands read before it, so everything before the
    /// reported index is stored and nothing after it.
    /// </summary>
    private async Task SettleAsync(bool storePrefix)
    {
        try
        {
            if (_commit is not null)
                await CompleteCommitAsync().ConfigureAwait(false);
            if (storePrefix && _filling.Count > 0)
            {
                await SubmitAsync().ConfigureAwait(false);
                await CompleteCommitAsync().ConfigureAwait(false);
            }
        }
        catch (Exception e) when (e is not OutOfMemoryException)
        {
            // The original failure is the one the client hears about; this one goes to the log.
            _commit = null;
            BulkInsertLog.SettleFailed(_logger, e, _progress.Id, _progress.Database);
        }

        _filling.Clear();
    }
}
