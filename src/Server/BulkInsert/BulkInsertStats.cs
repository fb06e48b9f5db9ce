using System.Text.Json;

namespace Folio.Server.BulkInsert;

/// <summary>Writes the running bulk inserts into a database's stats.</summary>
public static class BulkInsertStats
{
    /// <summary>
    /// Writes <c>"BulkInsertsInProgress": n</c> and <c>"BulkInserts": [{"Id","StartedAt","Documents","Bytes","Batches","LastEtag","ElapsedMs","DocumentsPerSecond"}…]</c>.
    /// </summary>
    /// <param name="writer">A writer inside the stats object.</param>
    /// <param name="tracker">The database's running inserts.</param>
    public static void Write(Utf8JsonWriter writer, BulkInsertTracker tracker)
    {
        ArgumentNullException.ThrowIfNull(writer);
        ArgumentNullException.ThrowIfNull(tracker);
        List<BulkInsertProgress> running = tracker.Snapshot();
        writer.WriteNumber("BulkInsertsInProgress"u8, running.Count);
        writer.WriteStartArray("BulkInserts"u8);
        foreach (BulkInsertProgress progress in running)
        {
            double elapsed = progress.Elapsed.TotalSeconds;
            writer.WriteStartObject();
            writer.WriteNumber("Id"u8, progress.Id);
            writer.WriteString("StartedAt"u8, progress.StartedAt);
            writer.WriteNumber("Documents"u8, progress.Documents);
            writer.WriteNumber("Bytes"u8, progress.Bytes);
            writer.WriteNumber("Batches"u8, progress.Batches);
            writer.WriteNumber("LastEtag"u8, progress.LastEtag);
            writer.WriteNumber("ElapsedMs"u8, Math.Round(elapsed * 1000, 1));
            writer.WriteNumber("DocumentsPerSecond"u8, Math.Round(progress.Documents / Math.Max(elapsed, 1e-3)));
            writer.WriteEndObject();
        }

        writer.WriteEndArray();
    }
}
