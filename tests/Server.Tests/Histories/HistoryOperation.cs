namespace Folio.Server.Tests.Histories;

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
