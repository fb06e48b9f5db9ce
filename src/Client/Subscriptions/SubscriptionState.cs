namespace Folio.Client.Subscriptions;

/// <summary>A subscription as the server keeps it: its query, where delivery stands and who consumes it.</summary>
public sealed class SubscriptionState
{
    /// <summary>Its name.</summary>
    public string Name { get; set; } = "";

    /// <summary>Its query, e.g. <c>from Orders where Total &gt; 100</c>.</summary>
    public string Query { get; set; } = "";

    /// <summary>The collection it reads.</summary>
    public string Collection { get; set; } = "";

    /// <summary>Delivery resumes after this etag.</summary>
    public long AcknowledgedEtag { get; set; }

    /// <summary>At most this many changes are still to deliver.</summary>
    public long EtagLag { get; set; }

    /// <summary>When it was created.</summary>
    public DateTimeOffset CreatedAt { get; set; }

    /// <summary>The worker connected now, or null.</summary>
    public SubscriptionWorkerInfo? Worker { get; set; }
}
