using System.Text.Json;
using Folio.Indexing.Definitions;
using Folio.Indexing.Engines;
using Folio.Indexing.Runner;
using Folio.Indexing.Scripting;
using Folio.Indexing.ScriptMaps;
using Folio.Indexing.Search;
using Folio.Storage.Documents;

namespace Folio.Indexing.Documents;

/// <summary>
/// A map index's batch: each document's entry is extracted as it is added (off the runner's thread), and
/// the commit applies the deletes, then the entries, then the etag, in one commit of the index's engine.
/// </summary>
internal sealed class MapIndexBatch(IndexDefinition definition, IEngineIndex index, DocumentStore? store) : IIndexBatch
{
    private readonly List<IndexEntry> _entries = [];
    private readonly List<string> _deletes = [];
    private readonly List<IndexError> _errors = [];
    private readonly HashSet<string> _fannedOut = new(StringComparer.Ordinal);
    private ScriptMapRunner? _script;

    public int Documents => _entries.Count;

    public int Deletes => _deletes.Count;

    public IReadOnlyList<IndexError> Errors => _errors;

    public void AddDocument(Document document)
    {
        var key = document.IdString.ToLowerInvariant();
        try
        {
            if (!definition.IsFanOut)
            {
                _entries.Add(DocumentFieldExtractor.Extract(definition, key, document.Json));
                return;
            }
            // A fan-out document's earlier entries go first, however many there were; so do entries an earlier version
            // of it added to this batch (looked for only when there was one: the scan is of the whole batch).
            if (!_fannedOut.Add(key))
                _entries.RemoveAll(entry => IndexDefinition.DocumentKeyOf(entry.Key) == key);
            _deletes.Add(key);
            if (definition.MapScript is null)
            {
                _entries.AddRange(DocumentFieldExtractor.ExtractAll(definition, key, document.Json));
                return;
            }
            var first = _entries.Count;
            try
            {
                (_script ??= new ScriptMapRunner(definition, store)).AddEntries(document, key, _entries);
            }
            catch (ScriptException)
            {
                _entries.RemoveRange(first, _entries.Count - first);
                throw;
            }
        }
        catch (Exception e) when (e is JsonException or ScriptException)
        {
            // The document's old entry must not outlive the version that could not be read (or mapped).
            _errors.Add(new IndexError(DateTime.UtcNow, document.IdString, e.Message));
            _deletes.Add(key);
        }
    }

    public void AddDelete(Tombstone tombstone) => _deletes.Add(tombstone.Id);

    /// <summary>Deletes a document's entry, or a fan-out document's entries: numbered from 0 without gaps, so up to the first missing.</summary>
    private void DeleteDocument(IEngineBatch batch, string key)
    {
        if (!definition.IsFanOut)
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
                if (definition.IsFanOut)
                    (failed ??= []).Add(IndexDefinition.DocumentKeyOf(entry.Key));
            }
        }
        // A fan-out document with an entry that could not be indexed keeps none: half of its elements would answer wrongly.
        foreach (var key in failed ?? [])
            DeleteDocument(batch, key);
        batch.Commit(upToEtag);
        _script?.Dispose();
        _script = null;
    }
}
