using System.Collections.Concurrent;
using System.Diagnostics;
using System.Text.Json;

namespace Folio.Server.Tests.Histories;

/// <summary>
/// Records operations as clients invoke and complete them, on one monotonic clock, with the kills between them.
/// Thread-safe: each client records its own operations, the killer its kills.
/// </summary>
public sealed class HistoryRecorder
{
    private readonly ConcurrentQueue<HistoryOperation> _operations = new();
    private readonly ConcurrentQueue<long> _kills = new();
    private int _nextId;

    /// <summary>Records an invocation, now, and returns the operation to complete.</summary>
    /// <param name="client">The client invoking it.</param>
    /// <param name="kind">What it does.</param>
    /// <param name="writes">The documents it writes.</param>
    /// <param name="keys">The documents it reads.</param>
    /// <param name="batch">The batch id of a batch.</param>
    /// <returns>The operation, of unknown outcome until completed.</returns>
    public HistoryOperation Invoke(int client, OperationKind kind, IReadOnlyList<KeyWrite>? writes = null, IReadOnlyList<string>? keys = null, string? batch = null)
    {
        var operation = new HistoryOperation
        {
            Id = Interlocked.Increment(ref _nextId),
            Client = client,
            Kind = kind,
            Invoked = Stopwatch.GetTimestamp(),
            Writes = writes ?? [],
            Keys = keys ?? [],
            Batch = batch,
        };
        _operations.Enqueue(operation);
        return operation;
    }

    /// <summary>Records a definite answer, now.</summary>
    /// <param name="operation">The operation.</param>
    /// <param name="outcome"><see cref="OperationOutcome.Ok"/>, <see cref="OperationOutcome.Failed"/> or <see cref="OperationOutcome.NotSent"/>.</param>
    /// <param name="error">Why it failed.</param>
    public static void Complete(HistoryOperation operation, OperationOutcome outcome, string? error = null)
    {
        operation.Completed = Stopwatch.GetTimestamp();
        operation.Outcome = outcome;
        operation.Error = error;
    }

    /// <summary>Records that the answer never came or says nothing: the operation stays of unknown outcome.</summary>
    /// <param name="operation">The operation.</param>
    /// <param name="error">What happened instead.</param>
    public static void Lose(HistoryOperation operation, string error)
    {
        operation.Completed = Stopwatch.GetTimestamp();
        operation.Outcome = OperationOutcome.Unknown;
        operation.Error = error;
    }

    /// <summary>Records, now, that a killed server process has exited.</summary>
    public void RecordKill() => _kills.Enqueue(Stopwatch.GetTimestamp());

    /// <summary>The history so far, operations in invocation order.</summary>
    /// <returns>A snapshot; operations still running are of unknown outcome in it.</returns>
    public History ToHistory()
    {
        var operations = _operations.ToArray();
        Array.Sort(operations, (a, b) => a.Invoked.CompareTo(b.Invoked));
        var kills = _kills.ToArray();
        Array.Sort(kills);
        return new History(operations, kills);
    }

    /// <summary>Writes a history as JSON lines (kills first, then operations) so a failing run can be studied later.</summary>
    /// <param name="history">The history.</param>
    /// <param name="path">The file to write.</param>
    public static void Save(History history, string path)
    {
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        using var writer = new StreamWriter(path);
        writer.WriteLine(JsonSerializer.Serialize(new { history.Kills }));
        foreach (var operation in history.Operations)
            writer.WriteLine(JsonSerializer.Serialize(operation));
    }
}
