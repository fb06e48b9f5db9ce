using System.Text;
using System.Text.Json;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Wire;

/// <summary>The server and database routes answer as the wire contract says, for good and bad input.</summary>
public sealed class DatabaseConformanceTests(WireFixture fixture) : WireTests(fixture)
{
    private const string Databases = "/admin/databases";

    [Fact]
    [Exercises("GET /healthz", "GET /healthz/live", "GET /healthz/ready", "GET /metrics", "GET /openapi/v1.json", "GET /admin/stats")]
    public async Task ServerRoutes_AnswerAsDocumented_WhenAsked()
    {
        Assert.Equal(200, (await Wire.GetAsync("/healthz", "/healthz")).Status);
        Assert.Equal(200, (await Wire.GetAsync("/openapi/v1.json", "/openapi/v1.json")).Status);
        Assert.Equal(200, (await Wire.GetAsync("/admin/stats", "/admin/stats")).Status);
        Assert.Equal(200, (await Wire.GetAsync("/healthz/live", "/healthz/live")).Status);
        Assert.Equal(200, (await Wire.GetAsync("/healthz/ready", "/healthz/ready")).Status);
        Assert.Equal(200, (await Wire.GetAsync("/metrics", "/metrics")).Status);

        AssertExercised();
    }

    [Fact]
    [Exercises("GET /databases", "PUT /admin/databases", "DELETE /admin/databases")]
    public async Task DatabaseRoutes_AnswerAsDocumented_ForGoodAndBadInput()
    {
        string name = FolioApi.NewDatabaseName();
        Assert.Equal(201, (await Wire.SendAsync(HttpMethod.Put, Databases, Databases, $$"""{"Name":"{{name}}","Ignored":[1]}""")).Status);
        WireAnswer list = await Wire.GetAsync("/databases", "/databases");
        Assert.Contains(list.Body.GetProperty("Databases").EnumerateArray(), d => d.GetProperty("Name").GetString() == name);
        Assert.Equal(400, (await Wire.GetAsync("/databases", "/databases?namesOnly=maybe")).Status);

        Assert.Equal(409, (await Wire.SendAsync(HttpMethod.Put, Databases, Databases, $$"""{"Name":"{{name.ToUpperInvariant()}}"}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Put, Databases, Databases, """{"Name":"a..b"}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Put, Databases, Databases, """{"Nom":"x"}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Put, Databases, Databases, """{"Name":""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Put, Databases, Databases, "[1]")).Status);
        Assert.Equal(413, (await Wire.SendAsync(HttpMethod.Put, Databases, Databases, LargeObject(70 * 1024))).Status);

        Assert.Equal(204, (await Wire.SendAsync(HttpMethod.Delete, Databases, $"{Databases}?name={name}")).Status);
        Assert.Equal(404, (await Wire.SendAsync(HttpMethod.Delete, Databases, $"{Databases}?name={name}")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Delete, Databases, Databases)).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Delete, Databases, $"{Databases}?name=a..b")).Status);

        AssertExercised();
    }

    [Fact]
    [Exercises("POST /admin/databases/{db}/compact", "POST /admin/databases/{db}/indexes/compact")]
    public async Task CompactRoutes_AnswerAsDocumented_ForKnownAndUnknownTargets()
    {
        const string Compact = "/admin/databases/{db}/compact";
        const string CompactIndex = "/admin/databases/{db}/indexes/compact";
        string db = await FolioApi.CreateDatabaseAsync(Server.Client);
        await FolioApi.StoreAsync(Server.Client, db, "orders/1", """{"Total":1}""");

        Assert.Equal(404, (await Wire.SendAsync(HttpMethod.Post, Compact, "/admin/databases/no-such-db/compact")).Status);
        Assert.Equal(404, (await Wire.SendAsync(HttpMethod.Post, CompactIndex, $"/admin/databases/{db}/indexes/compact?name=NoSuchIndex")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, CompactIndex, $"/admin/databases/{db}/indexes/compact")).Status);
        Assert.Equal(202, (await Wire.SendAsync(HttpMethod.Post, Compact, $"/admin/databases/{db}/compact")).Status);

        // Another database, since one compaction at a time runs per database and the first may still be running.
        string indexed = await FolioApi.CreateDatabaseAsync(Server.Client);
        using (HttpResponseMessage put = await Server.Client.PutAsync($"/databases/{indexed}/indexes", FolioApi.Json("""{"Indexes":[{"Name":"Orders/ByTotal","Collections":["Orders"],"Fields":{"Total":{"Path":"Total"}}}]}""")))
            Assert.True(put.IsSuccessStatusCode);
        Assert.Equal(202, (await Wire.SendAsync(HttpMethod.Post, CompactIndex, $"/admin/databases/{indexed}/indexes/compact?name=Orders/ByTotal")).Status);

        AssertExercised();
    }

    [Fact]
    [Exercises("POST /admin/databases/{db}/backup", "POST /admin/databases/restore")]
    public async Task BackupRoutes_AnswerAsDocumented_ForGoodAndBadInput()
    {
        const string Backup = "/admin/databases/{db}/backup";
        const string Restore = "/admin/databases/restore";
        string db = await FolioApi.CreateDatabaseAsync(Server.Client);
        await FolioApi.StoreAsync(Server.Client, db, "orders/1", """{"Total":1,"@metadata":{"@collection":"Orders"}}""");
        string directory = Path.Combine(Path.GetTempPath(), "folio-tests", "backup-" + Guid.NewGuid().ToString("N"));
        string body = JsonSerializer.Serialize(new { Directory = directory });
        try
        {
            Assert.Equal(201, (await Wire.SendAsync(HttpMethod.Post, Backup, $"/admin/databases/{db}/backup", body)).Status);
            Assert.Equal(201, (await Wire.SendAsync(HttpMethod.Post, Backup, $"/admin/databases/{db}/backup", JsonSerializer.Serialize(new { Directory = directory, Kind = "Incremental" }))).Status);
            Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, Backup, $"/admin/databases/{db}/backup", JsonSerializer.Serialize(new { Directory = directory, Kind = "Full" }))).Status);
            Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, Backup, $"/admin/databases/{db}/backup", JsonSerializer.Serialize(new { Directory = directory, Kind = "Sometimes" }))).Status);
            Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, Backup, $"/admin/databases/{db}/backup", "{}")).Status);
            Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, Backup, $"/admin/databases/{db}/backup", "{\"Directory\":")).Status);
            Assert.Equal(404, (await Wire.SendAsync(HttpMethod.Post, Backup, "/admin/databases/no-such-db/backup", body)).Status);

            string name = FolioApi.NewDatabaseName();
            Assert.Equal(201, (await Wire.SendAsync(HttpMethod.Post, Restore, Restore, JsonSerializer.Serialize(new { Directory = directory, Name = name }))).Status);
            Assert.Equal(409, (await Wire.SendAsync(HttpMethod.Post, Restore, Restore, JsonSerializer.Serialize(new { Directory = directory, Name = name }))).Status);
            Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, Restore, Restore, JsonSerializer.Serialize(new { Directory = directory + "-missing", Name = FolioApi.NewDatabaseName() }))).Status);
            Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, Restore, Restore, JsonSerializer.Serialize(new { Directory = directory, Name = "a..b" }))).Status);
            Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, Restore, Restore, JsonSerializer.Serialize(new { Directory = directory }))).Status);
        }
        finally
        {
            RunningServer.DeleteDirectory(directory);
        }

        AssertExercised();
    }

    [Fact]
    [Exercises("GET /databases/{db}/stats", "GET /databases/{db}/collections/stats")]
    public async Task DatabaseStats_AnswerAsDocumented_ForGoodAndBadInput()
    {
        const string Stats = "/databases/{db}/stats";
        const string CollectionStats = "/databases/{db}/collections/stats";
        string db = await FolioApi.CreateDatabaseAsync(Server.Client);
        await FolioApi.StoreAsync(Server.Client, db, "users/1", """{"Name":"Ann"}""");
        await FolioApi.StoreAsync(Server.Client, db, "orders/1", """{"Total":3,"@metadata":{"@collection":"Orders","Source":"test"}}""");
        await Server.Client.DeleteAsync(FolioApi.DocsUri(db, "users/1"));

        WireAnswer stats = await Wire.GetAsync(Stats, $"/databases/{db}/stats");
        Assert.Equal(1, stats.Body.GetProperty("CountOfDocuments").GetInt64());
        Assert.Equal(1, stats.Body.GetProperty("CountOfTombstones").GetInt64());
        WireAnswer collections = await Wire.GetAsync(CollectionStats, $"/databases/{db}/collections/stats");
        Assert.Equal(1, collections.Body.GetProperty("Collections").GetProperty("Orders").GetInt64());

        Assert.Equal(404, (await Wire.GetAsync(Stats, "/databases/no-such-db/stats")).Status);
        Assert.Equal(400, (await Wire.GetAsync(Stats, "/databases/a..b/stats")).Status);
        Assert.Equal(404, (await Wire.GetAsync(CollectionStats, "/databases/no-such-db/collections/stats")).Status);
        Assert.Equal(400, (await Wire.GetAsync(CollectionStats, "/databases/.hidden/collections/stats")).Status);

        AssertExercised();
    }

    [Fact]
    [Exercises("GET /databases/{db}/admin/documents-compression/config", "POST /databases/{db}/admin/documents-compression/config")]
    public async Task DocumentsCompressionRoutes_AnswerAsDocumented_ForGoodAndBadInput()
    {
        const string Config = "/databases/{db}/admin/documents-compression/config";
        string db = await FolioApi.CreateDatabaseAsync(Server.Client);
        string path = $"/databases/{db}/admin/documents-compression/config";

        WireAnswer followed = await Wire.GetAsync(Config, path);
        Assert.Equal(200, followed.Status);
        Assert.Equal("Server", followed.Body.GetProperty("Source").GetString());
        Assert.Equal(200, (await Wire.SendAsync(HttpMethod.Post, Config, path, """{"Collections":["Orders"],"CompressRevisions":false}""")).Status);
        WireAnswer own = await Wire.GetAsync(Config, path);
        Assert.Equal("Database", own.Body.GetProperty("Source").GetString());

        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, Config, path, """{"Collections":"Orders"}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, Config, path, """{"Collections":""")).Status);
        Assert.Equal(404, (await Wire.SendAsync(HttpMethod.Post, Config, "/databases/no-such-db/admin/documents-compression/config", "{}")).Status);
        Assert.Equal(404, (await Wire.GetAsync(Config, "/databases/no-such-db/admin/documents-compression/config")).Status);
        Assert.Equal(400, (await Wire.GetAsync(Config, "/databases/a..b/admin/documents-compression/config")).Status);

        AssertExercised();
    }

    [Fact]
    [Exercises("GET /databases/{db}/storage")]
    public async Task StorageReport_AnswersAsDocumented_ForGoodAndBadInput()
    {
        const string Storage = "/databases/{db}/storage";
        string db = await FolioApi.CreateDatabaseAsync(Server.Client);
        await FolioApi.StoreAsync(Server.Client, db, "orders/1", """{"Total":3,"Notes":"leave at the door, leave at the door, leave at the door"}""");

        WireAnswer report = await Wire.GetAsync(Storage, $"/databases/{db}/storage");
        Assert.Equal(200, report.Status);
        Assert.Equal(1, report.Body.GetProperty("Collections")[0].GetProperty("Documents").GetInt64());

        Assert.Equal(404, (await Wire.GetAsync(Storage, "/databases/no-such-db/storage")).Status);
        Assert.Equal(400, (await Wire.GetAsync(Storage, "/databases/a..b/storage")).Status);

        AssertExercised();
    }

    [Fact]
    public async Task DatabaseStats_ListRunningBulkInsert_AsDocumented()
    {
        string db = await FolioApi.CreateDatabaseAsync(Server.Client);
        var gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var content = new GatedContent("""[{"Type":"PUT","Id":"users/1","Document":{"Name":"Ann"}}""", gate.Task, """,{"Type":"PUT","Id":"users/2","Document":{}}]""");
        Task<WireAnswer> insert = Wire.SendAsync(HttpMethod.Post, "/databases/{db}/bulk_insert", $"/databases/{db}/bulk_insert", content);
        await Server.Log.WaitForAsync(
            e => e.MessageTemplate.Text.StartsWith("Bulk insert {BulkInsertId} into {Database} started", StringComparison.Ordinal) && CapturingSink.Scalar(e, "Database") as string == db,
            "for the bulk insert to start");

        WireAnswer stats = await Wire.GetAsync("/databases/{db}/stats", $"/databases/{db}/stats");
        gate.SetResult();

        Assert.Equal(1, stats.Body.GetProperty("BulkInsertsInProgress").GetInt32());
        Assert.Single(stats.Body.GetProperty("BulkInserts").EnumerateArray());
        Assert.Equal(201, (await insert).Status);
    }

    /// <summary>Sends the head of a body, waits for the gate, then the rest: a bulk insert that is running while the test looks.</summary>
    private sealed class GatedContent(string head, Task gate, string rest) : HttpContent
    {
        protected override async Task SerializeToStreamAsync(Stream stream, System.Net.TransportContext? context)
        {
            await stream.WriteAsync(Encoding.UTF8.GetBytes(head));
            await stream.FlushAsync();
            await gate;
            await stream.WriteAsync(Encoding.UTF8.GetBytes(rest));
        }

        protected override bool TryComputeLength(out long length)
        {
            length = 0;
            return false;
        }
    }
}
