using System.Collections.Concurrent;
using System.Net;

namespace Folio.Server.Security;

/// <summary>
/// Counts failed authentications per client address in one-minute windows; an address over the limit is refused
/// until its window ends, so a key cannot be guessed faster than the limit allows. While no address has failed
/// recently, checking costs one volatile read.
/// </summary>
public sealed class FailedAttemptLimiter
{
    private static readonly long s_window = TimeSpan.FromMinutes(1).Ticks;

    private readonly ConcurrentDictionary<IPAddress, Window> _windows = new();
    private readonly int _limit;
    private readonly TimeProvider _time;
    private int _tracked;

    /// <summary>Creates a limiter.</summary>
    /// <param name="limit">Failures allowed per address per minute.</param>
    /// <param name="time">The clock; the system's when null.</param>
    public FailedAttemptLimiter(int limit, TimeProvider? time = null)
    {
        _limit = limit;
        _time = time ?? TimeProvider.System;
    }

    /// <summary>Whether an address used up its failures for this minute, and how long until it may try again.</summary>
    /// <param name="address">The client's address; null (not a network connection) is never blocked.</param>
    /// <param name="retryAfter">Time left in the window when blocked.</param>
    /// <returns>True when blocked.</returns>
    public bool IsBlocked(IPAddress? address, out TimeSpan retryAfter)
    {
        retryAfter = TimeSpan.Zero;
        if (Volatile.Read(ref _tracked) == 0 || address is null || !_windows.TryGetValue(address, out Window? window))
            return false;
        long now = _time.GetUtcNow().UtcTicks;
        lock (window)
        {
            if (now - window.Start >= s_window || window.Failures < _limit)
                return false;
            retryAfter = TimeSpan.FromTicks(window.Start + s_window - now);
            return true;
        }
    }

    /// <summary>Counts one failure of an address.</summary>
    /// <param name="address">The client's address, or null.</param>
    /// <returns>The failures counted in the address's current window.</returns>
    public int RecordFailure(IPAddress? address)
    {
        if (address is null)
            return 0;
        long now = _time.GetUtcNow().UtcTicks;
        if (!_windows.TryGetValue(address, out Window? window))
        {
            Sweep(now);
            window = _windows.GetOrAdd(address, static (_, start) => new Window { Start = start }, now);
            Interlocked.Exchange(ref _tracked, _windows.Count);
        }

        lock (window)
        {
            if (now - window.Start >= s_window)
            {
                window.Start = now;
                window.Failures = 0;
            }

            return ++window.Failures;
        }
    }

    /// <summary>Forgets windows that ended, so addresses seen once do not pile up.</summary>
    private void Sweep(long now)
    {
        foreach (KeyValuePair<IPAddress, Window> entry in _windows)
        {
            if (now - Volatile.Read(ref entry.Value.Start) >= s_window)
                _windows.TryRemove(entry);
        }

        Interlocked.Exchange(ref _tracked, _windows.Count);
    }

    private sealed class Window
    {
        public long Start;
        public int Failures;
    }
}
