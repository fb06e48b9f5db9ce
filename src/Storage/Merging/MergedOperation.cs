using Folio.Storage.Transactions;

namespace Folio.Storage.Merging;

/// <summary>
/// A unit of write work for the <see cref="TransactionMerger"/>. It may run more than once: when a
/// neighbour in the same merged transaction fails, the transaction is rolled back and rerun without
/// it, so <see cref="Execute"/> must depend only on the transaction it is given.
/// </summary>
public abstract class MergedOperation
{
    /// <summary>Does the work inside the merged transaction. Throwing fails this operation alone.</summary>
    public abstract void Execute(WriteTransaction transaction);

    /// <summary>About how many bytes the operation writes; the merger caps a transaction's total.</summary>
    public virtual long EstimatedBytes => 0;
}
