namespace Folio.Indexing.Runner;

/// <summary>What an index has done since it was opened, for counters that only grow (metrics scrapes).</summary>
/// <param name="Documents">Documents indexed, in every batch.</param>
/// <param name="Deletes">Deletes applied.</param>
/// <param name="Batches">Batches committed.</param>
/// <param name="BatchSeconds">Time spent committing those batches.</param>
public readonly record struct IndexTotals(long Documents, long Deletes, long Batches, double BatchSeconds);
