namespace Folio.Storage.Scheduling;

/// <summary>
/// A stream of background work (an index's batches, a database's group commits) that runs in turns on a
/// <see cref="WorkScheduler"/>'s threads instead of on a thread of its own. Whoever learns there is work calls
/// <see cref="Schedule"/>; a turn does a bounded amount of it and says whether more is ready, in which case the work
/// goes to the back of the queue so that every other ready stream gets a turn first. At most one turn of a stream
/// runs at a time, so a stream's own state needs no locking between turns. Works of a <see cref="WorkGroup"/> share
/// the group's place in the queue.
/// </summary>
public abstract class ScheduledWork : IQueuedTurn
{
    private const int Idle = 0;
    private const int Queued = 1;
    private const int Running = 2;
    private const int RunningAndScheduled = 3;

    private readonly WorkScheduler _scheduler;
    private readonly WorkGroup? _group;
    // Held for the length of a turn: stopping takes it to wait for the turn in progress.
    private readonly Lock _turn = new();
    private int _state;
    private volatile bool _stopped;

    /// <summary>Work whose turns <paramref name="scheduler"/> runs.</summary>
    protected ScheduledWork(WorkScheduler scheduler)
    {
        ArgumentNullException.ThrowIfNull(scheduler);
        _scheduler = scheduler;
    }

    /// <summary>
    /// Work whose turns <paramref name="scheduler"/> runs, sharing <paramref name="group"/>'s place in its queue when
    /// there is a group (which must be of that scheduler).
    /// </summary>
    protected ScheduledWork(WorkScheduler scheduler, WorkGroup? group)
        : this(scheduler)
    {
        if (group is not null && group.Scheduler != scheduler)
            throw new ArgumentException("The group's works run on another scheduler.", nameof(group));
        _group = group;
    }

    /// <summary>How large a share of the threads the work gets when they are all busy.</summary>
    public WorkPriority Priority { get; set; } = WorkPriority.Normal;

    /// <summary>Whether <see cref="StopTurns"/> was called.</summary>
    protected bool IsStopped => _stopped;

    /// <summary>
    /// Asks for a turn: queues the work unless it is queued already; during a turn, queues it again once the turn
    /// ends, so a signal that arrives while a turn decides it has nothing left to do is never lost. Cheap and
    /// thread-safe; does nothing once the work is stopped.
    /// </summary>
    public void Schedule()
    {
        while (!_stopped)
        {
            var state = Volatile.Read(ref _state);
            switch (state)
            {
                case Idle:
                    if (Interlocked.CompareExchange(ref _state, Queued, Idle) == Idle)
                    {
                        Enqueue(byTakingThread: false);
                        return;
                    }
                    break;
                case Running:
                    if (Interlocked.CompareExchange(ref _state, RunningAndScheduled, Running) == Running)
                        return;
                    break;
                default:
                    return;
            }
        }
    }

    /// <summary>
    /// Does a bounded amount of the work (a batch, a transaction) on a scheduler thread; true when more is ready at
    /// once. When it answers false the work waits for the next <see cref="Schedule"/>. It may block on I/O (a sync),
    /// which is why the scheduler's threads are its own; it must not throw.
    /// </summary>
    protected abstract bool RunTurn();

    /// <summary>
    /// Runs no more turns: waits for the turn in progress, if any, to end (unless called from that turn). A
    /// <see cref="Schedule"/> after it does nothing.
    /// </summary>
    protected void StopTurns()
    {
        _stopped = true;
        lock (_turn)
        {
            // Nothing to do inside: taking the lock is waiting for the turn that holds it.
        }
    }

    /// <summary>Runs one turn on the calling scheduler thread and queues the work again if it asks to be.</summary>
    void IQueuedTurn.Run()
    {
        Volatile.Write(ref _state, Running);
        bool more;
        lock (_turn)
            more = !_stopped && RunTurn();
        if (more || Interlocked.CompareExchange(ref _state, Idle, Running) != Running)
        {
            Volatile.Write(ref _state, Queued);
            Enqueue(byTakingThread: true);
        }
    }

    private void Enqueue(bool byTakingThread)
    {
        if (_group is null)
            _scheduler.Enqueue(this, Priority, byTakingThread);
        else
            _group.Enqueue(this, byTakingThread);
    }
}
