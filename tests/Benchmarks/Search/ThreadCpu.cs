using System.Runtime.InteropServices;

namespace Folio.Benchmarks.Search;

/// <summary>
/// The CPU time the calling thread has used (Linux <c>CLOCK_THREAD_CPUTIME_ID</c>), the same clock the Java side reads
/// through <c>ThreadMXBean.getCurrentThreadCpuTime</c>: on a machine whose cores other work shares, a query's CPU
/// time moves far less than its wall time.
/// </summary>
internal static partial class ThreadCpu
{
    private const int ClockThreadCpuTimeId = 3;

    /// <summary>Microseconds of CPU the calling thread has used so far.</summary>
    public static double Microseconds()
    {
        if (ClockGetTime(ClockThreadCpuTimeId, out var time) != 0)
            throw new InvalidOperationException($"clock_gettime failed ({Marshal.GetLastPInvokeError()}).");
        return (time.Seconds * 1e6) + (time.Nanoseconds / 1e3);
    }

    [LibraryImport("libc", EntryPoint = "clock_gettime", SetLastError = true)]
    private static partial int ClockGetTime(int clock, out TimeSpec time);

    [StructLayout(LayoutKind.Sequential)]
    private struct TimeSpec
    {
        public long Seconds;
        public long Nanoseconds;
    }
}
