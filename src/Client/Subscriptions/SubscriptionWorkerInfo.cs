namespace Folio.Client.Subscriptions;

/// <summary>The worker connected to a subscription.</summary>
public sealed class SubscriptionWorkerInfo
{
    /// <summary>Its address as the server sees it.</summary>
    public string Address { get; set; } = "";

    /// <summary>When it connected.</summary>
    public DateTimeOffset ConnectedAt { get; set; }
}
