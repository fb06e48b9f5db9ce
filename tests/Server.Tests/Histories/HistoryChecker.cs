namespace Folio.Server.Tests.Histories;

/// <summary>
/// Checks a history three ways: each document's operations are linearizable as a compare-and-set register (every
/// operation takes effect at one instant between its invocation and its answer; one of unknown outcome may also never
/// take effect, and cannot take effect after the kill that cut it); no acknowledged write is missing from the final
/// state (<see cref="LostWrites"/>); no snapshot read sees part of a batch (<see cref="FracturedReads"/>).
/// </summary>
public static class HistoryChecker
{
    private const int Missing = -1;

    /// <summary>Runs every check.</summary>
    /// <param name="history">The history.</param>
    /// <returns>The figures and the anomalies.</returns>
    public static HistoryReport Check(History history)
    {
        var anomalies = new List<HistoryAnomaly>();
        var values = new Dictionary<string, int>(StringComparer.Ordinal);
        var byKey = RegisterSteps(history, values);
        var names = new string[values.Count];
        foreach ((string value, int number) in values)
            names[number] = value;

        int registerSteps = 0;
        foreach ((string key, List<RegisterStep> steps) in byKey)
        {
            registerSteps += steps.Count;
            RegisterVerdict verdict = RegisterLinearizability.Check(steps, Missing);
            if (!verdict.Linearizable)
                anomalies.Add(Describe(key, steps, verdict, names));
        }

        anomalies.AddRange(LostWrites.Find(history, out int acknowledgedWrites));
        anomalies.AddRange(FracturedReads.Find(history, out int snapshotReads));
        int ok = 0, refused = 0;
        var byKind = new SortedDictionary<OperationKind, (int Ok, int Refused, int Unknown)>();
        foreach (var operation in history.Operations)
        {
            (int Ok, int Refused, int Unknown) counts = byKind.GetValueOrDefault(operation.Kind);
            if (operation.Outcome == OperationOutcome.Ok)
            {
                ok++;
                counts.Ok++;
            }
            else if (operation.Outcome is OperationOutcome.Failed or OperationOutcome.NotSent)
            {
                refused++;
                counts.Refused++;
            }
            else
            {
                counts.Unknown++;
            }

            byKind[operation.Kind] = counts;
        }

        return new HistoryReport
        {
            Operations = history.Operations.Count,
            Acknowledged = ok,
            Refused = refused,
            Unknown = history.Operations.Count - ok - refused,
            Kills = history.Kills.Count,
            RegisterSteps = registerSteps,
            Keys = byKey.Count,
            SnapshotReads = snapshotReads,
            AcknowledgedWrites = acknowledgedWrites,
            ByKind = byKind,
            Anomalies = anomalies,
        };
    }

    /// <summary>
    /// Each document's steps: a successful read of it (alone or in a snapshot), an acknowledged write, a refused
    /// compare-and-set (it saw another value), and an unknown write as an optional step bounded by the next kill.
    /// A refused batch says nothing about any one document (any of its conditions may have failed), so it adds none.
    /// </summary>
    private static SortedDictionary<string, List<RegisterStep>> RegisterSteps(History history, Dictionary<string, int> values)
    {
        var byKey = new SortedDictionary<string, List<RegisterStep>>(StringComparer.Ordinal);
        foreach (var operation in history.Operations)
        {
            if (operation.Outcome == OperationOutcome.NotSent)
                continue;
            if (operation.Writes.Count > 0)
            {
                AddWrites(history, operation, values, byKey);
                continue;
            }

            if (operation.Outcome != OperationOutcome.Ok)
                continue;
            foreach (Observed observed in FracturedReads.Snapshot(operation).Values)
            {
                int value = observed.Value is null ? Missing : Number(values, observed.Value);
                Add(byKey, observed.Key, new RegisterStep(operation, RegisterStepKind.Read, value, 0, operation.Invoked, operation.Completed, false));
            }
        }

        return byKey;
    }

    private static void AddWrites(History history, HistoryOperation operation, Dictionary<string, int> values, SortedDictionary<string, List<RegisterStep>> byKey)
    {
        bool refused = operation.Outcome == OperationOutcome.Failed;
        if (refused && operation.Kind == OperationKind.Batch)
            return;
        bool unknown = operation.Outcome == OperationOutcome.Unknown;
        long end = unknown ? history.EffectDeadline(operation) ?? long.MaxValue : operation.Completed;
        foreach (KeyWrite write in operation.Writes)
        {
            int expected = write.Expected is null ? Missing : Number(values, write.Expected);
            RegisterStepKind kind = refused ? RegisterStepKind.FailedCompareAndSet
                : write.Expected is null ? RegisterStepKind.Write
                : RegisterStepKind.CompareAndSet;
            if (refused && write.Expected is null)
                continue;
            Add(byKey, write.Key, new RegisterStep(operation, kind, Number(values, write.Value), expected, operation.Invoked, end, unknown));
        }
    }

    private static int Number(Dictionary<string, int> values, string value)
    {
        if (!values.TryGetValue(value, out int number))
        {
            number = values.Count;
            values.Add(value, number);
        }

        return number;
    }

    private static void Add(SortedDictionary<string, List<RegisterStep>> byKey, string key, RegisterStep step)
    {
        if (!byKey.TryGetValue(key, out List<RegisterStep>? steps))
            byKey[key] = steps = [];
        steps.Add(step);
    }

    private static HistoryAnomaly Describe(string key, List<RegisterStep> steps, RegisterVerdict verdict, string[] names)
    {
        if (!verdict.Decided)
            return new HistoryAnomaly(AnomalyKind.Undecided, key, $"the search gave up after ordering {verdict.Longest} of {steps.Count} steps");
        string held = verdict.StuckState == Missing ? "missing" : names[verdict.StuckState];
        string writer = "";
        foreach (RegisterStep step in steps)
        {
            if (step.Kind is RegisterStepKind.Write or RegisterStepKind.CompareAndSet && step.Value == verdict.StuckState)
                writer = $" (written by {step.Operation})";
        }

        return new HistoryAnomaly(AnomalyKind.NotLinearizable, key,
            $"at best {verdict.Longest} of {steps.Count} steps ordered; then the document held {held}{writer}, which contradicts {verdict.Stuck?.Operation}");
    }
}
