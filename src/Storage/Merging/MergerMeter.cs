using System.Diagnostics.Metrics;

namespace Folio.Storage.Merging;

/// <summary>
/// The merger's per-transaction figures as .NET metrics (meter <see cref="Name"/>), for whatever listens (the server
/// exports them to Prometheus): how many operations each merged transaction carried and how long its commit took.
/// Recorded once per transaction, only for environments given a <see cref="StorageOptions.MetricsName"/>.
/// </summary>
public static class MergerMeter
{
    /// <summary>The meter's name.</summary>
    public const string Name = "Folio.Storage";

    /// <summary>The tag naming the environment (a database's name).</summary>
    public const string DatabaseTag = "database";

    /// <summary>Bucket bounds of <c>folio_merger_batch_operations</c>, for any listener that keeps a histogram.</summary>
    public static readonly double[] BatchOperationsBuckets = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096];

    /// <summary>Bucket bounds of <c>folio_merger_commit_seconds</c>, for any listener that keeps a histogram.</summary>
    public static readonly double[] CommitSecondsBuckets = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];

    private static readonly Meter s_meter = new(Name);

    /// <summary>Operations per merged transaction.</summary>
    internal static readonly Histogram<int> BatchOperations = s_meter.CreateHistogram<int>(
        "folio_merger_batch_operations",
        unit: null,
        description: "Write operations the transaction merger put into one transaction.",
        tags: null,
        advice: new InstrumentAdvice<int> { HistogramBucketBoundaries = Array.ConvertAll(BatchOperationsBuckets, static b => (int)b) });

    /// <summary>Seconds from the start of a merged transaction's commit (journal write and sync included) to its end.</summary>
    internal static readonly Histogram<double> CommitSeconds = s_meter.CreateHistogram<double>(
        "folio_merger_commit_seconds",
        unit: null,
        description: "How long committing a merged transaction took: its journal record written and synced, its pages published.",
        tags: null,
        advice: new InstrumentAdvice<double> { HistogramBucketBoundaries = CommitSecondsBuckets });
}
