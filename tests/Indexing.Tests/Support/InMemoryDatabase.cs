using System.Text;
using System.Text.Json;
using Folio.Indexing.Definitions;
using Folio.Indexing.Documents;
using Folio.Indexing.Querying;
using Folio.Storage;
using Folio.Storage.Documents;
using Microsoft.Extensions.Logging.Abstractions;

namespace Folio.Indexing.Tests.Support;

/// <summary>A document store, its indexes (in memory) and a query runner, as a test's database; disposing it removes its directory.</summary>
public sealed class InMemoryDatabase : IDisposable
{
    private readonly string _root = Path.Combine(Path.GetTempPath(), "folio-db-" + Guid.NewGuid().ToString("N"));

    /// <summary>A database whose indexes use <paramref name="searchEngine"/> (the default engine when null).</summary>
    public InMemoryDatabase(string? searchEngine = null)
    {
        Store = DocumentStore.Open(StorageOptions.InMemory());
        Indexes = new IndexStore(Store, _root, NullLoggerFactory.Instance,
            new IndexStoreOptions { InMemory = true, SearchEngine = searchEngine ?? Folio.Indexing.Engines.SearchEngines.Default });
        Runner = new QueryRunner(Store, Indexes);
    }

    public DocumentStore Store { get; }

    public IndexStore Indexes { get; }

    public QueryRunner Runner { get; }

    public Task PutAsync(string id, string json) => Store.PutAsync(id, PreparedDocument.Parse(Encoding.UTF8.GetBytes(json)));

    public static IndexDefinition Definition(string json) => IndexDefinitionJson.Parse(JsonDocument.Parse(json).RootElement);

    /// <summary>
    /// Runs <paramref name="rql"/> (with <paramref name="parameters"/>, a JSON object, when given) once the index caught up;
    /// the results as JSON text, and the index used.
    /// </summary>
    public async Task<(List<string> Results, string? Index)> QueryAsync(string rql, string? parameters = null)
    {
        using var document = parameters is null ? null : JsonDocument.Parse(parameters);
        using var result = await Runner.RunAsync(rql, new QueryOptions { WaitForNonStaleResults = true, Parameters = document?.RootElement });
        Assert.False(result.IsStale);
        var rows = new List<string>();
        foreach (var row in result.Results)
            rows.Add(Encoding.UTF8.GetString(row.Span));
        return (rows, result.IndexName);
    }

    public void Dispose()
    {
        Indexes.Dispose();
        Store.Dispose();
        if (Directory.Exists(_root))
            Directory.Delete(_root, recursive: true);
    }
}
