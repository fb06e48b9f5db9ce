using System.Diagnostics;

namespace Folio.Indexing.Querying;

/// <summary>
/// One query's time budget joined with its caller's cancellation (a client that went away): the token its
/// searcher's walks check. The clock starts at <see cref="Start"/>, once the index is found and caught up,
/// so waiting for non-stale results is bounded by its own timeout, not by this budget. The timer that cancels the
/// token runs on the thread pool, which on busy cores can fire many milliseconds late; the clock is therefore also read
/// against <see cref="Deadline"/> by the walks' checks and once the answer is ready, so a query past its budget is
/// stopped or refused whenever its timer gets to run.
/// </summary>
internal sealed class QueryBudget : IDisposable
{
    private readonly CancellationTokenSource _source;
    private readonly TimeSpan? _timeout;
    private readonly CancellationToken _caller;
    private long _deadline;

    public QueryBudget(TimeSpan? timeout, CancellationToken caller)
    {
        _timeout = timeout;
        _caller = caller;
        _source = CancellationTokenSource.CreateLinkedTokenSource(caller);
    }

    /// <summary>Cancelled when the budget runs out or the caller cancels.</summary>
    public CancellationToken Token => _source.Token;

    /// <summary>The <see cref="Stopwatch"/> timestamp the budget runs out at, once started; 0 without a budget.</summary>
    public long Deadline => _deadline;

    /// <summary>Starts the clock.</summary>
    public void Start()
    {
        if (_timeout is not { } timeout)
            return;
        _deadline = Stopwatch.GetTimestamp() + (long)(timeout.TotalSeconds * Stopwatch.Frequency);
        _source.CancelAfter(timeout);
    }

    /// <summary>Whether the budget ran out (by its timer or by the clock), rather than the caller cancelling.</summary>
    public bool RanOut =>
        _timeout is not null && !_caller.IsCancellationRequested
        && (_source.IsCancellationRequested || (_deadline != 0 && Stopwatch.GetTimestamp() >= _deadline));

    /// <summary>The exception that says the budget ran out.</summary>
    public QueryTimeoutException Exceeded() => new(_timeout ?? TimeSpan.Zero);

    public void Dispose() => _source.Dispose();
}
