namespace Folio.Client.Subscriptions;

/// <summary>A document a subscription delivers: stored (<see cref="Result"/> holds it) or deleted.</summary>
/// <typeparam name="T">The type the document is read as.</typeparam>
public sealed class SubscriptionItem<T>
{
    internal SubscriptionItem(long etag, string id, string changeType, string? changeVector, T? result)
    {
        Etag = etag;
        Id = id;
        ChangeType = changeType;
        ChangeVector = changeVector;
        Result = result;
    }

    /// <summary>The change's etag.</summary>
    public long Etag { get; }

    /// <summary>The document's id (lower-cased for a delete).</summary>
    public string Id { get; }

    /// <summary><c>Put</c> or <c>Delete</c>.</summary>
    public string ChangeType { get; }

    /// <summary>Whether the document was deleted.</summary>
    public bool IsDeleted => ChangeType == "Delete";

    /// <summary>The version's change vector.</summary>
    public string? ChangeVector { get; }

    /// <summary>The document; default for a delete.</summary>
    public T? Result { get; }
}
