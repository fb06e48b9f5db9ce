namespace Folio.Storage.Transactions;

/// <summary>A transaction that is durable in the journal and waits for the flusher to apply it to the data file.</summary>
internal sealed record CommittedTransaction(long TransactionId, List<PageVersion> Pages, long Bytes);
