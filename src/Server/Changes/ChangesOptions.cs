namespace Folio.Server.Changes;

/// <summary>
/// How the changes feed (<c>GET /databases/{db}/changes</c>) waits, keeps connections alive and treats slow
/// consumers, bound from the <c>Changes</c> section (e.g. <c>--Changes:Heartbeat=00:00:10</c>).
/// </summary>
public sealed class ChangesOptions
{
    /// <summary>How long a continuous feed or a WebSocket stays silent before it sends a heartbeat (default 30 s); <c>heartbeat=</c> overrides it per request.</summary>
    public TimeSpan Heartbeat { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>How long a <c>feed=longpoll</c> request waits for a change when it names no <c>timeout=</c> (default 60 s).</summary>
    public TimeSpan LongPollTimeout { get; set; } = TimeSpan.FromSeconds(60);

    /// <summary>
    /// How many etags a WebSocket may trail the newest write before it is told it fell behind and skipped to
    /// the present (default 10,000): live notifications that arrive minutes late are worse than a clear gap the
    /// consumer fills from the HTTP feed with <c>since=</c>.
    /// </summary>
    public long MaxWebSocketLag { get; set; } = 10_000;

    /// <summary>How long one WebSocket message may take to send before the consumer counts as gone and is disconnected (default 30 s).</summary>
    public TimeSpan WebSocketSendTimeout { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>How often a WebSocket watching indexes looks for index changes (default 250 ms).</summary>
    public TimeSpan IndexPollInterval { get; set; } = TimeSpan.FromMilliseconds(250);

    /// <summary>Lists the settings that are out of range.</summary>
    /// <returns>One message per invalid setting.</returns>
    public IEnumerable<string> Validate()
    {
        if (Heartbeat <= TimeSpan.Zero)
            yield return "Changes:Heartbeat must be positive.";
        if (LongPollTimeout <= TimeSpan.Zero)
            yield return "Changes:LongPollTimeout must be positive.";
        if (MaxWebSocketLag <= 0)
            yield return "Changes:MaxWebSocketLag must be positive.";
        if (WebSocketSendTimeout <= TimeSpan.Zero)
            yield return "Changes:WebSocketSendTimeout must be positive.";
        if (IndexPollInterval <= TimeSpan.Zero)
            yield return "Changes:IndexPollInterval must be positive.";
    }
}
