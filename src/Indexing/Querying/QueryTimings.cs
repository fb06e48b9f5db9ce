using System.Diagnostics;

namespace Folio.Indexing.Querying;

/// <summary>
/// The time a query spent in each stage, in milliseconds: parsing its text, planning (choosing or creating the index,
/// waiting for it, compiling the conditions), querying the index, loading the documents of the results, and projecting
/// them (select, distinct, includes). Stages are measured back to back with one clock, so they add up to about the total.
/// </summary>
public sealed class QueryTimings
{
    private long _last = Stopwatch.GetTimestamp();

    /// <summary>Parsing the text (or finding it parsed already).</summary>
    public double Parse { get; private set; }

    /// <summary>Choosing or creating the index, waiting for it when asked, and compiling the conditions and the order.</summary>
    public double Plan { get; private set; }

    /// <summary>Querying the index: matching, sorting and paging (and counting facets).</summary>
    public double Query { get; private set; }

    /// <summary>Reading the documents (or rows) of the results.</summary>
    public double Load { get; private set; }

    /// <summary>Turning them into the answer: projections, distinct, includes, highlights and explanations.</summary>
    public double Projection { get; private set; }

    /// <summary>From the start of the query to its answer.</summary>
    public double Total { get; set; }

    /// <summary>Starts the clock at <paramref name="timestamp"/> (when the query started).</summary>
    public void StartAt(long timestamp) => _last = timestamp;

    /// <summary>Adds the time since the last lap to parsing.</summary>
    public void ParseDone() => Parse += Lap();

    /// <summary>Adds the time since the last lap to planning.</summary>
    public void PlanDone() => Plan += Lap();

    /// <summary>Adds the time since the last lap to querying the index.</summary>
    public void QueryDone() => Query += Lap();

    /// <summary>Adds the time since the last lap to loading.</summary>
    public void LoadDone() => Load += Lap();

    /// <summary>Adds the time since the last lap to projecting.</summary>
    public void ProjectionDone() => Projection += Lap();

    private double Lap()
    {
        var now = Stopwatch.GetTimestamp();
        var elapsed = Stopwatch.GetElapsedTime(_last, now).TotalMilliseconds;
        _last = now;
        return elapsed;
    }
}
