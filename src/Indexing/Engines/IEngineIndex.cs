using Folio.Indexing.Search;

namespace Folio.Indexing.Engines;

/// <summary>
/// One open index of a search engine (<see cref="ISearchEngine.Open"/>): one batch writer at a time, any
/// number of searchers, each on a snapshot that never shows half a batch. The index keeps, atomically with
/// each batch, the etag up to which its source was processed, so a crash neither repeats nor skips a change.
/// Disposing it closes it; searchers already open keep their snapshot until they are disposed.
/// </summary>
public interface IEngineIndex : IDisposable
{
    /// <summary>The fields the index was opened with.</summary>
    IndexSchema Schema { get; }

    /// <summary>Completes when the index's files are closed: at dispose, or once the last searcher open then ends.</summary>
    Task Closed { get; }

    /// <summary>How many bytes the index's files take.</summary>
    long SizeOnDisk { get; }

    /// <summary>
    /// The storage environments the index keeps its files in, for what works on them whole (compaction); none for
    /// an engine that keeps its own files.
    /// </summary>
    IReadOnlyList<Folio.Storage.StorageEnvironment> StorageEnvironments => [];

    /// <summary>The etag the last committed batch recorded (<see cref="IEngineBatch.Commit"/>); 0 before the first.</summary>
    long ReadProcessedEtag();

    /// <summary>Starts a batch of adds and deletes that commits as one, with its etag; one batch at a time.</summary>
    /// <exception cref="ObjectDisposedException">The index was closed.</exception>
    IEngineBatch BeginBatch();

    /// <summary>Opens a searcher on the last committed batch.</summary>
    /// <exception cref="ObjectDisposedException">The index was closed.</exception>
    IEngineSearcher OpenSearcher();
}
