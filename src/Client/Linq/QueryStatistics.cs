namespace Folio.Client.Linq;

/// <summary>What the server said about a query it ran, filled in when the query runs.</summary>
public sealed class QueryStatistics
{
    /// <summary>All matches, not just the page answered.</summary>
    public long TotalResults { get; internal set; }

    /// <summary>Results the server skipped (always 0 for now).</summary>
    public long SkippedResults { get; internal set; }

    /// <summary>Whether the index had not caught up with every write when the query ran.</summary>
    public bool IsStale { get; internal set; }

    /// <summary>The index that answered (<c>collection/Orders</c> when the collection was read directly).</summary>
    public string? IndexName { get; internal set; }

    /// <summary>The etag the index had processed up to.</summary>
    public long IndexEtag { get; internal set; }

    /// <summary>How long the server took.</summary>
    public double DurationInMs { get; internal set; }
}
