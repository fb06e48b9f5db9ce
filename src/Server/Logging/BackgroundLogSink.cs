using System.Collections.Concurrent;
using Serilog.Core;
using Serilog.Events;

namespace Folio.Server.Logging;

/// <summary>
/// Hands log events to a dedicated thread that writes them to the console and file sinks, so a request
/// pays for queueing its log line and not for formatting it or for the write system call (a synchronous
/// file write per request put multi-millisecond stalls into query latency tails). Serilog.Sinks.Async,
/// which does this, is not in the package source here. When the writer falls more than
/// <see cref="Capacity"/> events behind, new events are dropped and counted rather than blocking
/// requests; the count is logged once the writer catches up. The writer is not woken per event (a
/// futex wake per request is a measurable share of a small request's cost): it writes what has
/// queued every <see cref="WriteInterval"/>, or sooner once <see cref="WakeAt"/> events wait. The
/// interval is short so that the formatting comes in small slices rather than in bursts beside the
/// requests that share the cores.
/// </summary>
internal sealed class BackgroundLogSink : ILogEventSink, IDisposable
{
    /// <summary>How many events may wait for the writer thread.</summary>
    public const int Capacity = 100_000;

    /// <summary>How many waiting events wake the writer before its interval is up.</summary>
    public const int WakeAt = 1_000;

    /// <summary>How long an event may wait for the writer when few are queued.</summary>
    public static readonly TimeSpan WriteInterval = TimeSpan.FromMilliseconds(10);

    private readonly Logger _target;
    private readonly ConcurrentQueue<LogEvent> _queue = new();
    private readonly ManualResetEventSlim _signal = new(false, spinCount: 0);
    private readonly Thread _thread;
    private int _queued;
    private long _dropped;
    private volatile bool _stopping;

    /// <summary>Starts the writer thread.</summary>
    /// <param name="target">The sinks to write to; disposed (flushed) with this sink.</param>
    public BackgroundLogSink(Logger target)
    {
        _target = target;
        _thread = new Thread(Run) { IsBackground = true, Name = "Folio log writer" };
        _thread.Start();
    }

    /// <summary>Events dropped so far because the writer was <see cref="Capacity"/> events behind.</summary>
    public long Dropped => Interlocked.Read(ref _dropped);

    /// <inheritdoc/>
    public void Emit(LogEvent logEvent)
    {
        var queued = Interlocked.Increment(ref _queued);
        if (queued > Capacity)
        {
            Interlocked.Decrement(ref _queued);
            Interlocked.Increment(ref _dropped);
            return;
        }
        _queue.Enqueue(logEvent);
        if (queued >= WakeAt && !_signal.IsSet)
            _signal.Set();
    }

    /// <summary>Writes what is queued, stops the thread and flushes the target.</summary>
    public void Dispose()
    {
        _stopping = true;
        _signal.Set();
        _thread.Join();
        _target.Dispose();
        _signal.Dispose();
    }

    private void Run()
    {
        long reported = 0;
        while (true)
        {
            _signal.Wait(WriteInterval);
            _signal.Reset();
            while (_queue.TryDequeue(out var logEvent))
            {
                Interlocked.Decrement(ref _queued);
                _target.Write(logEvent);
            }
            var dropped = Dropped;
            if (dropped != reported)
            {
                _target.Warning("The log writer fell behind and dropped {DroppedEvents} log events", dropped - reported);
                reported = dropped;
            }
            if (_stopping && _queue.IsEmpty)
                return;
        }
    }
}
