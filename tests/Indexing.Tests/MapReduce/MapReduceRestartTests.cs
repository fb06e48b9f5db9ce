using System.Text;
using System.Text.Json;
using Folio.Indexing.Definitions;
using Folio.Indexing.Documents;
using Folio.Indexing.Querying;
using Folio.Storage;
using Folio.Storage.Documents;
using Microsoft.Extensions.Logging.Abstractions;

namespace Folio.Indexing.Tests.MapReduce;

/// <summary>A map/reduce index on files: its groups survive a restart, and its indexed rows are rebuilt from the reduce store when they fell behind it.</summary>
public sealed class MapReduceRestartTests : IDisposable
{
    private readonly string _root = Path.Combine(Path.GetTempPath(), "folio-mapreduce-restart-" + Guid.NewGuid().ToString("N"));

    public void Dispose()
    {
        if (Directory.Exists(_root))
            Directory.Delete(_root, recursive: true);
    }

    private static Task Put(DocumentStore store, string id, string json) => store.PutAsync(id, PreparedDocument.Parse(Encoding.UTF8.GetBytes(json)));

    private static IndexDefinition Definition() => IndexDefinitionJson.Parse(JsonDocument.Parse(
        """{"Name":"Orders/ByCompany","Collections":["Orders"],"Reduce":{"GroupBy":["Company"],"Aggregations":{"Count":{"Op":"Count"},"Total":{"Op":"Sum","Path":"Freight"},"Least":{"Op":"Min","Path":"Freight"}}}}""").RootElement);

    private static async Task<List<string>> RowsAsync(DocumentStore store, IndexStore indexes)
    {
        using var result = await new QueryRunner(store, indexes).RunAsync("from index 'Orders/ByCompany' order by Company", new QueryOptions { WaitForNonStaleResults = true });
        var rows = new List<string>();
        foreach (var row in result.Results)
            rows.Add(Encoding.UTF8.GetString(row.Span));
        return rows;
    }

    [Fact]
    public async Task Restart_ResumesTheGroups_WithoutReducingAgain()
    {
        var data = Path.Combine(_root, "data");
        var indexRoot = Path.Combine(_root, "indexes");
        using (var store = DocumentStore.Open(StorageOptions.ForPath(data)))
        using (var indexes = new IndexStore(store, indexRoot, NullLoggerFactory.Instance))
        {
            indexes.Put([Definition()]);
            for (var i = 0; i < 40; i++)
                await Put(store, $"orders/{i}", $$"""{"Company":"c{{i % 4}}","Freight":{{i}}}""");
            Assert.Equal(4, (await RowsAsync(store, indexes)).Count);
        }

        using (var store = DocumentStore.Open(StorageOptions.ForPath(data)))
        using (var indexes = new IndexStore(store, indexRoot, NullLoggerFactory.Instance))
        {
            var index = indexes.Get("Orders/ByCompany")!;
            Assert.Equal(store.LastEtag, index.ProcessedEtag);
            await store.DeleteAsync("orders/0");
            var rows = await RowsAsync(store, indexes);
            Assert.Equal("""{"Company":"c0","Count":9,"Total":180,"Least":4}""", rows[0]);
            Assert.Equal("""{"Company":"c3","Count":10,"Total":210,"Least":3}""", rows[3]);
            Assert.Equal(1, index.RecentBatches.Sum(b => b.Deletes));
            Assert.Equal(39, index.MapReduce!.Value.MapEntries);
        }
    }

    [Fact]
    public async Task Open_RebuildsTheIndexedRows_WhenTheyAreBehindTheReduceStore()
    {
        var data = Path.Combine(_root, "data");
        var indexRoot = Path.Combine(_root, "indexes");
        string directory;
        List<string> before;
        using (var store = DocumentStore.Open(StorageOptions.ForPath(data)))
        using (var indexes = new IndexStore(store, indexRoot, NullLoggerFactory.Instance))
        {
            indexes.Put([Definition()]);
            for (var i = 0; i < 30; i++)
                await Put(store, $"orders/{i}", $$"""{"Company":"c{{i % 3}}","Freight":{{i}}.5}""");
            before = await RowsAsync(store, indexes);
            directory = indexes.Get("Orders/ByCompany")!.Directory;
        }
        // As a crash between the reduce store's commit and the rows' commit leaves it, at its worst.
        Directory.Delete(Path.Combine(directory, "rows"), recursive: true);

        using (var store = DocumentStore.Open(StorageOptions.ForPath(data)))
        using (var indexes = new IndexStore(store, indexRoot, NullLoggerFactory.Instance))
        {
            Assert.Equal(before, await RowsAsync(store, indexes));
            Assert.Equal(3, indexes.Get("Orders/ByCompany")!.EntryCount);
        }
    }
}
