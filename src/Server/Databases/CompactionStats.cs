using System.Text.Json;
using Folio.Storage.Compaction;

namespace Folio.Server.Databases;

/// <summary>The compaction members of a database's stats.</summary>
internal static class CompactionStats
{
    /// <summary>
    /// Writes <c>"Compaction"</c>: the running one's <c>{"Phase","Percent","MegabytesPerSecond","CopiedEntries","TotalEntries",
    /// "CopiedBytes","ElapsedMs","SizeBefore"}</c> or null, and <c>"LastCompaction"</c>: the last completed one's
    /// <c>{"SizeBefore","SizeAfter","ShareReturned","WritesPausedMs","ElapsedMs"}</c> or null, and <c>"CompactionEstimate"</c>:
    /// the last estimate the server made on its own (<c>Databases:CompactWhenQuietFor</c>) of what a compaction would give back,
    /// <c>{"FileBytes","ReclaimableBytes","ReclaimableShare","FreeBytes","SlackBytes","RecompressionBytes","RecompressibleDocuments"}</c> or null.
    /// </summary>
    public static void Write(Utf8JsonWriter writer, CompactionProgress? running, CompactionResult? last, CompactionEstimate? estimate)
    {
        WriteEstimate(writer, estimate);
        if (running is null)
        {
            writer.WriteNull("Compaction"u8);
        }
        else
        {
            writer.WriteStartObject("Compaction"u8);
            writer.WriteString("Phase"u8, running.Phase.ToString());
            writer.WriteNumber("Percent"u8, Math.Round(running.Percent, 1));
            writer.WriteNumber("MegabytesPerSecond"u8, Math.Round(running.MegabytesPerSecond, 1));
            writer.WriteNumber("CopiedEntries"u8, running.CopiedEntries);
            writer.WriteNumber("TotalEntries"u8, running.TotalEntries);
            writer.WriteNumber("CopiedBytes"u8, running.CopiedBytes);
            writer.WriteNumber("ElapsedMs"u8, (long)running.Elapsed.TotalMilliseconds);
            writer.WriteNumber("SizeBefore"u8, running.SizeBefore);
            writer.WriteEndObject();
        }

        if (last is null)
        {
            writer.WriteNull("LastCompaction"u8);
            return;
        }

        writer.WriteStartObject("LastCompaction"u8);
        writer.WriteNumber("SizeBefore"u8, last.SizeBefore);
        writer.WriteNumber("SizeAfter"u8, last.SizeAfter);
        writer.WriteNumber("ShareReturned"u8, Math.Round(last.ShareReturned, 4));
        writer.WriteNumber("WritesPausedMs"u8, Math.Round(last.WritesPaused.TotalMilliseconds, 1));
        writer.WriteNumber("ElapsedMs"u8, (long)last.Elapsed.TotalMilliseconds);
        writer.WriteEndObject();
    }

    private static void WriteEstimate(Utf8JsonWriter writer, CompactionEstimate? estimate)
    {
        if (estimate is null)
        {
            writer.WriteNull("CompactionEstimate"u8);
            return;
        }

        writer.WriteStartObject("CompactionEstimate"u8);
        writer.WriteNumber("FileBytes"u8, estimate.FileBytes);
        writer.WriteNumber("ReclaimableBytes"u8, estimate.ReclaimableBytes);
        writer.WriteNumber("ReclaimableShare"u8, Math.Round(estimate.ReclaimableShare, 4));
        writer.WriteNumber("FreeBytes"u8, estimate.FreeBytes);
        writer.WriteNumber("SlackBytes"u8, estimate.SlackBytes);
        writer.WriteNumber("RecompressionBytes"u8, estimate.RecompressionBytes);
        writer.WriteNumber("RecompressibleDocuments"u8, estimate.RecompressibleDocuments);
        writer.WriteEndObject();
    }
}
