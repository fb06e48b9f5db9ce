using System.Text.Json;
using Folio.Indexing.Querying;
using Folio.Indexing.Tests.Support;

namespace Folio.Indexing.Tests.Facets;

/// <summary>An <see cref="InMemoryDatabase"/> for facet tests: documents in, facet queries out (waiting for non-stale results).</summary>
public sealed class FacetTestStore : IDisposable
{
    private readonly InMemoryDatabase _database = new();

    public void Dispose() => _database.Dispose();

    public Task PutAsync(string id, string json) => _database.PutAsync(id, json);

    public Task DeleteAsync(string id) => _database.Store.DeleteAsync(id);

    public void PutIndex(string definition) => _database.Indexes.Put([InMemoryDatabase.Definition(definition)]);

    /// <summary>Runs a facet query; <paramref name="parameters"/> is the QueryParameters object as JSON.</summary>
    public async Task<(long Total, IReadOnlyList<FacetResult> Facets)> FacetsAsync(string rql, string? parameters = null)
    {
        var options = new QueryOptions
        {
            WaitForNonStaleResults = true,
            Parameters = parameters is null ? null : JsonDocument.Parse(parameters).RootElement.Clone(),
        };
        using var result = await _database.Runner.RunAsync(rql, options);
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
