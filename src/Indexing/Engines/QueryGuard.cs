using System.Diagnostics;

namespace Folio.Indexing.Engines;

/// <summary>
/// What stops a query's walks: its time budget or its client going away (a cancellation), and the memory it may
/// allocate. Searchers call <see cref="Check"/> every thousand or so entries or terms they walk, never per entry.
/// Memory is counted as the bytes the query's thread allocates from <see cref="Start"/> on, garbage included: a
/// bound a query's allocations cannot pass, without a per-allocation count. A query searches on one thread from
/// <see cref="Start"/> to its answer (nothing in between awaits); a check from any other thread counts no memory.
/// </summary>
public sealed class QueryGuard
{
    private readonly long _memoryLimit;
    private long _baseline;
    private int _thread;
    private long _deadline;

    /// <summary>A guard that stops the walks when <paramref name="cancellation"/> is cancelled and, when
    /// <paramref name="memoryLimitBytes"/> is given, when the query has allocated more than that.</summary>
    public QueryGuard(CancellationToken cancellation, long? memoryLimitBytes = null)
    {
        if (memoryLimitBytes is < 1)
            throw new ArgumentOutOfRangeException(nameof(memoryLimitBytes), "A memory limit is at least one byte.");
        Cancellation = cancellation;
        _memoryLimit = memoryLimitBytes ?? 0;
    }

    /// <summary>A guard that never stops anything.</summary>
    public static QueryGuard None { get; } = new(CancellationToken.None);

    /// <summary>The cancellation it watches.</summary>
    public CancellationToken Cancellation { get; }

    /// <summary>The most the query may allocate, if limited.</summary>
    public long? MemoryLimitBytes => _memoryLimit > 0 ? _memoryLimit : null;

    /// <summary>Whether a check can ever stop a walk (false for <see cref="None"/>).</summary>
    public bool CanStop => Cancellation.CanBeCanceled || _memoryLimit > 0 || _deadline != 0;

    /// <summary>
    /// Also stops the walks once the clock passes <paramref name="deadlineTimestamp"/> (a <see cref="Stopwatch"/>
    /// timestamp; 0 for none), whether or not the timer that cancels the token has run yet.
    /// </summary>
    public void StopAt(long deadlineTimestamp) => _deadline = deadlineTimestamp;

    /// <summary>Starts counting memory on the calling thread, the one that searches.</summary>
    public void Start()
    {
        if (_memoryLimit == 0)
            return;
        _thread = Environment.CurrentManagedThreadId;
        _baseline = GC.GetAllocatedBytesForCurrentThread();
    }

    /// <summary>
    /// Throws an <see cref="OperationCanceledException"/> once cancelled or past its deadline, and a
    /// <see cref="QueryMemoryLimitException"/> once the query has allocated past its limit.
    /// </summary>
    public void Check()
    {
        Cancellation.ThrowIfCancellationRequested();
        if (_deadline != 0 && Stopwatch.GetTimestamp() >= _deadline)
            throw new OperationCanceledException("The query's time budget ran out.", Cancellation);
        if (_memoryLimit > 0 && _thread == Environment.CurrentManagedThreadId)
        {
            var allocated = GC.GetAllocatedBytesForCurrentThread() - _baseline;
            if (allocated > _memoryLimit)
                throw new QueryMemoryLimitException(_memoryLimit, allocated);
        }
    }
}
