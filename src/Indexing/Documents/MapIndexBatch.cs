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
            if (definition.ForEach is null)
            {
                _entries.Add(DocumentFieldExtractor.Extract(definition, key, document.Json));
                return;
            }
            // A fan-out document's earlier entries go first, however many there were; so do entries an earlier version
            // of it added to this batch.
            _entries.RemoveAll(entry => IndexDefinition.DocumentKeyOf(entry.Key) == key);
            _deletes.Add(key);
            _entries.AddRange(DocumentFieldExtractor.ExtractAll(definition, key, document.Json));
        }
        catch (JsonException e)
        {
            // The document's old entry must not outlive the version that could not be read.
            _errors.Add(new IndexError(DateTime.UtcNow, document.IdString, e.Message));
            _deletes.Add(key);
        }
    }

    public void AddDelete(Tombstone tombstone) => _deletes.Add(tombstone.Id);

    /// <summary>Deletes a document's entry, or a fan-out document's entries: numbered from 0 without gaps, so up to the first missing.</summary>
    private void DeleteDocument(IEngineBatch batch, string key)
    {
        if (definition.ForEach is null)
        {
            batch.Delete(key);
            return;
        }
        for (var element = 0; batch.Delete(IndexDefinition.FanOutKey(key, element)); element++)
        {
        }
    }

    /// <remarks>
    /// Deletes go first: a key both deleted and stored in one batch was deleted (or left another collection
    /// of the index) before it was stored again, since a document's tombstones all precede its current version.
    /// </remarks>
    public void Commit(long upToEtag)
    {
        using var batch = index.BeginBatch();
        foreach (var key in _deletes)
            DeleteDocument(batch, key);
        List<string>? failed = null;
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
                if (definition.ForEach is not null)
                    (failed ??= []).Add(IndexDefinition.DocumentKeyOf(entry.Key));
            }
        }
        // A fan-out document with an entry that could not be indexed keeps none: half of its elements would answer wrongly.
        foreach (var key in failed ?? [])
            DeleteDocument(batch, key);
        batch.Commit(upToEtag);
    }
}
