namespace Folio.Server.Subscriptions;

/// <summary>A worker connected to a subscription over TCP: who it is, and how its session is ended from outside.</summary>
public sealed class SubscriptionWorker
{
    private readonly CancellationTokenSource _end = new();

    internal SubscriptionWorker(string address, DateTime connectedAt)
    {
        Address = address;
        ConnectedAt = connectedAt;
    }

    /// <summary>The worker's remote address and port.</summary>
    public string Address { get; }

    /// <summary>When it connected (UTC).</summary>
    public DateTime ConnectedAt { get; }

    /// <summary>Why the session was ended from outside (<c>TakenOver</c>, <c>Deleted</c>), or null.</summary>
    public string? EndedBecause { get; private set; }

    /// <summary>Cancelled when the session must end.</summary>
    internal CancellationToken Ending => _end.Token;

    /// <summary>Ends the session, saying why.</summary>
    internal void End(string because)
    {
        EndedBecause = because;
        _end.Cancel();
    }
}
