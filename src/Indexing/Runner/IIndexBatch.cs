using Folio.Storage.Documents;

namespace Folio.Indexing.Runner;

/// <summary>
/// One batch of an index's work, made by <see cref="IIndexBatchProcessor.CreateBatch"/>. The runner adds the
/// changes it read, in etag order, on a preparing thread while the previous batch commits: adding is where
/// the work per document happens (parsing, extracting fields, mapping) and must not touch the index's
/// storage. Then, on the runner's thread, <see cref="Commit(long)"/> applies everything at once.
/// </summary>
public interface IIndexBatch
{
    /// <summary>How many documents the batch indexed (a document it could not take counts as a delete instead).</summary>
    int Documents { get; }

    /// <summary>How many deletes the batch applied.</summary>
    int Deletes { get; }

    /// <summary>The documents the batch could not take, by <see cref="AddDocument"/> or <see cref="Commit(long)"/>; the index went on without them.</summary>
    IReadOnlyList<IndexError> Errors { get; }

    /// <summary>Adds the version of a document a change stored; <paramref name="document"/> is valid only during the call.</summary>
    void AddDocument(Document document);

    /// <summary>Adds a delete: the document was deleted, or left the collection the tombstone names.</summary>
    void AddDelete(Tombstone tombstone);

    /// <summary>
    /// Applies the batch and records <paramref name="upToEtag"/> as processed, in one atomic commit of the
    /// index's storage: after a crash the index holds both or neither.
    /// </summary>
    void Commit(long upToEtag);

    /// <summary>
    /// <see cref="Commit(long)"/>, told whether the runner already knows of changes after this batch
    /// (<paramref name="moreFollows"/>): a batch may then commit its storage but hold back what queries read,
    /// and answer false; the runner then reports its etag as processed only after
    /// <see cref="IIndexBatchProcessor.PublishDeferred"/>. By default every batch publishes.
    /// </summary>
    /// <returns>Whether what queries read now includes the batch.</returns>
    bool Commit(long upToEtag, bool moreFollows)
    {
        Commit(upToEtag);
        return true;
    }
}
