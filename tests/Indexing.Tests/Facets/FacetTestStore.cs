using System.Text;
using System.Text.Json;
using Folio.Indexing.Definitions;
using Folio.Indexing.Documents;
using Folio.Indexing.Querying;
using Folio.Storage;
using Folio.Storage.Documents;
using Microsoft.Extensions.Logging.Abstractions;

namespace Folio.Indexing.Tests.Facets;

/// <summary>An in-memory database for facet tests: documents in, facet queries out (waiting for non-stale results).</summary>
public sealed class FacetTestStore : IDisposable
{
    private readonly string _root = Path.Combine(Path.GetTempPath(), "folio-facets-" + Guid.NewGuid().ToString("N"));
    private readonly DocumentStore _store = DocumentStore.Open(StorageOptions.InMemory());
    private readonly IndexStore _indexes;
    private readonly QueryRunner _runner;

    public FacetTestStore()
    {
        _indexes = new IndexStore(_store, _root, NullLoggerFactory.Instance, new IndexStoreOptions { InMemory = true });
        _runner = new QueryRunner(_store, _indexes);
    }

    public void Dispose()
    {
        _indexes.Dispose();
        _store.Dispose();
        if (Directory.Exists(_root))
            Directory.Delete(_root, recursive: true);
    }

    public Task PutAsync(string id, string json) => _store.PutAsync(id, PreparedDocument.Parse(Encoding.UTF8.GetBytes(json)));

    public Task DeleteAsync(string id) => _store.DeleteAsync(id);

    public void PutIndex(string definition) => _indexes.Put([IndexDefinitionJson.Parse(JsonDocument.Parse(definition).RootElement)]);

    /// <summary>Runs a facet query; <paramref name="parameters"/> is the QueryParameters object as JSON.</summary>
    public async Task<(long Total, IReadOnlyList<FacetResult> Facets)> FacetsAsync(string rql, string? parameters = null)
    {
        var options = new QueryOptions
        {
            WaitForNonStaleResults = true,
            Parameters = parameters is null ? null : JsonDocument.Parse(parameters).RootElement.Clone(),
        };
        using var result = await _runner.RunAsync(rql, options);
        Assert.False(result.IsStale);
        Assert.Empty(result.Results);
        return (result.TotalResults, result.Facets);
    }

    /// <summary>A facet's values as <c>range:count</c> (null shown as <c>null</c>), in the answer's order.</summary>
    public static List<string> Counts(FacetResult facet)
    {
        var counts = new List<string>();
        foreach (var value in facet.Values)
            counts.Add($"{value.Range ?? "null"}:{value.Count}");
        return counts;
    }
}
