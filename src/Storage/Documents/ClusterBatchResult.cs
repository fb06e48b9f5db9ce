namespace Folio.Storage.Documents;

/// <summary>What a cluster-wide batch wrote.</summary>
/// <param name="TransactionIndex">The index every compare-exchange write of the batch took.</param>
/// <param name="Documents">The document results in command order (null for a delete of a missing document).</param>
/// <param name="CompareExchanges">The compare-exchange results in command order.</param>
public sealed record ClusterBatchResult(long TransactionIndex, IReadOnlyList<WriteResult?> Documents, IReadOnlyList<CompareExchangeResult> CompareExchanges);
