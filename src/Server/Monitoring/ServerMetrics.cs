using System.Diagnostics;
using Folio.Server.Databases;
using HdrHistogram;

namespace Folio.Server.Monitoring;

/// <summary>
/// Counts the requests the server answers and how long they take, and samples the writes and indexing of every
/// database, for the stats endpoint and the studio's dashboard. Recording is a few interlocked operations on HdrHistogram's recorder, so every request can be
/// recorded; once a second a timer takes what was recorded since the last tick as one <see cref="ServerSample"/>
/// and folds it into the totals since the start. Durations are kept in microseconds with two significant
/// digits (1% resolution), which is what percentiles on a dashboard need and keeps each histogram small.
/// </summary>
public sealed class ServerMetrics : IDisposable
{
    /// <summary>How many one-second samples are kept (the dashboard's chart width).</summary>
    public const int HistoryLength = 120;

    private const long HighestMicroseconds = 3_600_000_000;

    private readonly Recorder _recorder;
    private readonly LongHistogram _sinceStart;
    private readonly ServerSample[] _history = new ServerSample[HistoryLength];
    private readonly Lock _gate = new();
    private readonly Timer _timer;
    private HistogramBase _interval;
    private int _historyCount;
    private int _historyNext;
    private long _requests;
    private long _failed;
    private long _samplesRequests;
    private long _samplesFailed;
    private TimeSpan _lastCpu;
    private long _lastTick;
    private readonly DatabaseRegistry? _databases;
    private Dictionary<Database, (long Written, long Indexed)> _lastEtags = new(ReferenceEqualityComparer.Instance);

    // Filled by each tick and swapped with _lastEtags, empty between ticks: a thousand loaded databases would otherwise
    // make a new dictionary of a thousand entries every second.
    private Dictionary<Database, (long Written, long Indexed)> _nextEtags = new(ReferenceEqualityComparer.Instance);

    /// <summary>Starts the once-a-second sampling of requests and of <paramref name="databases"/>' writes and indexing.</summary>
    /// <param name="databases">The databases whose etags are summed each second.</param>
    public ServerMetrics(DatabaseRegistry databases)
        : this()
    {
        _databases = databases;
        EtagGrowth();
    }

    /// <summary>Samples requests only (benchmarks of the recording cost).</summary>
    internal ServerMetrics()
    {
        StartedAt = DateTimeOffset.UtcNow;
        _recorder = HistogramFactory.With64BitBucketSize().WithValuesFrom(1).WithValuesUpTo(HighestMicroseconds).WithPrecisionOf(2)
            .WithThreadSafeWrites().WithThreadSafeReads().Create();
        _sinceStart = new LongHistogram(1, HighestMicroseconds, 2);
        _interval = _recorder.GetIntervalHistogram();
        _lastCpu = Environment.CpuUsage.TotalTime;
        _lastTick = Stopwatch.GetTimestamp();
        _timer = new Timer(static state => ((ServerMetrics)state!).Tick(), this, TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(1));
    }

    /// <summary>When the server started counting.</summary>
    public DateTimeOffset StartedAt { get; }

    /// <summary>Requests answered since the start.</summary>
    public long Requests => Interlocked.Read(ref _requests);

    /// <summary>Of those, how many answered a 5xx.</summary>
    public long Failed => Interlocked.Read(ref _failed);

    /// <summary>Records one answered request.</summary>
    /// <param name="elapsedTicks">Its duration in <see cref="Stopwatch"/> ticks.</param>
    /// <param name="statusCode">Its final status.</param>
    /// <param name="question">False for a feed or stream (<see cref="LongRunningRequest"/>), whose duration is not latency.</param>
    public void Record(long elapsedTicks, int statusCode, bool question)
    {
        Interlocked.Increment(ref _requests);
        if (statusCode >= StatusCodes.Status500InternalServerError)
            Interlocked.Increment(ref _failed);
        if (!question)
            return;
        long microseconds = elapsedTicks * 1_000_000 / Stopwatch.Frequency;
        _recorder.RecordValue(Math.Clamp(microseconds, 1, HighestMicroseconds));
    }

    /// <summary>The kept one-second samples, oldest first.</summary>
    /// <returns>A copy.</returns>
    public ServerSample[] History()
    {
        lock (_gate)
        {
            var samples = new ServerSample[_historyCount];
            int first = (_historyNext - _historyCount + HistoryLength) % HistoryLength;
            for (var i = 0; i < samples.Length; i++)
                samples[i] = _history[(first + i) % HistoryLength];
            return samples;
        }
    }

    /// <summary>Durations of the questions answered in the completed seconds since the start, at <paramref name="percentile"/>.</summary>
    /// <param name="percentile">0 to 100.</param>
    /// <returns>Microseconds, 0 before the first question.</returns>
    public long SinceStartPercentile(double percentile)
    {
        lock (_gate)
            return _sinceStart.TotalCount == 0 ? 0 : _sinceStart.GetValueAtPercentile(percentile);
    }

    /// <summary>The longest question since the start, in microseconds.</summary>
    /// <returns>Microseconds, 0 before the first question.</returns>
    public long SinceStartMax()
    {
        lock (_gate)
            return _sinceStart.TotalCount == 0 ? 0 : _sinceStart.GetMaxValue();
    }

    /// <summary>Stops sampling.</summary>
    public void Dispose() => _timer.Dispose();

    /// <summary>
    /// The writes and indexing work across the server since the last call: every write takes the next etag of its
    /// database, and an index's processed etag moves past each write it has looked at, so the growth of each loaded
    /// database's etags is its work, counted from where it stood at the last call or, for one loaded since, where it
    /// stood as it opened: a database that loads brings its whole history with it, which is no work of this second
    /// (and one that unloads takes nothing away).
    /// </summary>
    private (long Written, long Indexed) EtagGrowth()
    {
        if (_databases is null)
            return (0, 0);
        var current = _nextEtags;
        long written = 0;
        long indexed = 0;
        foreach (DatabaseEntry entry in _databases.List())
        {
            if (entry.Loaded is not { } database)
                continue;
            long databaseIndexed = 0;
            foreach (var index in database.Indexes.All)
                databaseIndexed += index.ProcessedEtag;
            var now = (database.Store.LastEtag, databaseIndexed);
            current[database] = now;
            var before = _lastEtags.TryGetValue(database, out var seen) ? seen : database.EtagsAtOpen;
            written += Math.Max(0, now.LastEtag - before.Written);
            indexed += Math.Max(0, now.databaseIndexed - before.Indexed);
        }
        // Emptied at once: it would otherwise keep databases unloaded since the tick before alive until the next tick.
        _lastEtags.Clear();
        _nextEtags = _lastEtags;
        _lastEtags = current;
        return (written, indexed);
    }

    private void Tick()
    {
        lock (_gate)
        {
            _interval = _recorder.GetIntervalHistogram(_interval);
            _sinceStart.Add(_interval);
            long now = Stopwatch.GetTimestamp();
            TimeSpan cpu = Environment.CpuUsage.TotalTime;
            double wall = Stopwatch.GetElapsedTime(_lastTick, now).TotalMilliseconds;
            double cpuPercent = wall <= 0 ? 0 : Math.Round((cpu - _lastCpu).TotalMilliseconds * 100 / wall, 1);
            _lastCpu = cpu;
            _lastTick = now;

            long requests = Requests;
            long failed = Failed;
            (long written, long indexed) = EtagGrowth();
            bool any = _interval.TotalCount > 0;
            _history[_historyNext] = new ServerSample(
                DateTimeOffset.UtcNow.ToUnixTimeMilliseconds(),
                requests - _samplesRequests,
                failed - _samplesFailed,
                any ? _interval.GetValueAtPercentile(50) : 0,
                any ? _interval.GetValueAtPercentile(99) : 0,
                any ? _interval.GetMaxValue() : 0,
                cpuPercent,
                written,
                indexed);
            _samplesRequests = requests;
            _samplesFailed = failed;
            _historyNext = (_historyNext + 1) % HistoryLength;
            _historyCount = Math.Min(_historyCount + 1, HistoryLength);
        }
    }
}
