using System.Collections.Concurrent;
using System.Runtime.CompilerServices;

namespace Folio.Storage.Scheduling;

/// <summary>
/// A small set of threads shared by every database and index in the process, running <see cref="ScheduledWork"/>
/// in turns: ready work queues first in, first out by priority, each turn is bounded, and work that has more goes to
/// the back, so a database bulk-inserting or an index rebuilding holds one thread for one turn at a time while the
/// others serve everyone else. The thread count depends on the cores and the settings, never on how much work
/// there is. The threads are the scheduler's own rather than the thread pool's because turns block in syncs.
/// Fairness is per queued place: a <see cref="WorkGroup"/> (a database's indexes) holds one place for all its works.
/// </summary>
public sealed class WorkScheduler : IDisposable
{
    // Of every six turns taken while everything is busy: three high, two normal, one low.
    private static readonly WorkPriority[] s_rotation =
        [WorkPriority.High, WorkPriority.Normal, WorkPriority.High, WorkPriority.Low, WorkPriority.High, WorkPriority.Normal];

    private readonly ConcurrentQueue<IQueuedTurn>[] _queues = [new(), new(), new()];
    // The idle threads' wake-up events, the most recently idle last: work wakes the thread whose cache is warmest.
    // An event of its own per thread, without spinning, wakes exactly one thread at once: whoever would hand an
    // idle thread work needs the same few cores. (A shared monitor or semaphore, measured, cost a single writer's
    // group commit about three times the latency with four threads: it woke the longest-idle thread.)
    private readonly List<ManualResetEventSlim> _idle = [];
    private readonly Lock _sizeGate = new();
    private readonly string _threadName;
    private int _threads;
    private int _retiring;
    private int _promised;
    private uint _taken;

    /// <summary>A scheduler named <paramref name="threadName"/> (what its threads are called) running on <paramref name="threads"/> threads.</summary>
    public WorkScheduler(string threadName, int threads)
    {
        _threadName = threadName;
        ThreadCount = threads;
    }

    /// <summary>
    /// The scheduler of background work: index batches of every database. Its size defaults to twice the cores, four
    /// at least and sixteen at most: a batch commit waits on a sync, during which its thread needs no core.
    /// </summary>
    public static WorkScheduler Background { get; } = new("Folio background", DefaultThreads());

    /// <summary>
    /// The scheduler of group commits (every database's transaction merger), apart from <see cref="Background"/>
    /// so that a write never queues behind index batches; sized like it.
    /// </summary>
    public static WorkScheduler Commits { get; } = new("Folio commits", DefaultThreads());

    /// <summary>
    /// How many threads run turns. Raising it starts threads at once; lowering it retires threads as they finish
    /// their turns.
    /// </summary>
    public int ThreadCount
    {
        get => Volatile.Read(ref _threads);
        set
        {
            ArgumentOutOfRangeException.ThrowIfLessThan(value, 1);
            Resize(value);
        }
    }

    /// <summary>Twice the cores, four at least and sixteen at most.</summary>
    public static int DefaultThreads() => Math.Clamp(2 * Environment.ProcessorCount, 4, 16);

    /// <summary>
    /// Retires every thread once it finishes its turn; work queued or scheduled after that never runs. For schedulers
    /// made for a purpose (a test's); the shared ones live as long as the process.
    /// </summary>
    public void Dispose() => Resize(0);

    /// <summary>
    /// Queues <paramref name="work"/> at <paramref name="priority"/> and promises it to a thread: an idle one is woken,
    /// unless the caller is a scheduler thread about to take its next work itself (<paramref name="byTakingThread"/>).
    /// </summary>
    internal void Enqueue(IQueuedTurn work, WorkPriority priority, bool byTakingThread)
    {
        _queues[(int)priority].Enqueue(work);
        Interlocked.Increment(ref _promised);
        if (!byTakingThread)
            WakeOne();
    }

    private void WakeOne()
    {
        ManualResetEventSlim? wake = null;
        lock (_idle)
        {
            if (_idle.Count > 0)
            {
                wake = _idle[^1];
                _idle.RemoveAt(_idle.Count - 1);
            }
        }
        wake?.Set();
    }

    private void Resize(int threads)
    {
        lock (_sizeGate)
        {
            for (; _threads < threads; _threads++)
                new Thread(Work) { IsBackground = true, Name = _threadName }.Start();
            for (; _threads > threads; _threads--)
            {
                Interlocked.Increment(ref _retiring);
                WakeOne();
            }
        }
    }

    private void Work()
    {
        var wake = new ManualResetEventSlim(false, spinCount: 0);
        while (true)
        {
            if (TryDecrement(ref _retiring))
                return;
            if (TryDecrement(ref _promised))
            {
                RunNext();
                continue;
            }
            wake.Reset();
            lock (_idle)
                _idle.Add(wake);
            // Whoever promised work or a retirement before this thread was listed did not see it: look again.
            if (Volatile.Read(ref _promised) > 0 || Volatile.Read(ref _retiring) > 0)
            {
                lock (_idle)
                    _idle.Remove(wake);
                continue;
            }
            wake.Wait();
        }
    }

    // Not inlined: the work taken lives in this frame only, not in a slot of Work's, which would keep it (and the
    // database or index it belongs to, unloaded or not) reachable while the thread sleeps until the next one.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void RunNext() => Take().Run();

    private static bool TryDecrement(ref int count)
    {
        var seen = Volatile.Read(ref count);
        while (seen > 0)
        {
            var before = Interlocked.CompareExchange(ref count, seen - 1, seen);
            if (before == seen)
                return true;
            seen = before;
        }
        return false;
    }

    /// <summary>
    /// The next work to run, once this thread was promised one is queued: from the queue whose turn it is in the
    /// rotation, else from the highest priority queue that has any.
    /// </summary>
    private IQueuedTurn Take()
    {
        var preferred = _queues[(int)s_rotation[Interlocked.Increment(ref _taken) % (uint)s_rotation.Length]];
        var spin = new SpinWait();
        while (true)
        {
            if (preferred.TryDequeue(out var work))
                return work;
            for (var priority = _queues.Length - 1; priority >= 0; priority--)
            {
                if (_queues[priority].TryDequeue(out work))
                    return work;
            }
            // Other takers got ahead in this scan; the work this thread was promised was queued before the promise.
            spin.SpinOnce();
        }
    }
}
