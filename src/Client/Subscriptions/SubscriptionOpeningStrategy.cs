namespace Folio.Client.Subscriptions;

/// <summary>What a worker does when another worker holds the subscription.</summary>
public enum SubscriptionOpeningStrategy
{
    /// <summary>Wait and retry until the other worker leaves.</summary>
    OpenIfFree,

    /// <summary>End the other worker's session and take its place.</summary>
    TakeOver,
}
