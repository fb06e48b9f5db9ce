using Folio.Storage.Trees;

namespace Folio.Storage.Transactions;

/// <summary>
/// A read transaction: a snapshot of the last commit before it began, kept until disposed. A small
/// handle over a pooled seat, so opening one allocates nothing; after disposal every copy of the
/// handle (and every tree opened through it) throws <see cref="ObjectDisposedException"/>.
/// </summary>
public readonly struct ReadTransaction : IDisposable
{
    private readonly ReaderSlot _slot;
    private readonly int _generation;

    internal ReadTransaction(ReaderSlot slot, int generation)
    {
        _slot = slot;
        _generation = generation;
    }

    /// <summary>The id of the committed transaction this snapshot shows.</summary>
    public long Id
    {
        get
        {
            Transaction.EnsureUsable(_generation);
            return Transaction.SnapshotId;
        }
    }

    private PageTransaction Transaction => _slot?.Transaction ?? throw new ObjectDisposedException(nameof(ReadTransaction), "This read transaction was never opened.");

    /// <summary>The tree named <paramref name="name"/>, or null if it does not exist in this snapshot.</summary>
    public Tree? OpenTree(string name)
    {
        Transaction.EnsureUsable(_generation);
        return Transaction.OpenTree(name, TreeKind.Regular);
    }

    /// <summary>The multi-value tree named <paramref name="name"/>, or null.</summary>
    public MultiValueTree? OpenMultiValueTree(string name)
    {
        Transaction.EnsureUsable(_generation);
        return Transaction.OpenTree(name, TreeKind.MultiValue) is { } tree ? new MultiValueTree(tree) : null;
    }

    /// <summary>The fixed-size tree named <paramref name="name"/>, or null.</summary>
    public FixedSizeTree? OpenFixedSizeTree(string name)
    {
        Transaction.EnsureUsable(_generation);
        return Transaction.OpenTree(name, TreeKind.FixedSize) is { } tree ? new FixedSizeTree(tree) : null;
    }

    /// <summary>The page-level transaction behind the handle, for the engine's own walks (compaction).</summary>
    internal PageTransaction Pages
    {
        get
        {
            Transaction.EnsureUsable(_generation);
            return Transaction;
        }
    }

    internal void Verify()
    {
        Transaction.EnsureUsable(_generation);
        Verification.EnvironmentVerifier.Verify(Transaction, Transaction.State);
    }

    internal Reporting.SpaceReport ReportSpace(long dataFilePages)
    {
        Transaction.EnsureUsable(_generation);
        return Reporting.SpaceReporter.Report(Transaction, Transaction.State, dataFilePages);
    }

    /// <summary>Ends the snapshot; a second call does nothing.</summary>
    public void Dispose()
    {
        if (_slot is null || _slot.Transaction.Generation != _generation)
            return;
        _slot.Transaction.End();
        _slot.Release();
    }
}
