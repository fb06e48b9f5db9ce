namespace Folio.Server.Subscriptions;

/// <summary>A subscription operation that cannot be done; <see cref="Code"/> says why in one word a client can switch on.</summary>
public sealed class SubscriptionException(string code, string message) : Exception(message)
{
    /// <summary><c>NotFound</c>, <c>Exists</c>, <c>InUse</c>, <c>Invalid</c>.</summary>
    public string Code { get; } = code;
}
