namespace Folio.Client.Exceptions;

/// <summary>The server ended a subscription worker's session with an error (docs/tcp-protocol.md): <see cref="Code"/> says which.</summary>
public sealed class SubscriptionException : FolioException
{
    /// <summary>Creates the exception from the server's error message.</summary>
    public SubscriptionException(string code, string? detail)
        : base($"Subscription error {code}: {detail}")
    {
        Code = code;
        ProtocolDetail = detail;
    }

    /// <summary>The error's code: <c>Invalid</c>, <c>DatabaseNotFound</c>, <c>NotFound</c>, <c>InUse</c>, <c>TakenOver</c>, <c>Deleted</c>, <c>DatabaseClosed</c>, <c>Unauthorized</c>, <c>Forbidden</c>, <c>TooManyAttempts</c>.</summary>
    public string Code { get; }

    /// <summary>The server's explanation.</summary>
    public string? ProtocolDetail { get; }

    /// <summary>
    /// Whether reconnecting cannot help: the subscription or database is gone, another worker took it, the worker spoke
    /// wrongly, or its credentials were refused (the same ones would be refused again; only <c>TooManyAttempts</c> passes).
    /// </summary>
    public bool IsFinal => Code is "Invalid" or "DatabaseNotFound" or "NotFound" or "TakenOver" or "Deleted" or "Unauthorized" or "Forbidden";
}
