namespace Folio.Client.Subscriptions;

/// <summary>One batch of a subscription, in etag order; acknowledged when the handler returns.</summary>
/// <typeparam name="T">The type documents are read as.</typeparam>
public sealed class SubscriptionBatch<T>
{
    internal SubscriptionBatch(long lastEtag, List<SubscriptionItem<T>> items)
    {
        LastEtag = lastEtag;
        Items = items;
    }

    /// <summary>The etag the acknowledgement moves the position to.</summary>
    public long LastEtag { get; }

    /// <summary>The changes of the batch.</summary>
    public IReadOnlyList<SubscriptionItem<T>> Items { get; }
}
