namespace Folio.Server.Tests.Histories;

/// <summary>What a recorded operation asked the server to do.</summary>
public enum OperationKind
{
    /// <summary><c>GET docs?id=</c> of one document.</summary>
    Read,

    /// <summary><c>GET docs?id=a&amp;id=b…</c>: several documents from one snapshot.</summary>
    MultiRead,

    /// <summary>A query waiting for non-stale results: every document it answers comes from one snapshot.</summary>
    Query,

    /// <summary>A <c>PUT docs?id=</c>, conditional (<c>If-Match</c>) when its write names an expected value.</summary>
    Write,

    /// <summary>A <c>bulk_docs</c> batch: its writes commit together or not at all.</summary>
    Batch,

    /// <summary>The read of every key once the last restart is over and no client runs: what survived.</summary>
    FinalRead,
}

/// <summary>How an operation ended, as far as its client can know.</summary>
public enum OperationOutcome
{
    /// <summary>Answered with success: a write is acknowledged, a read saw what <see cref="HistoryOperation.Reads"/> holds.</summary>
    Ok,

    /// <summary>Answered with a definite refusal (a 409 for a write, any error for a read): it changed nothing.</summary>
    Failed,

    /// <summary>No answer (cut by a kill, timed out) or an answer that does not say: it may or may not have taken effect.</summary>
    Unknown,
}

/// <summary>One document as a read saw it.</summary>
/// <param name="Key">The document id.</param>
/// <param name="Value">The unique value of the write that made this version, or null when the document was missing.</param>
/// <param name="Batch">The batch that write belonged to, or null for a single write.</param>
/// <param name="Etag">The version's etag (from its change vector), 0 when missing.</param>
public sealed record Observed(string Key, string? Value, string? Batch, long Etag);

/// <summary>One document write of an operation.</summary>
/// <param name="Key">The document id.</param>
/// <param name="Value">The unique value it writes.</param>
/// <param name="Expected">The value the document must hold for the write to apply (a compare-and-set), or null for a blind write.</param>
public sealed record KeyWrite(string Key, string Value, string? Expected);

/// <summary>
/// One operation of a history: invoked and completed at monotonic timestamps (<see cref="System.Diagnostics.Stopwatch"/>
/// ticks in a real run, small numbers in hand-made histories), with what it wrote and what it saw.
/// </summary>
public sealed class HistoryOperation
{
    /// <summary>Unique within the history.</summary>
    public required int Id { get; init; }

    /// <summary>The client that ran it (one operation at a time per client).</summary>
    public required int Client { get; init; }

    public required OperationKind Kind { get; init; }

    public required long Invoked { get; init; }

    /// <summary>When the answer (or the error) arrived; meaningless while <see cref="Outcome"/> is <see cref="OperationOutcome.Unknown"/>.</summary>
    public long Completed { get; set; }

    public OperationOutcome Outcome { get; set; } = OperationOutcome.Unknown;

    /// <summary>The batch id a <see cref="OperationKind.Batch"/> writes into each of its documents.</summary>
    public string? Batch { get; init; }

    /// <summary>The documents it writes (one for a <see cref="OperationKind.Write"/>).</summary>
    public IReadOnlyList<KeyWrite> Writes { get; init; } = [];

    /// <summary>The etag the server gave each write, in <see cref="Writes"/> order, once acknowledged.</summary>
    public IReadOnlyList<long> WriteEtags { get; set; } = [];

    /// <summary>The keys a read asked for; any of them missing from <see cref="Reads"/> was seen as missing.</summary>
    public IReadOnlyList<string> Keys { get; init; } = [];

    /// <summary>What a successful read saw, all from one snapshot for a multi-document read.</summary>
    public IReadOnlyList<Observed> Reads { get; set; } = [];

    /// <summary>Why it failed or is unknown: the status or the exception.</summary>
    public string? Error { get; set; }

    /// <inheritdoc />
    public override string ToString()
    {
        string writes = Writes.Count == 0 ? "" : " writes " + string.Join(", ", Writes.Select(w => w.Expected is null ? $"{w.Key}:={w.Value}" : $"{w.Key}:{w.Expected}→{w.Value}"));
        string reads = Reads.Count == 0 ? "" : " saw " + string.Join(", ", Reads.Select(r => $"{r.Key}={r.Value ?? "missing"}@{r.Etag}{(r.Batch is null ? "" : "/" + r.Batch)}"));
        string batch = Batch is null ? "" : " " + Batch;
        string error = Error is null ? "" : $" ({Error})";
        return $"#{Id} client {Client} {Kind}{batch}{writes}{reads} [{Invoked}, {(Outcome == OperationOutcome.Unknown ? "?" : Completed)}] {Outcome}{error}";
    }
}
