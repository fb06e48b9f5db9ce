namespace Folio.Storage.Transactions;

/// <summary>A transaction seen running at some moment: it has ended once its generation moved on.</summary>
internal readonly record struct ActiveTransaction(PageTransaction Transaction, int Generation)
{
    public bool HasEnded => Transaction.Generation != Generation;
}
