namespace Folio.Server.Operations;

/// <summary>
/// One tracked operation of a database and its progress. The runner updates it between batches; readers (the state
/// route, the registry's file) take a consistent copy through <see cref="Snapshot"/>.
/// </summary>
public sealed class DatabaseOperation
{
    private readonly Lock _gate = new();
    private readonly CancellationTokenSource _kill = new();
    private OperationStatus _status;
    private long _processed;
    private long _total;
    private string? _error;
    private string? _errorType;
    private DateTime? _completedAt;

    private readonly Action<OperationState>? _changed;

    internal DatabaseOperation(long id, OperationKind kind, string query, DateTime startedAt, OperationStatus status = OperationStatus.InProgress, Action<OperationState>? changed = null)
    {
        _changed = changed;
        Id = id;
        Kind = kind;
        Query = query;
        StartedAt = startedAt;
        _status = status;
    }

    /// <summary>The id clients ask about (unique within the database, also across restarts).</summary>
    public long Id { get; }

    /// <summary>What the operation does.</summary>
    public OperationKind Kind { get; }

    /// <summary>The query as the client sent it.</summary>
    public string Query { get; }

    /// <summary>When it started (UTC).</summary>
    public DateTime StartedAt { get; }

    /// <summary>True until the operation ends (or is found interrupted after a restart).</summary>
    internal bool IsRunning
    {
        get
        {
            lock (_gate)
                return _status == OperationStatus.InProgress;
        }
    }

    /// <summary>Cancelled by <c>operations/kill</c>.</summary>
    internal CancellationToken Killed => _kill.Token;

    /// <summary>A consistent copy of the progress.</summary>
    public OperationState Snapshot()
    {
        lock (_gate)
            return new OperationState(Id, Kind, Query, _status, _processed, _total, _error, StartedAt, _completedAt, _errorType);
    }

    /// <summary>Asks a running operation to stop after its current batch; false when it had already ended.</summary>
    public bool Kill()
    {
        lock (_gate)
        {
            if (_status != OperationStatus.InProgress)
                return false;
        }
        _kill.Cancel();
        return true;
    }

    internal void Restore(long processed, long total, string? error, DateTime? completedAt)
    {
        lock (_gate)
        {
            _processed = processed;
            _total = total;
            _error = error;
            _completedAt = completedAt;
        }
    }

    internal void SetTotal(long total)
    {
        lock (_gate)
            _total = total;
    }

    internal void SetProcessed(long processed)
    {
        lock (_gate)
            _processed = processed;
    }

    internal void AddProcessed(long count)
    {
        lock (_gate)
            _processed += count;
    }

    internal void End(OperationStatus status, string? error, string? errorType = null)
    {
        lock (_gate)
        {
            if (_status != OperationStatus.InProgress)
                return;
            _status = status;
            _error = error;
            _errorType = errorType;
            _completedAt = DateTime.UtcNow;
        }
        _changed?.Invoke(Snapshot());
    }
}

/// <summary>The progress of an operation at one moment: what <c>operations/state</c> answers.</summary>
/// <param name="Id">The operation's id.</param>
/// <param name="Kind">What it does.</param>
/// <param name="Query">The query as sent.</param>
/// <param name="Status">Where it stands.</param>
/// <param name="Processed">Documents whose batch was committed (patched, deleted, or found gone and skipped).</param>
/// <param name="Total">Documents the query selected when the operation started.</param>
/// <param name="Error">Why it faulted or was interrupted, or null.</param>
/// <param name="StartedAt">When it started (UTC).</param>
/// <param name="CompletedAt">When it ended (UTC), or null while running.</param>
/// <param name="ErrorType">The problem type of a fault (<c>ProblemTypes</c>), while the server runs; not recorded in the file.</param>
public sealed record OperationState(long Id, OperationKind Kind, string Query, OperationStatus Status, long Processed, long Total, string? Error, DateTime StartedAt, DateTime? CompletedAt, string? ErrorType = null);
