using Folio.Indexing.Search;

namespace Folio.Indexing.Engines;

/// <summary>
/// Adds and deletes entries (<see cref="IEngineIndex.BeginBatch"/>), visible to no searcher until
/// <see cref="Commit"/> makes them visible at once, together with the etag they bring the index to.
/// Disposing a batch that was not committed discards it.
/// </summary>
public interface IEngineBatch : IDisposable
{
    /// <summary>Entries added in this batch so far.</summary>
    int Added { get; }

    /// <summary>Entries deleted (or replaced) in this batch so far.</summary>
    int Deleted { get; }

    /// <summary>Indexes <paramref name="entry"/>, replacing any entry with the same key.</summary>
    /// <exception cref="IndexValueException">A value cannot be indexed as its field's kind; the batch keeps no trace of the entry (an older entry with its key stays).</exception>
    void Add(IndexEntry entry);

    /// <summary>Removes the entry with <paramref name="key"/>; returns whether there was one.</summary>
    bool Delete(string key);

    /// <summary>
    /// Makes the batch visible and records <paramref name="processedEtag"/> (<see cref="IEngineIndex.ReadProcessedEtag"/>)
    /// in the same commit: after a crash the index holds both or neither.
    /// </summary>
    void Commit(long processedEtag);
}
