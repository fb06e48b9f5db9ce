namespace Folio.Client.Subscriptions;

/// <summary>How a worker consumes a subscription.</summary>
public sealed class SubscriptionWorkerOptions
{
    /// <summary>The subscription's name.</summary>
    public required string SubscriptionName { get; init; }

    /// <summary>What to do when another worker holds it.</summary>
    public SubscriptionOpeningStrategy Strategy { get; init; } = SubscriptionOpeningStrategy.OpenIfFree;

    /// <summary>Most documents per batch (1 to the server's maximum, 16,384 by default).</summary>
    public int MaxDocsPerBatch { get; init; } = 1024;

    /// <summary>How long the server may wait for more writes to fill a batch that has some documents.</summary>
    public TimeSpan MaxBatchWait { get; init; } = TimeSpan.Zero;

    /// <summary>How long to wait before reconnecting after the connection failed, or before retrying a batch the handler failed.</summary>
    public TimeSpan RetryDelay { get; init; } = TimeSpan.FromSeconds(1);

    /// <summary>How many times in a row the handler may fail on the same batch before the worker stops with its exception.</summary>
    public int MaxHandlerRetries { get; init; } = 3;

    /// <summary>How long the worker keeps reconnecting without success (server down, subscription in use) before it stops; unbounded by default.</summary>
    public TimeSpan MaxErroneousPeriod { get; init; } = Timeout.InfiniteTimeSpan;
}
