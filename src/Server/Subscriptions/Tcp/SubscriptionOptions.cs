namespace Folio.Server.Subscriptions.Tcp;

/// <summary>How subscription sessions batch and keep alive, bound from the <c>Subscriptions</c> section.</summary>
public sealed class SubscriptionOptions
{
    /// <summary>Documents per batch when the worker asks for none (default 1,024).</summary>
    public int DefaultBatchSize { get; set; } = 1024;

    /// <summary>The most documents a worker may ask for per batch (default 16,384).</summary>
    public int MaxBatchSize { get; set; } = 16_384;

    /// <summary>Document bytes after which a batch is sent even if not full (default 16 MB).</summary>
    public long MaxBatchBytes { get; set; } = 16L * 1024 * 1024;

    /// <summary>How long an idle session stays silent before it sends a heartbeat (default 10 s).</summary>
    public TimeSpan Heartbeat { get; set; } = TimeSpan.FromSeconds(10);

    /// <summary>Lists the settings that are out of range.</summary>
    /// <returns>One message per invalid setting.</returns>
    public IEnumerable<string> Validate()
    {
        if (DefaultBatchSize <= 0 || MaxBatchSize < DefaultBatchSize)
            yield return "Subscriptions:DefaultBatchSize must be positive and at most Subscriptions:MaxBatchSize.";
        if (MaxBatchBytes <= 0)
            yield return "Subscriptions:MaxBatchBytes must be positive.";
        if (Heartbeat <= TimeSpan.Zero)
            yield return "Subscriptions:Heartbeat must be positive.";
    }
}
