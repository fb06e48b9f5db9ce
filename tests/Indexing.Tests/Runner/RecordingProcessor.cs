using System.Collections.Concurrent;
using Folio.Indexing.Engines;
using Folio.Indexing.Runner;
using Folio.Indexing.Search;

namespace Folio.Indexing.Tests.Runner;

/// <summary>
/// A processor that keeps what it commits in memory, for tests of the runner: each committed batch (in
/// commit order) and the etag the last one recorded, as an index's storage would.
/// </summary>
internal sealed class RecordingProcessor(long storedEtag = 0) : IIndexBatchProcessor
{
    private long _storedEtag = storedEtag;
    private int _created;
    private int _disposals;
    private long _publishedEtag = storedEtag;
    private int _deferred;
    private int _publications;

    /// <summary>The batches committed so far, in commit order.</summary>
    public ConcurrentQueue<RecordingBatch> Committed { get; } = new();

    /// <summary>Documents (by lower-cased id) whose AddDocument records an error instead of taking them.</summary>
    public HashSet<string> Rejected { get; init; } = [];

    /// <summary>When set, every commit waits for it: holds the runner's thread inside a commit.</summary>
    public ManualResetEventSlim? CommitGate { get; init; }

    /// <summary>When set, every commit calls it first, with the batch, on the runner's turn.</summary>
    public Action<RecordingBatch>? Committing { get; init; }

    /// <summary>When set, a commit throws it.</summary>
    public Exception? CommitFailure { get; set; }

    /// <summary>Set once a batch other than the first has had a change added.</summary>
    public ManualResetEventSlim LaterBatchFilled { get; } = new(false);

    /// <summary>When set, a batch told more changes follow holds back what queries read until <see cref="PublishDeferred"/>.</summary>
    public bool Defers { get; init; }

    /// <summary>The etag what queries read includes: the last published commit's.</summary>
    public long PublishedEtag => Volatile.Read(ref _publishedEtag);

    /// <summary>How many batches held back what queries read, and how many times that was published.</summary>
    public (int Deferred, int Publications) Deferrals => (Volatile.Read(ref _deferred), Volatile.Read(ref _publications));

    /// <summary>Reads the runner's processed etag, checked at every commit against <see cref="PublishedEtag"/>.</summary>
    public Func<long>? ProcessedEtagProbe { get; set; }

    /// <summary>Processed etags the runner reported beyond what was published, as seen at commits.</summary>
    public ConcurrentQueue<long> ReportedAheadOfPublished { get; } = new();

    /// <summary>The etag the last commit recorded.</summary>
    public long StoredEtag => Volatile.Read(ref _storedEtag);

    /// <summary>How many times the processor was disposed.</summary>
    public int Disposals => Volatile.Read(ref _disposals);

    public IndexSchema Schema { get; } = new IndexSchema().Add("Name", FieldKind.Exact);

    public long SizeOnDisk => 0;

    public Task Closed => Task.CompletedTask;

    public long ReadProcessedEtag() => StoredEtag;

    public IIndexBatch CreateBatch() => new RecordingBatch(this, Interlocked.Increment(ref _created));

    public IEngineSearcher OpenSearcher() => throw new NotSupportedException("The recording processor keeps no searchable index.");

    public void Dispose() => Interlocked.Increment(ref _disposals);

    public IReadOnlyList<IndexError> PublishDeferred()
    {
        Interlocked.Increment(ref _publications);
        Volatile.Write(ref _publishedEtag, StoredEtag);
        return [];
    }

    internal bool Commit(RecordingBatch batch, long upToEtag, bool moreFollows)
    {
        CommitGate?.Wait();
        Committing?.Invoke(batch);
        if (CommitFailure is { } failure)
            throw failure;
        if (ProcessedEtagProbe?.Invoke() is { } processed && processed > PublishedEtag)
            ReportedAheadOfPublished.Enqueue(processed);
        Committed.Enqueue(batch);
        Volatile.Write(ref _storedEtag, upToEtag);
        if (Defers && moreFollows)
        {
            Interlocked.Increment(ref _deferred);
            return false;
        }
        Volatile.Write(ref _publishedEtag, upToEtag);
        return true;
    }
}
