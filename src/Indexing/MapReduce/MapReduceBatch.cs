using System.Text.Json;
using Folio.Indexing.Runner;
using Folio.Indexing.ScriptMaps;
using Folio.Indexing.Scripting;
using Folio.Storage.Documents;

namespace Folio.Indexing.MapReduce;

/// <summary>
/// A map/reduce index's batch: each document is mapped to its entries as it is added (off the runner's
/// thread); the commit retracts what changed documents gave before, adds their new entries, re-reduces the
/// touched groups and indexes their rows (<see cref="MapReduceProcessor.Commit"/>).
/// </summary>
internal sealed class MapReduceBatch(MapReduceProcessor processor) : IIndexBatch
{
    private readonly MapEntryExtractor _extractor = new(processor.Reduce);
    private readonly List<(string Key, List<MapEntry> Entries)> _documents = [];
    private readonly List<string> _deletes = [];
    private readonly List<IndexError> _errors = [];
    private ScriptMapRunner? _script;

    public int Documents => _documents.Count;

    public int Deletes => _deletes.Count;

    public IReadOnlyList<IndexError> Errors => _errors;

    public void AddDocument(Document document)
    {
        var key = document.IdString.ToLowerInvariant();
        if (!ReduceUpdate.FitsKey(key))
        {
            Refuse(document.IdString, key, "The document id is too long for a map/reduce index's records.");
            return;
        }
        var entries = new List<MapEntry>();
        try
        {
            if (processor.MapScript is null)
            {
                var reader = new Utf8JsonReader(document.Json, new JsonReaderOptions { MaxDepth = 256 });
                using var json = JsonDocument.ParseValue(ref reader);
                Extract(document.IdString, json.RootElement, entries);
            }
            else
            {
                // Each object the map returns is mapped as a document would be.
                var outputs = (_script ??= new ScriptMapRunner(processor.Definition, processor.Documents)).Map(document);
                foreach (var output in outputs)
                {
                    using var json = JsonDocument.Parse(output, new JsonDocumentOptions { MaxDepth = 256 });
                    Extract(document.IdString, json.RootElement, entries);
                }
            }
        }
        catch (Exception e) when (e is JsonException or ScriptException)
        {
            Refuse(document.IdString, key, e.Message);
            return;
        }
        for (var i = entries.Count - 1; i >= 0; i--)
        {
            if (!ReduceUpdate.FitsKey(entries[i].GroupKey))
            {
                _errors.Add(new IndexError(DateTime.UtcNow, document.IdString, "A group's values are too long to keep as a group key; the entry was left out."));
                entries.RemoveAt(i);
            }
        }
        _documents.Add((key, entries));
    }

    private void Extract(string id, JsonElement root, List<MapEntry> entries)
    {
        if (_extractor.Extract(root, entries) is { } problems)
        {
            foreach (var problem in problems)
                _errors.Add(new IndexError(DateTime.UtcNow, id, problem));
        }
    }

    public void AddDelete(Tombstone tombstone) => _deletes.Add(tombstone.Id);

    public void Commit(long upToEtag) => Commit(upToEtag, moreFollows: false);

    public bool Commit(long upToEtag, bool moreFollows)
    {
        _script?.Dispose();
        _script = null;
        return processor.Commit(_documents, _deletes, upToEtag, _errors, moreFollows);
    }

    // The document's old entries must not outlive the version that could not be read.
    private void Refuse(string id, string key, string message)
    {
        _errors.Add(new IndexError(DateTime.UtcNow, id, message));
        _deletes.Add(key);
    }
}
