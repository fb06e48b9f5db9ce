using System.Text;
using System.Text.Json;
using Folio.Indexing.Definitions;
using Folio.Indexing.Documents;
using Folio.Indexing.Querying;
using Folio.Indexing.Search;
using Folio.Storage;
using Folio.Storage.Documents;
using Microsoft.Extensions.Logging.Abstractions;

namespace Folio.Indexing.Tests.Querying;

public sealed class IndexingLifecycleTests : IDisposable
{
    private readonly string _root = Path.Combine(Path.GetTempPath(), "folio-lifecycle-" + Guid.NewGuid().ToString("N"));

    public void Dispose()
    {
        if (Directory.Exists(_root))
            Directory.Delete(_root, recursive: true);
    }

    private static IndexDefinition Definition(string json) => IndexDefinitionJson.Parse(JsonDocument.Parse(json).RootElement);

    private static Task Put(DocumentStore store, string id, string json) => store.PutAsync(id, PreparedDocument.Parse(Encoding.UTF8.GetBytes(json)));

    [Fact]
    public async Task Restart_ResumesFromTheLastIndexedEtag_WithoutReindexing()
    {
        var data = Path.Combine(_root, "data");
        var indexRoot = Path.Combine(_root, "indexes");
        var definition = Definition("""{"Name":"Users/ByAge","Collections":["Users"],"Fields":{"Age":{"Path":"Age","Type":"Long"}}}""");
        using (var store = DocumentStore.Open(StorageOptions.ForPath(data)))
        using (var indexes = new IndexStore(store, indexRoot, NullLoggerFactory.Instance))
        {
            indexes.Put([definition]);
            for (var i = 0; i < 50; i++)
                await Put(store, $"users/{i}", $$"""{"Age":{{i}}}""");
            Assert.True(await indexes.Get("Users/ByAge")!.WaitForEtagAsync(store.LastEtag, TimeSpan.FromSeconds(30)));
        }

        using (var store = DocumentStore.Open(StorageOptions.ForPath(data)))
        using (var indexes = new IndexStore(store, indexRoot, NullLoggerFactory.Instance))
        {
            var index = indexes.Get("Users/ByAge")!;
            Assert.Equal(store.LastEtag, index.ProcessedEtag);
            await Put(store, "users/50", """{"Age":50}""");
            Assert.True(await index.WaitForEtagAsync(store.LastEtag, TimeSpan.FromSeconds(30)));
            var batches = index.RecentBatches;
            Assert.Equal(1, batches.Sum(b => b.Documents));
            var result = await new QueryRunner(store, indexes).RunAsync("from index 'Users/ByAge' where Age >= 0", new QueryOptions());
            Assert.Equal(51, result.TotalResults);
        }
    }

    [Fact]
    public async Task Restart_KeepsAutoIndexes_WhoseFieldsHaveNumericTwins()
    {
        var data = Path.Combine(_root, "data");
        var indexRoot = Path.Combine(_root, "indexes");
        using (var store = DocumentStore.Open(StorageOptions.ForPath(data)))
        using (var indexes = new IndexStore(store, indexRoot, NullLoggerFactory.Instance))
        {
            await Put(store, "users/1", """{"Age":30}""");
            var result = await new QueryRunner(store, indexes).RunAsync("from Users where Age > 20", new QueryOptions { WaitForNonStaleResults = true });
            Assert.Equal(1, result.TotalResults);
        }

        // The catalog stores the auto index's fields with "Type":"Auto"; reading it back must accept that.
        using (var store = DocumentStore.Open(StorageOptions.ForPath(data)))
        using (var indexes = new IndexStore(store, indexRoot, NullLoggerFactory.Instance))
        {
            var auto = Assert.Single(indexes.All);
            Assert.Equal(IndexFieldType.Auto, auto.Definition.Fields["Age"].Type);
            var result = await new QueryRunner(store, indexes).RunAsync("from Users where Age > 20", new QueryOptions { WaitForNonStaleResults = true });
            Assert.Equal(auto.Name, result.IndexName);
            Assert.Equal(1, result.TotalResults);
        }
    }

    [Fact]
    public async Task Restart_RebuildsAnIndex_WhenItsFormatIsNoLongerRead()
    {
        var data = Path.Combine(_root, "data");
        var indexRoot = Path.Combine(_root, "indexes");
        var definition = Definition("""{"Name":"Users/ByAge","Collections":["Users"],"Fields":{"Age":{"Path":"Age","Type":"Long"}}}""");
        string directory;
        using (var store = DocumentStore.Open(StorageOptions.ForPath(data)))
        using (var indexes = new IndexStore(store, indexRoot, NullLoggerFactory.Instance))
        {
            indexes.Put([definition]);
            for (var i = 0; i < 50; i++)
                await Put(store, $"users/{i}", $$"""{"Age":{{i}}}""");
            var index = indexes.Get("Users/ByAge")!;
            Assert.True(await index.WaitForEtagAsync(store.LastEtag, TimeSpan.FromSeconds(30)));
            directory = index.Directory;
        }
        // As an index written by an earlier build would look.
        using (var environment = StorageEnvironment.Open(StorageOptions.ForPath(directory)))
        using (var tx = environment.BeginWrite())
        {
            System.Buffers.Binary.BinaryPrimitives.WriteInt32LittleEndian(tx.OpenTree(SearchIndex.MetaTree)!.Reserve(SearchIndex.FormatKey, 4), SearchIndex.OldestOpenedFormatVersion - 1);
            tx.Commit();
        }

        using (var store = DocumentStore.Open(StorageOptions.ForPath(data)))
        using (var indexes = new IndexStore(store, indexRoot, NullLoggerFactory.Instance))
        {
            var index = indexes.Get("Users/ByAge")!;
            Assert.True(await index.WaitForEtagAsync(store.LastEtag, TimeSpan.FromSeconds(30)));
            Assert.Equal(50, index.RecentBatches.Sum(b => b.Documents));
            var result = await new QueryRunner(store, indexes).RunAsync("from index 'Users/ByAge' where Age >= 10", new QueryOptions());
            Assert.Equal(40, result.TotalResults);
        }
    }

    [Fact]
    public async Task Query_RightAfterAWrite_MaySayStale_AndWithWaitIncludesIt()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        using var indexes = new IndexStore(store, _root, NullLoggerFactory.Instance, new IndexStoreOptions { InMemory = true });
        var runner = new QueryRunner(store, indexes);
        indexes.Put([Definition("""{"Name":"Notes","Collections":["Notes"],"Fields":{"Text":{"Path":"Text","Search":true}}}""")]);
        for (var round = 0; round < 20; round++)
        {
            await Put(store, $"notes/{round}", $$"""{"Text":"round {{round}} marker{{round}}"}""");
            var immediate = await runner.RunAsync($"from index 'Notes' where search(Text, 'marker{round}')", new QueryOptions());
            Assert.True(immediate.IsStale || immediate.TotalResults == 1, "a result without the write must say it is stale");
            var waited = await runner.RunAsync($"from index 'Notes' where search(Text, 'marker{round}')", new QueryOptions { WaitForNonStaleResults = true });
            Assert.False(waited.IsStale);
            Assert.Equal(1, waited.TotalResults);
            Assert.True(waited.IndexEtag >= store.LastEtag);
        }
    }

    [Fact]
    public async Task ValueThatCannotBeConverted_IsRecorded_AndIndexingGoesOn()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        using var indexes = new IndexStore(store, _root, NullLoggerFactory.Instance, new IndexStoreOptions { InMemory = true });
        indexes.Put([Definition("""{"Name":"Items/ByPrice","Collections":["Items"],"Fields":{"Price":{"Path":"Price","Type":"Double"}}}""")]);
        await Put(store, "items/1", """{"Price":10}""");
        await Put(store, "items/2", """{"Price":"cheap"}""");
        await Put(store, "items/3", """{"Price":30}""");
        var index = indexes.Get("Items/ByPrice")!;
        Assert.True(await index.WaitForEtagAsync(store.LastEtag, TimeSpan.FromSeconds(30)));
        var (recent, total) = index.Errors;
        Assert.Equal(1, total);
        Assert.Equal("items/2", recent.Single().DocumentId);
        Assert.Contains("Price", recent.Single().Message);
        var result = await new QueryRunner(store, indexes).RunAsync("from index 'Items/ByPrice' where Price > 0", new QueryOptions());
        Assert.Equal(2, result.TotalResults);
    }

    [Fact]
    public async Task DocumentMovingToAnotherCollection_LeavesTheOldCollectionsIndex()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        using var indexes = new IndexStore(store, _root, NullLoggerFactory.Instance, new IndexStoreOptions { InMemory = true });
        var runner = new QueryRunner(store, indexes);
        var wait = new QueryOptions { WaitForNonStaleResults = true };
        await Put(store, "things/1", """{"Name":"x","@metadata":{"@collection":"Apples"}}""");
        Assert.Equal(1, (await runner.RunAsync("from Apples where Name = 'x'", wait)).TotalResults);
        await Put(store, "things/1", """{"Name":"x","@metadata":{"@collection":"Pears"}}""");
        Assert.Equal(0, (await runner.RunAsync("from Apples where Name = 'x'", wait)).TotalResults);
        Assert.Equal(1, (await runner.RunAsync("from Pears where Name = 'x'", wait)).TotalResults);
    }

    [Fact]
    public async Task IdleAutoIndex_IsRetired()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        using var indexes = new IndexStore(store, _root, NullLoggerFactory.Instance, new IndexStoreOptions { InMemory = true, AutoIndexIdleTimeout = TimeSpan.Zero, MaintenanceInterval = TimeSpan.FromHours(1) });
        await Put(store, "a/1", """{"X":1}""");
        await new QueryRunner(store, indexes).RunAsync("from a where X = 1", new QueryOptions { WaitForNonStaleResults = true });
        Assert.Single(indexes.All);
        indexes.MaintainOnce();
        Assert.Empty(indexes.All);
    }

    [Fact]
    public void BadDefinitions_AreRejectedNamingTheProblem()
    {
        Assert.Contains("Type 'Date'", Assert.Throws<IndexDefinitionException>(() => Definition("""{"Name":"x","Collections":["A"],"Fields":{"F":{"Path":"F","Type":"Date"}}}""")).Message);
        Assert.Contains("Name", Assert.Throws<IndexDefinitionException>(() => Definition("""{"Name":"","Collections":["A"],"Fields":{"F":{"Path":"F"}}}""")).Message);
        Assert.Contains("a.b[", Assert.Throws<IndexDefinitionException>(() => Definition("""{"Name":"x","Collections":["A"],"Fields":{"F":{"Path":"a.b[0]"}}}""")).Message);
        Assert.Contains("Collections", Assert.Throws<IndexDefinitionException>(() => Definition("""{"Name":"x","Fields":{"F":{"Path":"F"}}}""")).Message);
        Assert.Contains("Unknown property 'Map'", Assert.Throws<IndexDefinitionException>(() => Definition("""{"Name":"x","Collections":["A"],"Map":"","Fields":{"F":{"Path":"F"}}}""")).Message);
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        using var indexes = new IndexStore(store, _root, NullLoggerFactory.Instance, new IndexStoreOptions { InMemory = true });
        var ok = Definition("""{"Name":"x","Collections":["A"],"Fields":{"F":{"Path":"F"}}}""");
        Assert.Contains("twice", Assert.Throws<IndexDefinitionException>(() => indexes.Put([ok, ok])).Message);
        Assert.Contains("Auto/", Assert.Throws<IndexDefinitionException>(() => indexes.Put([Definition("""{"Name":"Auto/A/ByF","Collections":["A"],"Fields":{"F":{"Path":"F"}}}""")])).Message);
        Assert.Empty(indexes.All);
    }
}
