using System.Text;

namespace Folio.Server.Tests.Histories;

/// <summary>What a check of a history covered and found.</summary>
public sealed class HistoryReport
{
    /// <summary>Operations in the history, by outcome.</summary>
    public int Operations { get; init; }

    public int Acknowledged { get; init; }

    /// <summary>Refused, or never sent because the process was dead.</summary>
    public int Refused { get; init; }

    public int Unknown { get; init; }

    /// <summary>Kills of the server during the history.</summary>
    public int Kills { get; init; }

    /// <summary>Per-document register steps the linearizability search ordered (or dropped, when of unknown outcome).</summary>
    public int RegisterSteps { get; init; }

    /// <summary>Documents checked as registers.</summary>
    public int Keys { get; init; }

    /// <summary>Successful multi-document reads (loads, queries, the final read) checked for fractured batches.</summary>
    public int SnapshotReads { get; init; }

    /// <summary>Acknowledged writes checked against the final state.</summary>
    public int AcknowledgedWrites { get; init; }

    /// <summary>Operations by kind: acknowledged (answered), refused, unknown.</summary>
    public required IReadOnlyDictionary<OperationKind, (int Ok, int Refused, int Unknown)> ByKind { get; init; }

    public required IReadOnlyList<HistoryAnomaly> Anomalies { get; init; }

    /// <summary>One paragraph for the test output: the figures, then each anomaly.</summary>
    /// <returns>The text.</returns>
    public string Describe()
    {
        var text = new StringBuilder();
        text.Append($"{Operations} operations ({Acknowledged} acknowledged, {Refused} refused, {Unknown} of unknown outcome) across {Kills} kills; ");
        text.Append($"{RegisterSteps} register steps on {Keys} documents checked for linearizability, {SnapshotReads} snapshot reads for fractured batches, ");
        text.Append($"{AcknowledgedWrites} acknowledged writes against the final state; {Anomalies.Count} anomalies").AppendLine();
        text.Append("  by kind (ok/refused/unknown):");
        foreach ((OperationKind kind, (int ok, int refused, int unknown)) in ByKind)
            text.Append($" {kind} {ok}/{refused}/{unknown};");
        foreach (var anomaly in Anomalies)
            text.AppendLine().Append("  ").Append(anomaly);
        return text.ToString();
    }
}
