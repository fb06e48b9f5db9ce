using System.Diagnostics;
using System.Text;
using System.Text.Json;
using Folio.Indexing.Definitions;
using Folio.Indexing.Documents;
using Folio.Indexing.MapReduce;
using Folio.Indexing.Tests.Support;
using Folio.Storage;
using Folio.Storage.Documents;
using Microsoft.Extensions.Logging.Abstractions;

namespace Folio.Indexing.Tests.MapReduce;

/// <summary>A map/reduce index's output collection: the group rows as documents, kept in step with the groups, gone with the index, written again after a crash.</summary>
public sealed class OutputCollectionTests : IDisposable
{
    private const string ByCompany = """{"Name":"Orders/ByCompany","Collections":["Orders"],"Reduce":{"GroupBy":["Company"],"Aggregations":{"Count":{"Op":"Count"},"Total":{"Op":"Sum","Path":"Freight"}}},"OutputCollection":"CompanyTotals"}""";
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(30);
    private readonly string _root = Path.Combine(Path.GetTempPath(), "folio-mapreduce-output-" + Guid.NewGuid().ToString("N"));

    public void Dispose()
    {
        if (Directory.Exists(_root))
            Directory.Delete(_root, recursive: true);
    }

    private static Task Put(DocumentStore store, string id, string json) => store.PutAsync(id, PreparedDocument.Parse(Encoding.UTF8.GetBytes(json)));

    /// <summary>The documents of CompanyTotals by id, without the store's metadata.</summary>
    private static SortedDictionary<string, string> Outputs(DocumentStore store)
    {
        var outputs = new SortedDictionary<string, string>(StringComparer.Ordinal);
        using var reader = store.OpenReader();
        var cursor = reader.ByCollection("CompanyTotals");
        while (cursor.MoveNext())
        {
            var document = cursor.Current;
            using var json = JsonDocument.Parse(document.Json.ToArray());
            var fields = new List<string>();
            foreach (var property in json.RootElement.EnumerateObject())
            {
                if (property.Name != "@metadata")
                    fields.Add($"{property.Name}={property.Value.GetRawText()}");
            }
            outputs[document.IdString] = string.Join(",", fields);
        }
        return outputs;
    }

    /// <summary>A database holding <paramref name="count"/> orders (<paramref name="order"/> writes the i-th, <c>orders/i</c>), ByCompany reduced over them.</summary>
    private static async Task<InMemoryDatabase> ReducedAsync(int count, Func<int, string> order)
    {
        var db = new InMemoryDatabase();
        try
        {
            for (var i = 0; i < count; i++)
                await db.PutAsync($"orders/{i}", order(i));
            db.Indexes.Put([InMemoryDatabase.Definition(ByCompany)]);
            await ReduceAsync(db);
            return db;
        }
        catch
        {
            db.Dispose();
            throw;
        }
    }

    /// <summary>Queries ByCompany waiting for it to catch up, so its output documents are written.</summary>
    private static Task ReduceAsync(InMemoryDatabase db) => db.QueryAsync("from index 'Orders/ByCompany'");

    private static string Id(string company) => ReduceOutput.DocumentId("CompanyTotals", $"[\"{company}\"]");

    private static async Task<SortedDictionary<string, string>> WaitForOutputsAsync(DocumentStore store, Func<SortedDictionary<string, string>, bool> done)
    {
        var started = Stopwatch.GetTimestamp();
        while (true)
        {
            var outputs = Outputs(store);
            if (done(outputs))
                return outputs;
            if (Stopwatch.GetElapsedTime(started) > Patience)
                Assert.Fail($"The output documents did not arrive; they are: {string.Join("; ", outputs)}");
            await store.WaitForChangeAsync(store.LastEtag).WaitAsync(TimeSpan.FromMilliseconds(100)).ContinueWith(static _ => { }, TaskScheduler.Default);
        }
    }

    [Fact]
    public async Task Outputs_FollowTheGroups_WhenDocumentsChangeAndGo()
    {
        using var db = await ReducedAsync(9, i => $$"""{"Company":"c{{i % 3}}","Freight":{{i}}}""");
        Assert.Equal(
            new SortedDictionary<string, string>(StringComparer.Ordinal)
            {
                [Id("c0")] = "Company=\"c0\",Count=3,Total=9",
                [Id("c1")] = "Company=\"c1\",Count=3,Total=12",
                [Id("c2")] = "Company=\"c2\",Count=3,Total=15",
            },
            Outputs(db.Store));

        await db.PutAsync("orders/0", """{"Company":"c1","Freight":100}""");
        await db.Store.DeleteAsync("orders/2");
        await db.Store.DeleteAsync("orders/5");
        await db.Store.DeleteAsync("orders/8");
        await ReduceAsync(db);
        Assert.Equal(
            new SortedDictionary<string, string>(StringComparer.Ordinal)
            {
                [Id("c0")] = "Company=\"c0\",Count=2,Total=9",
                [Id("c1")] = "Company=\"c1\",Count=4,Total=112",
            },
            Outputs(db.Store));
    }

    [Fact]
    public async Task Outputs_OverwriteAUsersChange_AtTheGroupsNextReduce()
    {
        using var db = new InMemoryDatabase();
        await db.PutAsync("orders/1", """{"Company":"c1","Freight":1}""");
        db.Indexes.Put([InMemoryDatabase.Definition(ByCompany)]);
        await ReduceAsync(db);
        await db.PutAsync(Id("c1"), """{"Company":"c1","Count":1000,"@metadata":{"@collection":"CompanyTotals"}}""");
        await db.PutAsync("orders/2", """{"Company":"c1","Freight":2}""");
        await ReduceAsync(db);
        Assert.Equal("Company=\"c1\",Count=2,Total=3", Outputs(db.Store)[Id("c1")]);
    }

    [Fact]
    public async Task Delete_RemovesTheOutputs_AndANewIndexWritesThemAgain()
    {
        using var db = await ReducedAsync(6, i => $$"""{"Company":"c{{i % 2}}","Freight":1}""");
        Assert.Equal(2, Outputs(db.Store).Count);

        Assert.True(db.Indexes.Delete("Orders/ByCompany"));
        await WaitForOutputsAsync(db.Store, outputs => outputs.Count == 0);

        db.Indexes.Put([InMemoryDatabase.Definition(ByCompany.Replace("\"Company\"]", "\"Freight\"]", StringComparison.Ordinal).Replace("\"Sum\",\"Path\":\"Freight\"", "\"Count\"", StringComparison.Ordinal))]);
        await ReduceAsync(db);
        var outputs = Assert.Single(Outputs(db.Store));
        Assert.Equal(ReduceOutput.DocumentId("CompanyTotals", "[1]"), outputs.Key);
        Assert.Equal("Freight=1,Count=6,Total=6", outputs.Value);
    }

    [Fact]
    public async Task Reset_WritesTheOutputsAgain_OverWhatWasThere()
    {
        using var db = await ReducedAsync(6, i => $$"""{"Company":"c{{i % 3}}","Freight":{{i}}}""");
        var before = Outputs(db.Store);
        await db.PutAsync(Id("c0"), """{"Company":"c0","Count":-1,"@metadata":{"@collection":"CompanyTotals"}}""");
        await db.PutAsync("CompanyTotals/stray", """{"@metadata":{"@collection":"CompanyTotals"}}""");

        Assert.True(db.Indexes.Reset("Orders/ByCompany"));
        await ReduceAsync(db);
        Assert.Equal(before, Outputs(db.Store));
    }

    [Fact]
    public async Task Put_ChangingTheOutputCollection_MovesTheOutputs()
    {
        using var db = new InMemoryDatabase();
        await db.PutAsync("orders/1", """{"Company":"c1","Freight":1}""");
        db.Indexes.Put([InMemoryDatabase.Definition(ByCompany)]);
        await ReduceAsync(db);
        db.Indexes.Put([InMemoryDatabase.Definition(ByCompany.Replace("CompanyTotals", "Totals2", StringComparison.Ordinal))]);
        await ReduceAsync(db);
        await WaitForOutputsAsync(db.Store, outputs => outputs.Count == 0);
        using var reader = db.Store.OpenReader();
        Assert.True(reader.TryGet(ReduceOutput.DocumentId("Totals2", "[\"c1\"]"), out _));
    }

    [Fact]
    public async Task Restart_WritesTheOutputs_ACrashLeftUnwritten()
    {
        var data = Path.Combine(_root, "data");
        var indexRoot = Path.Combine(_root, "indexes");
        string directory;
        SortedDictionary<string, string> before;
        using (var store = DocumentStore.Open(StorageOptions.ForPath(data)))
        using (var indexes = new IndexStore(store, indexRoot, NullLoggerFactory.Instance))
        {
            indexes.Put([InMemoryDatabase.Definition(ByCompany)]);
            for (var i = 0; i < 20; i++)
                await Put(store, $"orders/{i}", $$"""{"Company":"c{{i % 4}}","Freight":{{i}}}""");
            await WaitForOutputsAsync(store, outputs => outputs.Count == 4 && outputs[Id("c3")] == "Company=\"c3\",Count=5,Total=55");
            before = Outputs(store);
            directory = indexes.Get("Orders/ByCompany")!.Directory;
            // As a crash after the reduce store's commit and before the documents' leaves them: missing or old.
            await store.DeleteAsync(Id("c0"));
            await Put(store, Id("c1"), """{"Company":"c1","Count":-1,"@metadata":{"@collection":"CompanyTotals"}}""");
        }
        MarkEveryGroupPending(Path.Combine(directory, "reduce"));

        using (var store = DocumentStore.Open(StorageOptions.ForPath(data)))
        using (var indexes = new IndexStore(store, indexRoot, NullLoggerFactory.Instance))
        {
            Assert.Equal(before, await WaitForOutputsAsync(store, outputs => outputs.Count == 4 && outputs[Id("c1")] != "Company=\"c1\",Count=-1"));
            await Put(store, "orders/100", """{"Company":"c0","Freight":1000}""");
            await WaitForOutputsAsync(store, outputs => outputs[Id("c0")] == "Company=\"c0\",Count=6,Total=1040");
        }
    }

    [Fact]
    public async Task Restart_FinishesRemovingTheOutputs_OfADeletedIndex()
    {
        var data = Path.Combine(_root, "data");
        var indexRoot = Path.Combine(_root, "indexes");
        using (var store = DocumentStore.Open(StorageOptions.ForPath(data)))
        {
            using (var indexes = new IndexStore(store, indexRoot, NullLoggerFactory.Instance))
            {
                indexes.Put([InMemoryDatabase.Definition(ByCompany)]);
                for (var i = 0; i < 10; i++)
                    await Put(store, $"orders/{i}", $$"""{"Company":"c{{i}}","Freight":1}""");
                await WaitForOutputsAsync(store, outputs => outputs.Count == 10);
            }
            // As a crash after the catalog let go of the index and before its documents were deleted leaves them.
            var catalog = Path.Combine(indexRoot, "indexes.json");
            File.WriteAllText(catalog, """{"Generation":5,"Indexes":[],"PurgingOutputs":["CompanyTotals"]}""");
        }

        using (var store = DocumentStore.Open(StorageOptions.ForPath(data)))
        using (var indexes = new IndexStore(store, indexRoot, NullLoggerFactory.Instance))
        {
            await WaitForOutputsAsync(store, outputs => outputs.Count == 0);
            var started = Stopwatch.GetTimestamp();
            while (File.ReadAllText(Path.Combine(indexRoot, "indexes.json")).Contains("CompanyTotals", StringComparison.Ordinal))
            {
                Assert.True(Stopwatch.GetElapsedTime(started) < Patience, "The catalog still names the collection being emptied.");
                await Task.Delay(20);
            }
        }
    }

    [Theory]
    [InlineData("""{"Name":"B","Collections":["Lines"],"Reduce":{"GroupBy":["X"]},"OutputCollection":"CompanyTotals"}""", "written by index 'Orders/ByCompany' already")]
    [InlineData("""{"Name":"B","Collections":["CompanyTotals"],"Reduce":{"GroupBy":["X"]},"OutputCollection":"Orders"}""", "back into the collections it reads")]
    [InlineData("""{"Name":"B","Collections":["Lines"],"Reduce":{"GroupBy":["X"]},"OutputCollection":"Users"}""", "holds 1 documents no index wrote")]
    public async Task Put_Refuses_AnOutputCollectionThatIsNotFree(string definition, string message)
    {
        using var db = new InMemoryDatabase();
        await db.PutAsync("users/1", """{"Name":"u"}""");
        db.Indexes.Put([InMemoryDatabase.Definition(ByCompany)]);
        var error = Assert.Throws<IndexDefinitionException>(() => db.Indexes.Put([InMemoryDatabase.Definition(definition)]));
        Assert.Contains(message, error.Message, StringComparison.Ordinal);
        Assert.Null(db.Indexes.Get("B"));
    }

    /// <summary>Marks every group of the reduce store in <paramref name="path"/> as owing its output document.</summary>
    private static void MarkEveryGroupPending(string path)
    {
        using var environment = StorageEnvironment.Open(StorageOptions.ForPath(path));
        using var tx = environment.BeginWrite();
        var rows = tx.OpenTree(ReduceStore.RowsTree)!;
        var pending = tx.OpenTree(ReduceStore.PendingOutputTree)!;
        var keys = new List<byte[]>();
        var cursor = rows.CreateCursor();
        Assert.True(cursor.First());
        do
            keys.Add(cursor.Key.ToArray());
        while (cursor.MoveNext());
        foreach (var key in keys)
            pending.Put(key, []);
        tx.Commit();
    }
}
