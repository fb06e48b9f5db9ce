using System.Globalization;

namespace Folio.Server.Tests.Support;

/// <summary>Samples this process's memory every few milliseconds on its own task until stopped.</summary>
internal sealed class MemorySampler : IDisposable
{
    private readonly CancellationTokenSource _stop = new();
    private readonly Task<Peaks> _sampling;
    private readonly bool _liveOnly;

    /// <summary>Starts sampling.</summary>
    /// <param name="liveOnly">
    /// Whether each sample collects first, so the managed figure is live data and not the garbage a generation-0
    /// budget lets pile up (that budget follows the CPU's cache size, so the garbage differs from machine to machine).
    /// </param>
    public MemorySampler(bool liveOnly = false)
    {
        _liveOnly = liveOnly;
        _sampling = Task.Run(SampleAsync);
    }

    public async Task<Peaks> StopAsync()
    {
        await _stop.CancelAsync();
        return await _sampling;
    }

    public void Dispose() => _stop.Dispose();

    /// <summary>Resident memory that is not file-backed (heap, stacks, native buffers), from /proc on Linux; 0 elsewhere.</summary>
    /// <remarks>The working set also counts the mapped data file's pages, which the kernel can drop at will.</remarks>
    public static long AnonymousResidentBytes()
    {
        const string path = "/proc/self/status";
        if (!File.Exists(path))
            return 0;
        foreach (string line in File.ReadLines(path))
        {
            if (line.StartsWith("RssAnon:", StringComparison.Ordinal))
                return long.Parse(line.AsSpan(8).Trim().TrimEnd("kB").Trim(), CultureInfo.InvariantCulture) * 1024;
        }

        return 0;
    }

    private async Task<Peaks> SampleAsync()
    {
        var peaks = default(Peaks);
        using var timer = new PeriodicTimer(TimeSpan.FromMilliseconds(_liveOnly ? 100 : 20));
        try
        {
            do
            {
                peaks = new Peaks(
                    Math.Max(peaks.Managed, GC.GetTotalMemory(forceFullCollection: _liveOnly)),
                    Math.Max(peaks.Anonymous, AnonymousResidentBytes()),
                    Math.Max(peaks.WorkingSet, Environment.WorkingSet));
            }
            while (await timer.WaitForNextTickAsync(_stop.Token));
        }
        catch (OperationCanceledException)
        {
            // Stopped.
        }

        return peaks;
    }

    public readonly record struct Peaks(long Managed, long Anonymous, long WorkingSet);
}
