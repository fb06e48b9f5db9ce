using Folio.Indexing.Engines;
using Folio.Indexing.Search;

namespace Folio.Indexing.Runner;

/// <summary>
/// What an index does with the changes its <see cref="IndexRunner"/> reads, and how queries read the result.
/// The runner decides when and what to read; the processor decides what the changes become in the index's
/// own storage and commits that together with the etag the batch reached, so a crash neither repeats nor
/// skips a change. A map index, a map/reduce index (map entries and the reduce results of the groups a batch
/// touched, in one transaction) and an index on another search engine (the etag in its commit's user data)
/// are each one processor under the same runner.
/// </summary>
public interface IIndexBatchProcessor : IDisposable
{
    /// <summary>The schema queries compile against.</summary>
    IndexSchema Schema { get; }

    /// <summary>How many bytes the index's files take.</summary>
    long SizeOnDisk { get; }

    /// <summary>The storage environments the index keeps its data in (none for an engine with files of its own), for compaction.</summary>
    IReadOnlyList<Folio.Storage.StorageEnvironment> Environments => [];

    /// <summary>Completes when the index's files are closed: at <see cref="IDisposable.Dispose"/>, or once the last searcher open then ends.</summary>
    Task Closed { get; }

    /// <summary>The etag the last committed batch recorded (0 for a new index): where the runner resumes after a restart.</summary>
    long ReadProcessedEtag();

    /// <summary>
    /// Finishes, on the runner's thread before its first batch, what the index's last batches left to do outside
    /// its own storage (a map/reduce index's output documents); nothing by default.
    /// </summary>
    void Recover()
    {
    }

    /// <summary>
    /// Makes what queries read include every batch committed so far, after batches held it back
    /// (<see cref="IIndexBatch.Commit(long, bool)"/> answered false); the runner calls it once it has no more
    /// changes to read, before it reports their etag as processed. Nothing by default.
    /// </summary>
    /// <returns>What could not be published (the runner records it with the index's errors).</returns>
    IReadOnlyList<IndexError> PublishDeferred() => [];

    /// <summary>A new, empty batch for the runner to fill with the next stretch of changes.</summary>
    IIndexBatch CreateBatch();

    /// <summary>A searcher on the last committed batch; it stays readable until disposed, even once the processor is.</summary>
    /// <exception cref="ObjectDisposedException">The processor was disposed.</exception>
    IEngineSearcher OpenSearcher();
}
