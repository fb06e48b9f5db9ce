using System.Text.Json;
using Folio.Indexing.Definitions;
using Folio.Indexing.Engines;
using Folio.Indexing.Runner;
using Folio.Indexing.Search;
using Folio.Storage.Documents;

namespace Folio.Indexing.Documents;

/// <summary>
/// A map index's batch: each document's entry is extracted as it is added (off the runner's thread), and
/// the commit applies the deletes, then the entries, then the etag, in one commit of the index's engine.
/// </summary>
internal sealed class MapIndexBatch(IndexDefinition definition, IEngineIndex index) : IIndexBatch
{
    private readonly List<IndexEntry> _entries = [];
    private readonly List<string> _deletes = [];
    private readonly List<IndexError> _errors = [];

    public int Documents => _entries.Count;

    public int Deletes => _deletes.Count;

    public IReadOnlyList<IndexError> Errors => _errors;

    public void AddDocument(Document document)
    {
        var key = document.IdString.ToLowerInvariant();
        try
        {
            _entries.Add(DocumentFieldExtractor.Extract(definition, key, document.Json));
        }
        catch (JsonException e)
        {
            // The document's old entry must not outlive the version that could not be read.
            _errors.Add(new IndexError(DateTime.UtcNow, document.IdString, e.Message));
            _deletes.Add(key);
        }
    }

    public void AddDelete(Tombstone tombstone) => _deletes.Add(tombstone.Id);

    /// <remarks>
    /// Deletes go first: a key both deleted and stored in one batch was deleted (or left another collection
    /// of the index) before it was stored again, since a document's tombstones all precede its current version.
    /// </remarks>
    public void Commit(long upToEtag)
    {
        using var batch = index.BeginBatch();
        foreach (var key in _deletes)
            batch.Delete(key);
        foreach (var entry in _entries)
        {
            try
            {
                batch.Add(entry);
            }
            catch (IndexValueException e)
            {
                _errors.Add(new IndexError(DateTime.UtcNow, entry.Key, e.Message));
                batch.Delete(entry.Key);
            }
        }
        batch.Commit(upToEtag);
    }
}
