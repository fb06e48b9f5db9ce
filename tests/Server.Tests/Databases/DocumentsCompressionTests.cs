using System.Net;
using System.Text;
using System.Text.Json;
using Folio.Server.Databases;
using Folio.Server.Tests.Support;
using Microsoft.Extensions.DependencyInjection;

namespace Folio.Server.Tests.Databases;

/// <summary>
/// A database's own choice of compressed collections (<c>/databases/{db}/admin/documents-compression/config</c>):
/// applied to the next writes of that database only, kept across unloads and restarts, and refused whole when malformed.
/// </summary>
public sealed class DocumentsCompressionTests
{
    /// <summary>The server's own default is on; these tests set a database's choice against a server that compresses nothing.</summary>
    private const string ServerOff = "--DocumentsCompression=false";

    private static readonly string Notes = string.Concat(Enumerable.Repeat("deliver before noon to the back door; ", 20));

    [Fact]
    public async Task Set_CompressAllCollections_CompressesThatDatabasesNewBodiesOnly()
    {
        await using RunningServer server = await RunningServer.StartAsync(ServerOff);
        string chosen = await FolioApi.CreateDatabaseAsync(server.Client);
        string other = await FolioApi.CreateDatabaseAsync(server.Client);
        await WriteAsync(server.Client, chosen, "orders/before", "Orders");

        using (HttpResponseMessage set = await PostAsync(server.Client, chosen, """{"CompressAllCollections":true}"""))
        {
            Assert.Equal(HttpStatusCode.OK, set.StatusCode);
            Assert.True(JsonDocument.Parse(await set.Content.ReadAsStringAsync()).RootElement.TryGetProperty("RaftCommandIndex", out _));
        }
        for (int n = 1; n <= 10; n++)
        {
            await WriteAsync(server.Client, chosen, $"orders/{n}", "Orders");
            await WriteAsync(server.Client, other, $"orders/{n}", "Orders");
        }

        Assert.Equal((11, 10), await CollectionAsync(server.Client, chosen, "orders"));
        Assert.Equal((10, 0), await CollectionAsync(server.Client, other, "orders"));
        JsonElement own = await FolioApi.GetJsonAsync(server.Client, ConfigUri(chosen));
        Assert.Equal("Database", own.GetProperty("Source").GetString());
        Assert.True(own.GetProperty("CompressAllCollections").GetBoolean());
        JsonElement followed = await FolioApi.GetJsonAsync(server.Client, ConfigUri(other));
        Assert.Equal("Server", followed.GetProperty("Source").GetString());
        Assert.False(followed.GetProperty("CompressAllCollections").GetBoolean());
        JsonElement before = await FolioApi.LoadAsync(server.Client, chosen, "orders/before") ?? throw new InvalidOperationException("orders/before is gone");
        Assert.Equal(Notes, before.GetProperty("Notes").GetString());
    }

    [Fact]
    public async Task Set_NamedCollections_CompressesOnlyThoseWhateverTheirCasing()
    {
        await using RunningServer server = await RunningServer.StartAsync(ServerOff);
        string db = await FolioApi.CreateDatabaseAsync(server.Client);

        using (HttpResponseMessage set = await PostAsync(server.Client, db, """{"Collections":["ORDERS"],"CompressRevisions":false}"""))
            Assert.Equal(HttpStatusCode.OK, set.StatusCode);
        for (int n = 1; n <= 5; n++)
        {
            await WriteAsync(server.Client, db, $"orders/{n}", "Orders");
            await WriteAsync(server.Client, db, $"notes/{n}", "Notes");
        }

        Assert.Equal((5, 5), await CollectionAsync(server.Client, db, "orders"));
        Assert.Equal((5, 0), await CollectionAsync(server.Client, db, "notes"));
    }

    [Fact]
    public async Task Set_ServerCompressesAll_DatabaseLeavesOutAndTurnsOff()
    {
        await using RunningServer server = await RunningServer.StartAsync("--DocumentsCompression=true");
        string db = await FolioApi.CreateDatabaseAsync(server.Client);
        await WriteAsync(server.Client, db, "orders/1", "Orders");

        using (HttpResponseMessage set = await PostAsync(server.Client, db, """{"CompressAllCollections":true,"UncompressedCollections":["Notes"]}"""))
            Assert.Equal(HttpStatusCode.OK, set.StatusCode);
        await WriteAsync(server.Client, db, "orders/2", "Orders");
        await WriteAsync(server.Client, db, "notes/1", "Notes");
        using (HttpResponseMessage off = await PostAsync(server.Client, db, "{}"))
            Assert.Equal(HttpStatusCode.OK, off.StatusCode);
        await WriteAsync(server.Client, db, "orders/3", "Orders");

        Assert.Equal((3, 2), await CollectionAsync(server.Client, db, "orders"));
        Assert.Equal((1, 0), await CollectionAsync(server.Client, db, "notes"));
        for (int n = 1; n <= 3; n++)
        {
            JsonElement order = await FolioApi.LoadAsync(server.Client, db, $"orders/{n}") ?? throw new InvalidOperationException($"orders/{n} is gone");
            Assert.Equal(Notes, order.GetProperty("Notes").GetString());
        }
    }

    [Fact]
    public async Task Set_KeptAcrossUnloadAndRestart()
    {
        string dataDir = RunningServer.NewDataDir();
        try
        {
            string db;
            await using (RunningServer server = await RunningServer.StartOnAsync(dataDir, ServerOff, "--Databases:IdleUnloadAfter=00:00:00"))
            {
                db = await FolioApi.CreateDatabaseAsync(server.Client);
                using (HttpResponseMessage set = await PostAsync(server.Client, db, """{"Collections":["Orders"]}"""))
                    Assert.Equal(HttpStatusCode.OK, set.StatusCode);
                DatabaseRegistry registry = server.Server.Services.GetRequiredService<DatabaseRegistry>();
                await WriteAsync(server.Client, db, "orders/1", "Orders");
                Assert.True(registry.TryUnload(db));
                await WaitUntilAsync(() => registry.TryGet(db, out DatabaseEntry? entry) && !entry.IsLoaded);
                await WriteAsync(server.Client, db, "orders/2", "Orders");
                Assert.Equal((2, 2), await CollectionAsync(server.Client, db, "orders"));
            }

            await using (RunningServer restarted = await RunningServer.StartOnAsync(dataDir, ServerOff))
            {
                await WriteAsync(restarted.Client, db, "orders/3", "Orders");
                await WriteAsync(restarted.Client, db, "notes/1", "Notes");
                Assert.Equal((3, 3), await CollectionAsync(restarted.Client, db, "orders"));
                Assert.Equal((1, 0), await CollectionAsync(restarted.Client, db, "notes"));
                JsonElement own = await FolioApi.GetJsonAsync(restarted.Client, ConfigUri(db));
                Assert.Equal("Orders", own.GetProperty("Collections")[0].GetString());
            }
        }
        finally
        {
            RunningServer.DeleteDirectory(dataDir);
        }
    }

    [Fact]
    public async Task CreateFromRecord_WithDocumentsCompression_KeepsItAndAnswersItInTheRecord()
    {
        await using RunningServer server = await RunningServer.StartAsync(ServerOff);
        string db = "Compressed" + Guid.NewGuid().ToString("N")[..8];

        using (HttpResponseMessage created = await server.Client.PutAsync("/admin/databases", new StringContent(
            $$$"""{"DatabaseName":"{{{db}}}","DocumentsCompression":{"Collections":["Orders"],"CompressAllCollections":false,"CompressRevisions":true},"Settings":{}}""",
            Encoding.UTF8,
            "application/json")))
            Assert.Equal(HttpStatusCode.Created, created.StatusCode);
        await WriteAsync(server.Client, db, "orders/1", "Orders");

        Assert.Equal((1, 1), await CollectionAsync(server.Client, db, "orders"));
        JsonElement record = await FolioApi.GetJsonAsync(server.Client, $"/admin/databases?name={db}");
        JsonElement compression = record.GetProperty("DocumentsCompression");
        Assert.Equal("Orders", compression.GetProperty("Collections")[0].GetString());
        Assert.True(compression.GetProperty("CompressRevisions").GetBoolean());
    }

    [Fact]
    public async Task CreateFromRecord_MalformedDocumentsCompression_Answers400AndCreatesNothing()
    {
        await using RunningServer server = await RunningServer.StartAsync(ServerOff);
        string db = "Refused" + Guid.NewGuid().ToString("N")[..8];

        using HttpResponseMessage refused = await server.Client.PutAsync("/admin/databases", new StringContent(
            $$$"""{"DatabaseName":"{{{db}}}","DocumentsCompression":{"Collections":"Orders"}}""",
            Encoding.UTF8,
            "application/json"));

        await ProblemAssert.IsProblemAsync(refused, HttpStatusCode.BadRequest, "urn:folio:problem:invalid-parameter");
        using HttpResponseMessage missing = await server.Client.GetAsync($"/admin/databases?name={db}");
        Assert.Equal(HttpStatusCode.NotFound, missing.StatusCode);
    }

    [Theory]
    [InlineData("[]")]
    [InlineData("\"all\"")]
    [InlineData("""{"CompressAllCollections":"yes"}""")]
    [InlineData("""{"Collections":"Orders"}""")]
    [InlineData("""{"Collections":[1]}""")]
    [InlineData("""{"Collections":[""]}""")]
    [InlineData("""{"Collections":["Or\u0000ders"]}""")]
    [InlineData("""{"UncompressedCollections":[null]}""")]
    [InlineData("""{"Compress":true}""")]
    public async Task Set_MalformedBody_Answers400AndChangesNothing(string body)
    {
        await using RunningServer server = await RunningServer.StartAsync(ServerOff);
        string db = await FolioApi.CreateDatabaseAsync(server.Client);

        using (HttpResponseMessage refused = await PostAsync(server.Client, db, body))
            await ProblemAssert.IsProblemAsync(refused, HttpStatusCode.BadRequest, "urn:folio:problem:invalid-parameter");

        JsonElement followed = await FolioApi.GetJsonAsync(server.Client, ConfigUri(db));
        Assert.Equal("Server", followed.GetProperty("Source").GetString());
        Assert.False(File.Exists(Path.Combine(server.DataDir, "Databases", db, "documents-compression.json")));
        await FolioApi.AssertServingAsync(server.Client);
    }

    [Fact]
    public async Task Set_UnknownDatabase_Answers404()
    {
        await using RunningServer server = await RunningServer.StartAsync(ServerOff);

        using HttpResponseMessage response = await PostAsync(server.Client, "NoSuchDatabase", """{"CompressAllCollections":true}""");

        await ProblemAssert.IsProblemAsync(response, HttpStatusCode.NotFound, "urn:folio:problem:database-not-found");
    }

    private static string ConfigUri(string db) => $"/databases/{Uri.EscapeDataString(db)}/admin/documents-compression/config";

    private static Task<HttpResponseMessage> PostAsync(HttpClient client, string db, string body) =>
        client.PostAsync(ConfigUri(db), new StringContent(body, Encoding.UTF8, "application/json"));

    private static Task WriteAsync(HttpClient client, string db, string id, string collection) =>
        FolioApi.StoreAsync(client, db, id, $$$"""{"Notes":"{{{Notes}}}","@metadata":{"@collection":"{{{collection}}}"}}""");

    private static async Task<(long Documents, long Compressed)> CollectionAsync(HttpClient client, string db, string collection)
    {
        JsonElement report = await FolioApi.GetJsonAsync(client, $"/databases/{Uri.EscapeDataString(db)}/storage");
        foreach (JsonElement entry in report.GetProperty("Collections").EnumerateArray())
        {
            if (string.Equals(entry.GetProperty("Name").GetString(), collection, StringComparison.OrdinalIgnoreCase))
                return (entry.GetProperty("Documents").GetInt64(), entry.GetProperty("CompressedDocuments").GetInt64());
        }
        return (0, 0);
    }

    private static async Task WaitUntilAsync(Func<bool> condition)
    {
        using var deadline = new CancellationTokenSource(TestTimeouts.Default);
        while (!condition())
            await Task.Delay(10, deadline.Token);
    }
}
