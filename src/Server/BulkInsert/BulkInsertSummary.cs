namespace Folio.Server.BulkInsert;

/// <summary>What a finished bulk insert did, as answered to the client and logged.</summary>
/// <param name="Documents">Documents stored.</param>
/// <param name="Bytes">Body bytes (after decompression) the stored commands spanned.</param>
/// <param name="LastEtag">Etag of the last document stored; 0 when none was.</param>
/// <param name="Batches">Transactions the stream was cut into.</param>
/// <param name="Duration">Time from the first read to the last commit.</param>
/// <param name="Parse">Time spent parsing and validating commands.</param>
/// <param name="NetworkWait">Time spent waiting for the client's bytes.</param>
/// <param name="CommitWait">Time spent waiting for a batch's commit before the next could go.</param>
public readonly record struct BulkInsertSummary(
    long Documents,
    long Bytes,
    long LastEtag,
    long Batches,
    TimeSpan Duration,
    TimeSpan Parse,
    TimeSpan NetworkWait,
    TimeSpan CommitWait);
