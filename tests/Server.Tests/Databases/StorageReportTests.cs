using System.Net;
using System.Text.Json;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Databases;

public class StorageReportTests : IClassFixture<ServerFixture>
{
    private readonly HttpClient _client;

    public StorageReportTests(ServerFixture fixture)
    {
        _client = fixture.Client;
    }

    private static readonly string Notes = string.Concat(Enumerable.Repeat("deliver before noon to the back door; ", 20));

    private static async Task<string> WriteOrdersAsync(HttpClient client)
    {
        string db = await FolioApi.CreateDatabaseAsync(client);
        for (int n = 1; n <= 20; n++)
            await FolioApi.StoreAsync(client, db, $"orders/{n}", $$"""{"Company":"companies/{{n % 3}}","Notes":"{{Notes}}"}""");
        await FolioApi.StoreAsync(client, db, "users/1", """{"Name":"Ann"}""");
        return db;
    }

    [Fact]
    public async Task Get_AfterWrites_ReportsTreesAndEachCollectionsRawAndStoredBytes()
    {
        await using RunningServer server = await RunningServer.StartAsync("--DocumentsCompression=true");
        string db = await WriteOrdersAsync(server.Client);

        JsonElement report = await FolioApi.GetJsonAsync(server.Client, $"/databases/{db}/storage");

        Assert.Equal(8192, report.GetProperty("PageSize").GetInt32());
        // Native where the system has libzstd (the CI image does), managed elsewhere; the report says which.
        Assert.Matches("^(libzstd 1\\.[0-9]+\\.[0-9]+ \\(native\\)|ZstdSharp \\(managed\\))$", report.GetProperty("Zstd").GetString());
        Assert.True(report.GetProperty("AllocatedPages").GetInt64() <= report.GetProperty("DataFilePages").GetInt64());
        JsonElement docs = report.GetProperty("Trees").EnumerateArray().Single(t => t.GetProperty("Name").GetString() == "docs");
        Assert.Equal(21, docs.GetProperty("Entries").GetInt64());
        Assert.InRange(docs.GetProperty("LeafFill").GetDouble(), 0.01, 1);
        JsonElement orders = report.GetProperty("Collections").EnumerateArray().Single(c => c.GetProperty("Name").GetString() == "orders");
        Assert.Equal(20, orders.GetProperty("Documents").GetInt64());
        Assert.Equal(20, orders.GetProperty("CompressedDocuments").GetInt64());
        Assert.True(orders.GetProperty("StoredBytes").GetInt64() < orders.GetProperty("RawBytes").GetInt64() / 2, "repetitive notes compress to under half");
        Assert.Equal(0, orders.GetProperty("DictionaryVersion").GetInt32());
    }

    [Fact]
    public async Task Get_ByDefault_ReportsBodiesStoredCompressed()
    {
        string db = await WriteOrdersAsync(_client);

        JsonElement report = await FolioApi.GetJsonAsync(_client, $"/databases/{db}/storage");

        JsonElement orders = report.GetProperty("Collections").EnumerateArray().Single(c => c.GetProperty("Name").GetString() == "orders");
        Assert.Equal(20, orders.GetProperty("Documents").GetInt64());
        Assert.Equal(20, orders.GetProperty("CompressedDocuments").GetInt64());
    }

    [Fact]
    public async Task Get_CompressionTurnedOff_ReportsBodiesStoredUncompressed()
    {
        await using RunningServer server = await RunningServer.StartAsync("--DocumentsCompression=false");
        string db = await WriteOrdersAsync(server.Client);

        JsonElement report = await FolioApi.GetJsonAsync(server.Client, $"/databases/{db}/storage");

        JsonElement orders = report.GetProperty("Collections").EnumerateArray().Single(c => c.GetProperty("Name").GetString() == "orders");
        Assert.Equal(20, orders.GetProperty("Documents").GetInt64());
        Assert.Equal(0, orders.GetProperty("CompressedDocuments").GetInt64());
        Assert.Equal(orders.GetProperty("RawBytes").GetInt64(), orders.GetProperty("StoredBytes").GetInt64());
    }

    [Fact]
    public async Task Get_MissingDatabase_Answers404()
    {
        using HttpResponseMessage response = await _client.GetAsync($"/databases/{FolioApi.NewDatabaseName()}/storage");
        Assert.Equal(HttpStatusCode.NotFound, response.StatusCode);
    }
}
