using System.Net;
using System.Text.Json;
using System.Text.Json.Nodes;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Backup;

public sealed class BackupRestoreTests(ServerFixture fixture) : IClassFixture<ServerFixture>, IDisposable
{
    private readonly string _directory = Path.Combine(Path.GetTempPath(), "folio-tests", "backup-" + Guid.NewGuid().ToString("N"));

    private HttpClient Client => fixture.Client;

    public void Dispose() => RunningServer.DeleteDirectory(_directory);

    [Fact]
    public async Task Restore_GivesBackTheDocumentsIndexesAndSubscriptions_OfAFullBackup()
    {
        string source = await FolioApi.CreateDatabaseAsync(Client);
        for (var i = 0; i < 300; i++)
            await FolioApi.StoreAsync(Client, source, $"orders/{i}", $$$"""{"Total":{{{i}}},"Major Genre":"g{{{i % 7}}}","名前":"n{{{i}}}","a.b":[{{{i}}},{"c":null}],"@metadata":{"@collection":"Orders","Custom":"kept"}}""");
        await PutAsync($"/databases/{source}/indexes", """{"Indexes":[{"Name":"Orders/ByGenre","Collections":["Orders"],"Fields":{"Genre":{"Path":"'Major Genre'"}}}]}""");
        await PutAsync($"/databases/{source}/subscriptions", """{"Name":"big","Query":"from Orders where Total > 100"}""");

        JsonElement backup = await PostAsync($"/admin/databases/{source}/backup", new { Directory = _directory });
        string target = FolioApi.NewDatabaseName();
        JsonElement restored = await PostAsync("/admin/databases/restore", new { Directory = _directory, Name = target });

        Assert.Equal("Full", backup.GetProperty("Kind").GetString());
        Assert.Equal(300, backup.GetProperty("Documents").GetInt64());
        Assert.Equal(300, restored.GetProperty("Documents").GetInt64());
        Assert.Equal(1, restored.GetProperty("Indexes").GetInt32());
        Assert.Equal(1, restored.GetProperty("Subscriptions").GetInt32());
        Assert.Equal(await ContentAsync(source), await ContentAsync(target));
        JsonElement query = await FolioApi.GetJsonAsync(Client, $"/databases/{target}/queries?query=" + Uri.EscapeDataString("from index 'Orders/ByGenre' where Genre = 'g3'") + "&waitForNonStaleResults=true");
        Assert.Equal(300 / 7 + (300 % 7 > 3 ? 1 : 0), query.GetProperty("TotalResults").GetInt32());
        JsonElement subscription = await FolioApi.GetJsonAsync(Client, $"/databases/{target}/subscriptions?name=big");
        Assert.Equal("from Orders where Total > 100", subscription.GetProperty("Query").GetString());
    }

    [Fact]
    public async Task IncrementalBackups_CarryLaterWritesUpdatesAndDeletes_IntoTheRestore()
    {
        string source = await FolioApi.CreateDatabaseAsync(Client);
        for (var i = 0; i < 50; i++)
            await FolioApi.StoreAsync(Client, source, $"items/{i}", $$"""{"N":{{i}}}""");
        await PostAsync($"/admin/databases/{source}/backup", new { Directory = _directory });

        await FolioApi.StoreAsync(Client, source, "items/3", """{"N":333,"Updated":true}""");
        using (HttpResponseMessage deleted = await Client.DeleteAsync(FolioApi.DocsUri(source, "items/7")))
            Assert.Equal(HttpStatusCode.NoContent, deleted.StatusCode);
        await FolioApi.StoreAsync(Client, source, "items/new", """{"N":-1}""");
        JsonElement first = await PostAsync($"/admin/databases/{source}/backup", new { Directory = _directory });
        using (HttpResponseMessage deleted = await Client.DeleteAsync(FolioApi.DocsUri(source, "items/new")))
            Assert.Equal(HttpStatusCode.NoContent, deleted.StatusCode);
        await FolioApi.StoreAsync(Client, source, "items/7", """{"N":7,"Again":true}""");
        JsonElement second = await PostAsync($"/admin/databases/{source}/backup", new { Directory = _directory });

        string target = FolioApi.NewDatabaseName();
        JsonElement restored = await PostAsync("/admin/databases/restore", new { Directory = _directory, Name = target });

        Assert.Equal("Incremental", first.GetProperty("Kind").GetString());
        Assert.Equal(2, first.GetProperty("Documents").GetInt64());
        Assert.Equal(1, first.GetProperty("Deletes").GetInt64());
        Assert.Equal(first.GetProperty("ToEtag").GetInt64(), second.GetProperty("FromEtag").GetInt64());
        Assert.Equal(3, restored.GetProperty("Files").GetInt32());
        Assert.Equal(await ContentAsync(source), await ContentAsync(target));
        Assert.Null(await FolioApi.LoadAsync(Client, target, "items/new"));
    }

    [Fact]
    public async Task Backup_IsTheDatabaseAtItsStart_WhileAWriterKeepsWriting()
    {
        string source = await FolioApi.CreateDatabaseAsync(Client);
        var body = new System.Text.StringBuilder("[");
        for (var i = 0; i < 20_000; i++)
            body.Append(i == 0 ? "" : ",").Append($$$"""{"Type":"PUT","Id":"items/{{{i}}}","Document":{"Text":"{{{new string('x', 200)}}}"}}""");
        using (HttpResponseMessage inserted = await Client.PostAsync($"/databases/{source}/bulk_insert", FolioApi.Json(body.Append(']').ToString())))
            Assert.Equal(HttpStatusCode.Created, inserted.StatusCode);

        using var stop = new CancellationTokenSource();
        var written = 0;
        Task writer = Task.Run(async () =>
        {
            while (!stop.IsCancellationRequested)
            {
                await FolioApi.StoreAsync(Client, source, $"later/{written}", """{"During":true}""");
                written++;
            }
        });
        await WaitForAsync(() => Volatile.Read(ref written) > 0);
        JsonElement backup = await PostAsync($"/admin/databases/{source}/backup", new { Directory = _directory });
        await stop.CancelAsync();
        await writer;

        string target = FolioApi.NewDatabaseName();
        await PostAsync("/admin/databases/restore", new { Directory = _directory, Name = target });
        SortedDictionary<string, string> restored = await ContentAsync(target);
        var later = restored.Keys.Where(id => id.StartsWith("later/", StringComparison.Ordinal)).Select(id => int.Parse(id["later/".Length..])).Order().ToList();

        Assert.Equal(backup.GetProperty("Documents").GetInt64(), restored.Count);
        // One writer writes in order, so a snapshot holds exactly a prefix of its documents.
        Assert.Equal(Enumerable.Range(0, later.Count), later);
        Assert.True(later.Count < written, $"the backup holds {later.Count} of {written} documents written during it");
    }

    [Fact]
    public async Task Restore_ResumesASubscription_AfterItsLastAcknowledgedDocument()
    {
        string source = await FolioApi.CreateDatabaseAsync(Client);
        for (var i = 0; i < 10; i++)
            await FolioApi.StoreAsync(Client, source, $"orders/{i}", $$$"""{"Total":{{{i}}},"@metadata":{"@collection":"Orders"}}""");
        using (HttpResponseMessage deleted = await Client.DeleteAsync(FolioApi.DocsUri(source, "orders/2")))
            Assert.Equal(HttpStatusCode.NoContent, deleted.StatusCode);
        await PutAsync($"/databases/{source}/subscriptions", """{"Name":"all","Query":"from Orders"}""");
        using (SubscriptionClient worker = await SubscriptionClient.ConnectAsync(fixture.Running.Server.TcpEndPoint, SubscriptionClient.Header(source, "all", batchSize: 4)))
        {
            await worker.ExpectAsync("Connected");
            JsonElement batch = await worker.ExpectAsync("Batch");
            Assert.Equal(["orders/0", "orders/1", "orders/3", "orders/4"], SubscriptionClient.Ids(batch));
            await worker.AcknowledgeAsync(batch);
            long acknowledged = batch.GetProperty("LastEtag").GetInt64();
            await WaitForAsync(async () => (await FolioApi.GetJsonAsync(Client, $"/databases/{source}/subscriptions?name=all")).GetProperty("AcknowledgedEtag").GetInt64() == acknowledged);
        }

        await PostAsync($"/admin/databases/{source}/backup", new { Directory = _directory });
        string target = FolioApi.NewDatabaseName();
        await PostAsync("/admin/databases/restore", new { Directory = _directory, Name = target });

        using SubscriptionClient resumed = await SubscriptionClient.ConnectAsync(fixture.Running.Server.TcpEndPoint, SubscriptionClient.Header(target, "all", batchSize: 100));
        await resumed.ExpectAsync("Connected");
        Assert.Equal(["orders/5", "orders/6", "orders/7", "orders/8", "orders/9"], SubscriptionClient.Ids(await resumed.ExpectAsync("Batch")));
    }

    [Theory]
    [InlineData("flip", "checksum")]
    [InlineData("truncate", "truncated")]
    [InlineData("delete", "missing")]
    [InlineData("manifest", "not a Folio backup")]
    public async Task Restore_RefusesADamagedBackup_AndCreatesNothing(string damage, string said)
    {
        string source = await FolioApi.CreateDatabaseAsync(Client);
        for (var i = 0; i < 100; i++)
            await FolioApi.StoreAsync(Client, source, $"items/{i}", $$"""{"N":{{i}}}""");
        JsonElement backup = await PostAsync($"/admin/databases/{source}/backup", new { Directory = _directory });
        string file = Path.Combine(_directory, backup.GetProperty("File").GetString()!);
        switch (damage)
        {
            case "flip":
                byte[] bytes = await File.ReadAllBytesAsync(file);
                bytes[bytes.Length / 2] ^= 0x40;
                await File.WriteAllBytesAsync(file, bytes);
                break;
            case "truncate":
                await using (var stream = new FileStream(file, FileMode.Open))
                    stream.SetLength(stream.Length - 10);
                break;
            case "delete":
                File.Delete(file);
                break;
            default:
                await File.WriteAllTextAsync(Path.Combine(_directory, "manifest.json"), "{\"Format\":1,\"Files\":");
                break;
        }

        string target = FolioApi.NewDatabaseName();
        using HttpResponseMessage response = await Client.PostAsync("/admin/databases/restore", FolioApi.Json(JsonSerializer.Serialize(new { Directory = _directory, Name = target })));

        JsonElement problem = await ProblemAssert.IsProblemAsync(response, HttpStatusCode.BadRequest, "urn:folio:problem:invalid-backup");
        Assert.Contains(said, problem.GetProperty("detail").GetString(), StringComparison.Ordinal);
        Assert.DoesNotContain(target, await Client.GetStringAsync("/databases"), StringComparison.Ordinal);
        await FolioApi.AssertServingAsync(Client);
    }

    [Fact]
    public async Task Backup_IntoADirectoryThatCannotBeCreated_IsA400AndTheServerKeepsServing()
    {
        // Regression: a directory under a file (or /proc) was a 500 with the exception in the log.
        string source = await FolioApi.CreateDatabaseAsync(Client);
        Directory.CreateDirectory(Path.GetDirectoryName(_directory)!);
        await File.WriteAllTextAsync(_directory, "a file, not a directory");
        using HttpResponseMessage response = await Client.PostAsync($"/admin/databases/{source}/backup", FolioApi.Json(JsonSerializer.Serialize(new { Directory = Path.Combine(_directory, "set") })));

        JsonElement problem = await ProblemAssert.IsProblemAsync(response, HttpStatusCode.BadRequest, "urn:folio:problem:invalid-backup");
        Assert.Contains("cannot be created", problem.GetProperty("detail").GetString(), StringComparison.Ordinal);
        File.Delete(_directory);
        await FolioApi.AssertServingAsync(Client);
    }

    private async Task PutAsync(string uri, string json)
    {
        using HttpResponseMessage response = await Client.PutAsync(uri, FolioApi.Json(json));
        Assert.True(response.IsSuccessStatusCode, await response.Content.ReadAsStringAsync());
    }

    private async Task<JsonElement> PostAsync(string uri, object body)
    {
        using HttpResponseMessage response = await Client.PostAsync(uri, FolioApi.Json(JsonSerializer.Serialize(body)));
        string text = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == HttpStatusCode.Created, $"{uri}: {(int)response.StatusCode} {text}");
        return JsonDocument.Parse(text).RootElement.Clone();
    }

    /// <summary>Every document by id, without the metadata a restore writes anew (change vector, last modified).</summary>
    private async Task<SortedDictionary<string, string>> ContentAsync(string database)
    {
        using HttpResponseMessage response = await Client.GetAsync($"/databases/{database}/export");
        var content = new SortedDictionary<string, string>(StringComparer.Ordinal);
        foreach (string line in (await response.Content.ReadAsStringAsync()).Split('\n', StringSplitOptions.RemoveEmptyEntries))
        {
            JsonObject document = JsonNode.Parse(line)!.AsObject();
            if (document.ContainsKey("@index"))
                continue;
            JsonObject metadata = document["@metadata"]!.AsObject();
            string id = metadata["@id"]!.GetValue<string>();
            metadata.Remove("@change-vector");
            metadata.Remove("@last-modified");
            content[id] = document.ToJsonString();
        }

        return content;
    }

    private static async Task WaitForAsync(Func<bool> condition) => await WaitForAsync(() => Task.FromResult(condition()));

    private static async Task WaitForAsync(Func<Task<bool>> condition)
    {
        using var timeout = new CancellationTokenSource(TestTimeouts.Default);
        while (!await condition())
            await Task.Delay(20, timeout.Token);
    }
}
