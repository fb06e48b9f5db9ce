using Folio.Storage.Transactions;

namespace Folio.Storage.Documents;

/// <summary>
/// Gathers what the document writes of one write transaction changed and, once that transaction has
/// committed, publishes it as one <see cref="CommittedChanges"/>. The merger runs many operations in a
/// transaction, so this is once per merged commit, not per operation. A store has one collector: every
/// call comes from the holder of the environment's write lock, and a transaction that rolls back (the
/// merger reruns it without a failed operation) is simply replaced by the next one.
/// </summary>
internal sealed class CommitChangeCollector(DocumentStore store) : ICommitListener
{
    // The list keeps its capacity between commits (at most MaxListed entries), so collecting costs no
    // allocation per change; a commit copies it once into the array it publishes.
    private readonly List<DocumentChange> _listed = [];
    private readonly List<string> _collections = [];
    private readonly List<(long Etag, long Ticks)> _times = [];
    private WriteTransaction? _transaction;
    private long _firstEtag;
    private long _lastEtag;
    private int _count;
    private int _deletes;

    /// <summary>The collector for <paramref name="transaction"/>, registered to publish when it commits.</summary>
    public CommitChangeCollector For(WriteTransaction transaction)
    {
        if (!ReferenceEquals(_transaction, transaction))
        {
            Reset();
            _transaction = transaction;
            transaction.OnCommitted(this);
        }
        return this;
    }

    /// <summary>Records a change; etags arrive in increasing order, as the writer takes them.</summary>
    public void Add(long etag, string id, string collection, DocumentChangeKind kind)
    {
        if (_count == 0)
            _firstEtag = etag;
        _lastEtag = etag;
        _count++;
        if (kind == DocumentChangeKind.Delete)
            _deletes++;
        if (_listed.Count < CommittedChanges.MaxListed)
            _listed.Add(new DocumentChange(etag, id, collection, kind));
        AddCollection(collection);
    }

    /// <summary>Records the time a batch of the transaction kept once for its documents (<see cref="WriteTimes"/>), at its first etag.</summary>
    public void KeepTime(long etag, long ticks) => _times.Add((etag, ticks));

    public void Committed()
    {
        // Memory learns the commit's kept times before anyone learns of the commit, so the reads that news starts find
        // them there rather than in the tree.
        if (_times.Count > 0)
            store.WriteTimes.Committed(_times, _lastEtag);
        if (_count > 0)
            store.Publish(new CommittedChanges(_firstEtag - 1, _lastEtag, _count, _deletes, [.. _listed], [.. _collections]));
        Reset();
    }

    private void AddCollection(string collection)
    {
        // A commit usually writes one collection, and most often the one it wrote last.
        for (var i = _collections.Count - 1; i >= 0; i--)
        {
            if (string.Equals(_collections[i], collection, StringComparison.OrdinalIgnoreCase))
                return;
        }
        _collections.Add(collection);
    }

    private void Reset()
    {
        _transaction = null;
        _listed.Clear();
        _collections.Clear();
        _times.Clear();
        _count = 0;
        _deletes = 0;
    }
}
