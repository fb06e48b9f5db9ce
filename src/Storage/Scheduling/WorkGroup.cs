using System.Collections.Concurrent;

namespace Folio.Storage.Scheduling;

/// <summary>
/// Works that share one place in a <see cref="WorkScheduler"/>'s queue, such as a database's indexes: when every
/// thread is busy the group gets the turns a single work would, however many of its works are ready, and its ready
/// works take those turns in rotation. A database with ten indexes thus gets no more of the threads than one with a
/// single index. Works of different priorities keep their priorities: the group has a place per priority.
/// </summary>
public sealed class WorkGroup
{
    private readonly Lane[] _lanes;

    /// <summary>A group whose works run on <paramref name="scheduler"/>.</summary>
    public WorkGroup(WorkScheduler scheduler)
    {
        ArgumentNullException.ThrowIfNull(scheduler);
        Scheduler = scheduler;
        _lanes = [new(scheduler, WorkPriority.Low), new(scheduler, WorkPriority.Normal), new(scheduler, WorkPriority.High)];
    }

    /// <summary>The scheduler the group's works run on.</summary>
    public WorkScheduler Scheduler { get; }

    /// <summary>Queues <paramref name="work"/> behind the group's other ready works of its priority.</summary>
    internal void Enqueue(ScheduledWork work, bool byTakingThread) => _lanes[(int)work.Priority].Enqueue(work, byTakingThread);

    /// <summary>
    /// The group's ready works of one priority. The lane is in the scheduler's queue at most once, and only while it
    /// has a ready work, so a thread that takes it always finds one.
    /// </summary>
    private sealed class Lane(WorkScheduler scheduler, WorkPriority priority) : IQueuedTurn
    {
        private readonly ConcurrentQueue<IQueuedTurn> _ready = new();
        private int _queued;

        public void Enqueue(ScheduledWork work, bool byTakingThread)
        {
            _ready.Enqueue(work);
            if (Interlocked.Exchange(ref _queued, 1) == 0)
                scheduler.Enqueue(this, priority, byTakingThread);
        }

        public void Run()
        {
            _ready.TryDequeue(out var work);
            // Back in the queue before the turn runs: another thread may run the group's next work meanwhile, as it
            // would the next of ungrouped works, but only after every other group queued ahead had its turn.
            if (!_ready.IsEmpty)
                scheduler.Enqueue(this, priority, byTakingThread: false);
            else
            {
                // A full fence: a work queued between the look and the reset saw the lane queued and left it to this
                // thread, which must see that work once the reset is visible.
                Interlocked.Exchange(ref _queued, 0);
                if (!_ready.IsEmpty && Interlocked.CompareExchange(ref _queued, 1, 0) == 0)
                    scheduler.Enqueue(this, priority, byTakingThread: false);
            }
            work!.Run();
        }
    }
}
