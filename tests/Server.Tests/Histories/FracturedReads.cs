namespace Folio.Server.Tests.Histories;

/// <summary>
/// Batch atomicity as readers see it. Each batch writes its id into every document it writes, and all its writes
/// commit in one transaction, so their etags form a range no other write's etag falls in. A snapshot read (a load of
/// several ids, a query, the final read) that sees document A at batch B's version must then see each other document
/// of B at B's version or a newer one: a version of another batch or write with an etag below A's is older than B.
/// </summary>
public static class FracturedReads
{
    /// <summary>Finds every fractured snapshot read.</summary>
    /// <param name="history">The history.</param>
    /// <param name="snapshots">How many snapshot reads of two or more documents were checked.</param>
    /// <returns>One anomaly per document seen older than its batch sibling.</returns>
    public static List<HistoryAnomaly> Find(History history, out int snapshots)
    {
        var batches = new Dictionary<string, HistoryOperation>(StringComparer.Ordinal);
        foreach (var operation in history.Operations)
        {
            if (operation.Batch is not null)
                batches[operation.Batch] = operation;
        }

        var anomalies = new List<HistoryAnomaly>();
        snapshots = 0;
        foreach (var operation in history.Operations)
        {
            if (operation.Outcome != OperationOutcome.Ok || operation.Kind is not (OperationKind.MultiRead or OperationKind.Query or OperationKind.FinalRead))
                continue;
            Dictionary<string, Observed> seen = Snapshot(operation);
            if (seen.Count < 2)
                continue;
            snapshots++;
            foreach (Observed first in seen.Values)
            {
                if (first.Batch is null || !batches.TryGetValue(first.Batch, out HistoryOperation? batch))
                    continue;
                foreach (KeyWrite sibling in batch.Writes)
                {
                    if (sibling.Key == first.Key || !seen.TryGetValue(sibling.Key, out Observed? other))
                        continue;
                    if (other.Batch != first.Batch && other.Etag < first.Etag)
                    {
                        anomalies.Add(new HistoryAnomaly(AnomalyKind.FracturedRead, other.Key,
                            $"{operation} saw {first.Key} at {first.Batch} (etag {first.Etag}) but {other.Key} at the older {other.Value ?? "missing"} (etag {other.Etag}); the batch was {batch}"));
                    }
                }
            }
        }

        return anomalies;
    }

    /// <summary>
    /// What a successful read saw, by document: its observations, and each key it asked for but did not get as missing.
    /// </summary>
    /// <param name="operation">A read.</param>
    /// <returns>Document id to what was seen.</returns>
    public static Dictionary<string, Observed> Snapshot(HistoryOperation operation)
    {
        var seen = new Dictionary<string, Observed>(StringComparer.Ordinal);
        foreach (Observed observed in operation.Reads)
            seen[observed.Key] = observed;
        foreach (string key in operation.Keys)
            seen.TryAdd(key, new Observed(key, null, null, 0));
        return seen;
    }
}
