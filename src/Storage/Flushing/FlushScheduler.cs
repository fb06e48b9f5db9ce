using System.Collections.Concurrent;
using System.Runtime.CompilerServices;
using Folio.Storage.Transactions;

namespace Folio.Storage.Flushing;

/// <summary>
/// Runs the flush rounds of every storage environment in the process (applying journaled commits to the data file,
/// trimming page buffers) on a few shared threads, so the thread count does not grow with databases and indexes.
/// An environment is queued when its unflushed bytes pass the threshold, and by a ticker when its flush interval has
/// passed; the queue is first in, first out, so a database flushing a large batch holds one thread while the others
/// serve the rest. The threads are dedicated rather than the thread pool's because a round blocks in the data file's sync.
/// </summary>
internal sealed class FlushScheduler
{
    private static readonly TimeSpan s_longestTick = TimeSpan.FromMilliseconds(100);
    private static readonly TimeSpan s_shortestTick = TimeSpan.FromMilliseconds(5);

    private readonly BlockingCollection<StorageEnvironment> _queue = new(new ConcurrentQueue<StorageEnvironment>());
    private readonly ConcurrentDictionary<StorageEnvironment, byte> _registered = new(ReferenceEqualityComparer.Instance);
    private readonly Lock _tickGate = new();
    private readonly Timer _ticker;
    private TimeSpan _tick = s_longestTick;
    private long _lastSpareTrim;

    private FlushScheduler(int threads)
    {
        for (int i = 0; i < threads; i++)
            new Thread(Work) { IsBackground = true, Name = "Folio storage flusher" }.Start();
        _ticker = new Timer(static state => ((FlushScheduler)state!).Tick(), this, _tick, _tick);
    }

    /// <summary>The process's scheduler: one thread per core, two at least and four at most.</summary>
    public static FlushScheduler Shared { get; } = new(Math.Clamp(Environment.ProcessorCount, 2, 4));

    /// <summary>Starts ticking <paramref name="environment"/>: its rounds come at about its flush interval.</summary>
    public void Register(StorageEnvironment environment)
    {
        TimeSpan interval = environment.Options.FlushInterval;
        // Under the gate with Unregister's recomputation, so that one never misses an environment joining.
        lock (_tickGate)
        {
            _registered.TryAdd(environment, 0);
            if (interval < _tick)
            {
                // The ticker runs as often as the most eager environment wants; the others are checked and skipped.
                _tick = interval < s_shortestTick ? s_shortestTick : interval;
                _ticker.Change(_tick, _tick);
            }
        }
    }

    /// <summary>
    /// Stops ticking <paramref name="environment"/>; a round already queued finds it stopped and does nothing. The
    /// ticker slows back to the most eager environment left, so one short-lived eager environment (a test's) does
    /// not leave the process walking every environment at its pace.
    /// </summary>
    public void Unregister(StorageEnvironment environment)
    {
        lock (_tickGate)
        {
            if (!_registered.TryRemove(environment, out _) || environment.Options.FlushInterval > _tick)
                return;
            TimeSpan eagerest = s_longestTick;
            foreach (KeyValuePair<StorageEnvironment, byte> entry in _registered)
            {
                if (entry.Key.Options.FlushInterval < eagerest)
                    eagerest = entry.Key.Options.FlushInterval;
            }
            TimeSpan tick = eagerest < s_shortestTick ? s_shortestTick : eagerest;
            if (tick != _tick)
            {
                _tick = tick;
                _ticker.Change(_tick, _tick);
            }
        }
    }

    /// <summary>Queues a round of <paramref name="environment"/> unless one is queued already.</summary>
    public void Schedule(StorageEnvironment environment)
    {
        if (environment.TryMarkFlushQueued())
            _queue.Add(environment);
    }

    private void Tick()
    {
        long now = Environment.TickCount64;
        // At the pace environments trim their own pools (their default flush interval): what they let go of and no
        // other environment rented within a second leaves the process's spare pool for the GC.
        if (now - Volatile.Read(ref _lastSpareTrim) >= 1000)
        {
            Volatile.Write(ref _lastSpareTrim, now);
            PageBufferPool.Spare.Trim();
        }
        foreach (KeyValuePair<StorageEnvironment, byte> entry in _registered)
        {
            if (entry.Key.FlushRoundDue(now))
                Schedule(entry.Key);
        }
    }

    private void Work()
    {
        // Taken one at a time rather than through the consuming enumerable, whose Current would hold the last
        // environment flushed (and so a closed database's whole store) while the thread waits for the next.
        while (true)
            RunNext();
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void RunNext() => _queue.Take().RunFlushRound();
}
