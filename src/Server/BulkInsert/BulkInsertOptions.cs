namespace Folio.Server.BulkInsert;

/// <summary>
/// How <c>POST /databases/{db}/bulk_insert</c> cuts a stream into transactions and reports progress,
/// bound from the <c>BulkInsert</c> section (e.g. <c>--BulkInsert:MaxBatchCommands=2000</c>).
/// </summary>
public sealed class BulkInsertOptions
{
    /// <summary>
    /// Document bytes after which a batch goes to the merger even if more data is waiting (16 MB by default).
    /// With at most two batches per stream (one committing, one filling) this bounds a stream's memory.
    /// </summary>
    public long MaxBatchBytes { get; set; } = 16L * 1024 * 1024;

    /// <summary>Commands after which a batch goes to the merger even if more data is waiting.</summary>
    public int MaxBatchCommands { get; set; } = 4096;

    /// <summary>How often a running bulk insert logs its progress (documents, MB, rate).</summary>
    public TimeSpan ProgressInterval { get; set; } = TimeSpan.FromSeconds(5);

    /// <summary>Lists the settings that are out of range.</summary>
    /// <returns>One message per invalid setting.</returns>
    public IEnumerable<string> Validate()
    {
        if (MaxBatchBytes <= 0)
            yield return "BulkInsert:MaxBatchBytes must be positive.";
        if (MaxBatchCommands <= 0)
            yield return "BulkInsert:MaxBatchCommands must be positive.";
        if (ProgressInterval <= TimeSpan.Zero)
            yield return "BulkInsert:ProgressInterval must be positive.";
    }
}
