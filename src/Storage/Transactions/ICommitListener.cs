namespace Folio.Storage.Transactions;

/// <summary>Told when the write transaction it was registered with (<see cref="WriteTransaction.OnCommitted"/>) has committed.</summary>
internal interface ICommitListener
{
    /// <summary>
    /// Runs on the committing thread once the transaction is durable and visible to new readers, while the
    /// write lock is still held, so the listeners of successive transactions run in commit order. The
    /// commit has happened and cannot be undone: this must not throw, and the next writer waits behind it.
    /// </summary>
    void Committed();
}
