using Folio.Storage.Trees;

namespace Folio.Storage.Transactions;

/// <summary>
/// The one write transaction of an environment. Its changes are invisible to everyone else until
/// <see cref="Commit"/> returns, which is when they are durable. Disposing without committing rolls back.
/// </summary>
public sealed class WriteTransaction : IDisposable
{
    private readonly StorageEnvironment _environment;
    private readonly PageTransaction _transaction;
    private readonly int _generation;
    private ICommitListener? _listener;
    private List<ICommitListener>? _moreListeners;

    internal WriteTransaction(StorageEnvironment environment, PageTransaction transaction)
    {
        _environment = environment;
        _transaction = transaction;
        _generation = transaction.Generation;
    }

    /// <summary>The id of the snapshot this transaction started from.</summary>
    public long SnapshotId
    {
        get
        {
            _transaction.EnsureUsable(_generation);
            return _transaction.SnapshotId;
        }
    }

    /// <summary>The tree named <paramref name="name"/>, or null.</summary>
    public Tree? OpenTree(string name)
    {
        _transaction.EnsureUsable(_generation);
        return _transaction.OpenTree(name, TreeKind.Regular);
    }

    /// <summary>The tree named <paramref name="name"/>, created if it does not exist.</summary>
    public Tree CreateTree(string name)
    {
        _transaction.EnsureUsable(_generation);
        return _transaction.CreateTree(name, TreeKind.Regular, 0);
    }

    /// <summary>The multi-value tree named <paramref name="name"/>, or null.</summary>
    public MultiValueTree? OpenMultiValueTree(string name)
    {
        _transaction.EnsureUsable(_generation);
        return _transaction.OpenTree(name, TreeKind.MultiValue) is { } tree ? new MultiValueTree(tree) : null;
    }

    /// <summary>The multi-value tree named <paramref name="name"/>, created if it does not exist.</summary>
    public MultiValueTree CreateMultiValueTree(string name)
    {
        _transaction.EnsureUsable(_generation);
        return new MultiValueTree(_transaction.CreateTree(name, TreeKind.MultiValue, 0));
    }

    /// <summary>The fixed-size tree named <paramref name="name"/>, or null.</summary>
    public FixedSizeTree? OpenFixedSizeTree(string name)
    {
        _transaction.EnsureUsable(_generation);
        return _transaction.OpenTree(name, TreeKind.FixedSize) is { } tree ? new FixedSizeTree(tree) : null;
    }

    /// <summary>The fixed-size tree named <paramref name="name"/> with values of <paramref name="valueSize"/> bytes, created if needed.</summary>
    public FixedSizeTree CreateFixedSizeTree(string name, int valueSize)
    {
        _transaction.EnsureUsable(_generation);
        ArgumentOutOfRangeException.ThrowIfNegative(valueSize);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(valueSize, FixedSizeTree.MaxValueSize);
        return new FixedSizeTree(_transaction.CreateTree(name, TreeKind.FixedSize, valueSize));
    }

    /// <summary>Deletes a tree of any kind and frees its pages; returns whether it existed.</summary>
    public bool DeleteTree(string name)
    {
        _transaction.EnsureUsable(_generation);
        return _transaction.DeleteTree(name);
    }

    /// <summary>The page-level transaction behind the handle, for the engine's own writes (compaction).</summary>
    internal PageTransaction Pages
    {
        get
        {
            _transaction.EnsureUsable(_generation);
            return _transaction;
        }
    }

    /// <summary>
    /// Registers <paramref name="listener"/> to be told once this transaction has committed; a rollback
    /// forgets it. What a transaction wrote is known best while it is written, and this is how it is
    /// announced once it is durable, in commit order, without anyone waiting for the writer.
    /// </summary>
    internal void OnCommitted(ICommitListener listener)
    {
        _transaction.EnsureUsable(_generation);
        if (_listener is null)
            _listener = listener;
        else
            (_moreListeners ??= []).Add(listener);
    }

    /// <summary>Makes the changes durable and visible, and ends the transaction.</summary>
    public void Commit()
    {
        _transaction.EnsureUsable(_generation);
        try
        {
            _environment.Commit(_transaction);
            _listener?.Committed();
            if (_moreListeners is not null)
            {
                foreach (var listener in _moreListeners)
                    listener.Committed();
            }
        }
        finally
        {
            _environment.EndWrite();
        }
    }

    /// <summary>Discards the changes and ends the transaction.</summary>
    public void Rollback()
    {
        _transaction.EnsureUsable(_generation);
        _environment.EndWrite();
    }

    /// <summary>Rolls back unless committed; a second call does nothing.</summary>
    public void Dispose()
    {
        if (_transaction.Generation == _generation)
            _environment.EndWrite();
    }
}
