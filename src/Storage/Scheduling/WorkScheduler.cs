using System.Collections.Concurrent;

namespace Folio.Storage.Scheduling;

/// <summary>
/// A small set of threads shared by every database and index in the process, running <see cref="ScheduledWork"/>
/// in turns: ready work queues first in, first out by priority, each turn is bounded, and work that has more goes to
/// the back, so a database bulk-inserting or an index rebuilding holds one thread for one turn at a time while the
/// others serve everyone else. The thread count depends on the cores and the settings, never on how much work
/// there is. The threads are the scheduler's own rather than the thread pool's because turns block in syncs.
/// </summary>
public sealed class WorkScheduler : IDisposable
{
    // Of every six turns taken while everything is busy: three high, two normal, one low.
    private static readonly WorkPriority[] s_rotation =
        [WorkPriority.High, WorkPriority.Normal, WorkPriority.High, WorkPriority.Low, WorkPriority.High, WorkPriority.Normal];

    private readonly ConcurrentQueue<ScheduledWork>[] _queues = [new(), new(), new()];
    // Guards the counts below; idle threads wait on it. A monitor rather than a SemaphoreSlim because that spins
    // before it sleeps, and whoever would hand an idle thread work needs the same few cores.
    private readonly object _gate = new();
    private readonly Lock _sizeGate = new();
    private readonly string _threadName;
    private int _threads;
    private int _retiring;
    private int _promised;
    private int _idle;
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

    internal void Enqueue(ScheduledWork work)
    {
        _queues[(int)work.Priority].Enqueue(work);
        lock (_gate)
        {
            _promised++;
            if (_idle > 0)
                Monitor.Pulse(_gate);
        }
    }

    private void Resize(int threads)
    {
        lock (_sizeGate)
        {
            for (; _threads < threads; _threads++)
                new Thread(Work) { IsBackground = true, Name = _threadName }.Start();
            for (; _threads > threads; _threads--)
            {
                lock (_gate)
                {
                    _retiring++;
                    Monitor.PulseAll(_gate);
                }
            }
        }
    }

    private void Work()
    {
        while (true)
        {
            lock (_gate)
            {
                while (_promised == 0 && _retiring == 0)
                {
                    _idle++;
                    Monitor.Wait(_gate);
                    _idle--;
                }
                if (_retiring > 0)
                {
                    _retiring--;
                    return;
                }
                _promised--;
            }
            Take().Run();
        }
    }

    /// <summary>
    /// The next work to run, once this thread was promised one is queued: from the queue whose turn it is in the
    /// rotation, else from the highest priority queue that has any.
    /// </summary>
    private ScheduledWork Take()
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
