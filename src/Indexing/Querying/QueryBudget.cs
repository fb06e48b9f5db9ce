namespace Folio.Indexing.Querying;

/// <summary>
/// One query's time budget joined with its caller's cancellation (a client that went away): the token its
/// searcher's walks check. The clock starts at <see cref="Start"/>, once the index is found and caught up,
/// so waiting for non-stale results is bounded by its own timeout, not by this budget.
/// </summary>
internal sealed class QueryBudget : IDisposable
{
    private readonly CancellationTokenSource _source;
    private readonly TimeSpan? _timeout;
    private readonly CancellationToken _caller;

    public QueryBudget(TimeSpan? timeout, CancellationToken caller)
    {
        _timeout = timeout;
        _caller = caller;
        _source = CancellationTokenSource.CreateLinkedTokenSource(caller);
    }

    /// <summary>Cancelled when the budget runs out or the caller cancels.</summary>
    public CancellationToken Token => _source.Token;

    /// <summary>Starts the clock.</summary>
    public void Start()
    {
        if (_timeout is { } timeout)
            _source.CancelAfter(timeout);
    }

    /// <summary>Whether a cancellation came from the budget running out rather than from the caller.</summary>
    public bool RanOut => _source.IsCancellationRequested && !_caller.IsCancellationRequested && _timeout is not null;

    /// <summary>The exception that says the budget ran out.</summary>
    public QueryTimeoutException Exceeded() => new(_timeout ?? TimeSpan.Zero);

    public void Dispose() => _source.Dispose();
}
