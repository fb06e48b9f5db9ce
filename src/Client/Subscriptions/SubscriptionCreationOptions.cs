namespace Folio.Client.Subscriptions;

/// <summary>What a new subscription delivers and from where.</summary>
public sealed class SubscriptionCreationOptions
{
    /// <summary>Its name (unique in the database).</summary>
    public required string Name { get; init; }

    /// <summary>A query that reads a collection and may only filter it: <c>from Orders where Total &gt; 100</c>.</summary>
    public required string Query { get; init; }

    /// <summary><c>Beginning</c> (the default), <c>Now</c>, or an etag after which to deliver.</summary>
    public string StartFrom { get; init; } = "Beginning";
}
