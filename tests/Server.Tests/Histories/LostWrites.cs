namespace Folio.Server.Tests.Histories;

/// <summary>
/// Durability of acknowledged writes: after the last restart, with no client running, each document must hold its
/// newest acknowledged write or something newer. Etags grow with every commit and a restart continues after the last
/// durable one, so an acknowledged write with a higher etag than the surviving version (or the same etag and another
/// value) was lost.
/// </summary>
public static class LostWrites
{
    /// <summary>Compares every acknowledged write with the final read.</summary>
    /// <param name="history">The history, ending with a <see cref="OperationKind.FinalRead"/>.</param>
    /// <param name="checkedWrites">How many acknowledged document writes were compared.</param>
    /// <returns>One anomaly per lost write; none when the history has no successful final read.</returns>
    public static List<HistoryAnomaly> Find(History history, out int checkedWrites)
    {
        checkedWrites = 0;
        var anomalies = new List<HistoryAnomaly>();
        HistoryOperation? final = null;
        foreach (var operation in history.Operations)
        {
            if (operation.Kind == OperationKind.FinalRead && operation.Outcome == OperationOutcome.Ok)
                final = operation;
        }

        if (final is null)
            return anomalies;
        Dictionary<string, Observed> survived = FracturedReads.Snapshot(final);
        foreach (var operation in history.Operations)
        {
            if (operation.Outcome != OperationOutcome.Ok || operation.WriteEtags.Count != operation.Writes.Count)
                continue;
            for (int i = 0; i < operation.Writes.Count; i++)
            {
                KeyWrite write = operation.Writes[i];
                long etag = operation.WriteEtags[i];
                if (!survived.TryGetValue(write.Key, out Observed? now))
                    continue;
                checkedWrites++;
                if (now.Etag < etag || (now.Etag == etag && now.Value != write.Value))
                {
                    anomalies.Add(new HistoryAnomaly(AnomalyKind.LostWrite, write.Key,
                        $"{operation} was acknowledged with etag {etag}, but after the last restart the document holds {now.Value ?? "nothing"} (etag {now.Etag})"));
                }
            }
        }

        return anomalies;
    }
}
