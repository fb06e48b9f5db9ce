using System.Diagnostics;
using HdrHistogram;

namespace Folio.Benchmarks.Soak;

/// <summary>
/// Latencies per operation, read out per sample interval, and the errors seen. Recording is thread-safe and
/// allocation-free, so the workers' own cost does not drift with the run.
/// </summary>
public sealed class SoakLatencies
{
    private const long HighestMicroseconds = 10L * 60 * 1_000_000;

    private readonly Recorder[] _recorders = new Recorder[Enum.GetValues<SoakOperation>().Length];
    private readonly HistogramBase?[] _intervals = new HistogramBase?[Enum.GetValues<SoakOperation>().Length];
    private readonly Lock _errorsLock = new();
    private readonly List<string> _firstErrors = [];
    private long _errors;

    /// <summary>Creates one recorder per operation.</summary>
    public SoakLatencies()
    {
        for (int i = 0; i < _recorders.Length; i++)
            _recorders[i] = HistogramFactory.With64BitBucketSize().WithValuesFrom(1).WithValuesUpTo(HighestMicroseconds).WithPrecisionOf(2).WithThreadSafeWrites().WithThreadSafeReads().Create();
    }

    /// <summary>Errors so far.</summary>
    public long Errors => Interlocked.Read(ref _errors);

    /// <summary>The first errors' descriptions (at most 20).</summary>
    public IReadOnlyList<string> FirstErrors
    {
        get
        {
            lock (_errorsLock)
                return [.. _firstErrors];
        }
    }

    /// <summary>Records an operation that started at <paramref name="startTimestamp"/> (a <see cref="Stopwatch"/> timestamp).</summary>
    /// <param name="operation">What was done.</param>
    /// <param name="startTimestamp">When it started.</param>
    public void Record(SoakOperation operation, long startTimestamp)
    {
        long microseconds = Math.Max(1, (long)Stopwatch.GetElapsedTime(startTimestamp).TotalMicroseconds);
        _recorders[(int)operation].RecordValue(Math.Min(microseconds, HighestMicroseconds));
    }

    /// <summary>Counts an error and keeps its description if it is among the first.</summary>
    /// <param name="operation">What failed.</param>
    /// <param name="description">Why.</param>
    public void Error(SoakOperation operation, string description)
    {
        Interlocked.Increment(ref _errors);
        lock (_errorsLock)
        {
            if (_firstErrors.Count < 20)
                _firstErrors.Add($"{DateTime.UtcNow:HH:mm:ss} {operation}: {description}");
        }
    }

    /// <summary>Each operation's count and p99 (ms) since the last call; operations that did not run have a count of 0.</summary>
    /// <returns>Per operation, in <see cref="SoakOperation"/> order.</returns>
    public (long Count, double P99Ms)[] TakeInterval()
    {
        var result = new (long, double)[_recorders.Length];
        for (int i = 0; i < _recorders.Length; i++)
        {
            HistogramBase interval = _intervals[i] = _recorders[i].GetIntervalHistogram(_intervals[i]);
            result[i] = (interval.TotalCount, interval.TotalCount == 0 ? 0 : interval.GetValueAtPercentile(99) / 1000.0);
        }

        return result;
    }
}
