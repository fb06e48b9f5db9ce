using System.Net;
using System.Text.Json;
using Folio.Server.Http;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Documents;

public class DocumentCrudTests : IClassFixture<ServerFixture>
{
    private readonly ServerFixture _fixture;
    private readonly HttpClient _client;

    public DocumentCrudTests(ServerFixture fixture)
    {
        _fixture = fixture;
        _client = fixture.Client;
    }

    [Fact]
    public async Task PutThenGet_ReturnsStoredDocumentWithMetadataAndETag()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);

        var (id, changeVector) = await FolioApi.StoreAsync(_client, db, "Users/1", """{"Name":"Ann","Age":41,"Tags":["a","b"]}""");

        Assert.Equal("Users/1", id);
        using HttpResponseMessage response = await _client.GetAsync(FolioApi.DocsUri(db, "users/1"));
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("\"" + changeVector + "\"", FolioApi.ETagOf(response));
        Assert.Equal("application/json", response.Content.Headers.ContentType?.MediaType);
        JsonElement answer = JsonDocument.Parse(await response.Content.ReadAsStringAsync()).RootElement;
        JsonElement document = answer.GetProperty("Results")[0];
        Assert.Equal("Ann", document.GetProperty("Name").GetString());
        Assert.Equal(41, document.GetProperty("Age").GetInt32());
        JsonElement metadata = document.GetProperty("@metadata");
        Assert.Equal("Users/1", metadata.GetProperty("@id").GetString());
        Assert.Equal("Users", metadata.GetProperty("@collection").GetString());
        Assert.Equal(changeVector, metadata.GetProperty("@change-vector").GetString());
        Assert.True(DateTime.TryParse(metadata.GetProperty("@last-modified").GetString(), out _));
        Assert.Empty(answer.GetProperty("Includes").EnumerateObject());
    }

    [Fact]
    public async Task Put_ReplacesDocument_AndChangesChangeVector()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        var (_, first) = await FolioApi.StoreAsync(_client, db, "users/1", """{"Name":"Ann"}""");

        var (_, second) = await FolioApi.StoreAsync(_client, db, "users/1", """{"Name":"Bob"}""");

        Assert.NotEqual(first, second);
        JsonElement? loaded = await FolioApi.LoadAsync(_client, db, "users/1");
        Assert.Equal("Bob", loaded!.Value.GetProperty("Name").GetString());
        Assert.Equal(1, (await FolioApi.StatsAsync(_client, db)).CountOfDocuments);
    }

    [Fact]
    public async Task Get_Returns404Problem_WhenDocumentMissing()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);

        using HttpResponseMessage response = await _client.GetAsync(FolioApi.DocsUri(db, "users/404"));

        await ProblemAssert.IsProblemAsync(response, HttpStatusCode.NotFound, ProblemTypes.DocumentNotFound);
    }

    [Fact]
    public async Task Head_ReturnsETagWithoutBody_AndHead404ForMissing()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        var (_, changeVector) = await FolioApi.StoreAsync(_client, db, "users/1", """{"Name":"Ann"}""");

        using HttpResponseMessage head = await _client.SendAsync(new HttpRequestMessage(HttpMethod.Head, FolioApi.DocsUri(db, "users/1")));
        using HttpResponseMessage missing = await _client.SendAsync(new HttpRequestMessage(HttpMethod.Head, FolioApi.DocsUri(db, "users/2")));

        Assert.Equal(HttpStatusCode.OK, head.StatusCode);
        Assert.Equal("\"" + changeVector + "\"", FolioApi.ETagOf(head));
        Assert.Empty(await head.Content.ReadAsByteArrayAsync());
        Assert.True(head.Content.Headers.ContentLength > 0);
        Assert.Equal(HttpStatusCode.NotFound, missing.StatusCode);
    }

    [Fact]
    public async Task Delete_RemovesDocument_AndLeavesTombstone()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        await FolioApi.StoreAsync(_client, db, "users/1", """{"Name":"Ann"}""");

        using HttpResponseMessage deleted = await _client.DeleteAsync(FolioApi.DocsUri(db, "users/1"));
        using HttpResponseMessage again = await _client.DeleteAsync(FolioApi.DocsUri(db, "users/1"));

        Assert.Equal(HttpStatusCode.NoContent, deleted.StatusCode);
        Assert.Equal(HttpStatusCode.NoContent, again.StatusCode);
        Assert.Null(await FolioApi.LoadAsync(_client, db, "users/1"));
        DatabaseStats stats = await FolioApi.StatsAsync(_client, db);
        Assert.Equal(0, stats.CountOfDocuments);
        Assert.Equal(1, stats.CountOfTombstones);
    }

    [Fact]
    public async Task Put_MakesServerIds_WhenIdEndsWithSlashOrPipe()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);

        var (first, _) = await FolioApi.StoreAsync(_client, db, "orders/", """{"Total":1}""");
        var (second, _) = await FolioApi.StoreAsync(_client, db, "orders/", """{"Total":2}""");
        var (piped, _) = await FolioApi.StoreAsync(_client, db, "orders|", """{"Total":3}""");

        Assert.Equal("orders/1", first);
        Assert.Equal("orders/2", second);
        Assert.Equal("orders/3", piped);
        Assert.Equal(2, (await FolioApi.LoadAsync(_client, db, "orders/2"))!.Value.GetProperty("Total").GetInt32());
    }

    [Fact]
    public async Task GetMany_ReturnsNullForMissingIds_InRequestOrder()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        await FolioApi.StoreAsync(_client, db, "users/1", """{"Name":"Ann"}""");
        await FolioApi.StoreAsync(_client, db, "users/3", """{"Name":"Cid"}""");

        JsonElement answer = await FolioApi.GetJsonAsync(_client, $"/databases/{db}/docs?id=users/3&id=users/2&id=USERS/1");

        JsonElement results = answer.GetProperty("Results");
        Assert.Equal(3, results.GetArrayLength());
        Assert.Equal("Cid", results[0].GetProperty("Name").GetString());
        Assert.Equal(JsonValueKind.Null, results[1].ValueKind);
        Assert.Equal("Ann", results[2].GetProperty("Name").GetString());
    }

    [Fact]
    public async Task Include_ReturnsReferencedDocuments_ForPropertyAndArrayPaths()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        await FolioApi.StoreAsync(_client, db, "companies/1", """{"Name":"Acme"}""");
        await FolioApi.StoreAsync(_client, db, "products/1", """{"Name":"Chai"}""");
        await FolioApi.StoreAsync(_client, db, "products/2", """{"Name":"Chang"}""");
        await FolioApi.StoreAsync(_client, db, "orders/1", """{"Company":"companies/1","Lines":[{"Product":"products/1"},{"Product":"products/2"},{"Product":"products/1"},{"Product":"products/404"}]}""");

        JsonElement one = await FolioApi.GetJsonAsync(_client, $"/databases/{db}/docs?id=orders/1&include=Company&include=Lines[].Product");
        JsonElement many = await FolioApi.GetJsonAsync(_client, $"/databases/{db}/docs?id=orders/1&id=orders/2&include=Company");

        JsonElement includes = one.GetProperty("Includes");
        Assert.Equal(["companies/1", "products/1", "products/2"], includes.EnumerateObject().Select(p => p.Name).ToArray());
        Assert.Equal("Chang", includes.GetProperty("products/2").GetProperty("Name").GetString());
        Assert.Equal("Acme", many.GetProperty("Includes").GetProperty("companies/1").GetProperty("Name").GetString());
        Assert.Equal(JsonValueKind.Null, many.GetProperty("Results")[1].ValueKind);
    }

    [Fact]
    public async Task StartsWith_PagesThroughIdsInOrder()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        for (int i = 0; i < 12; i++)
            await FolioApi.StoreAsync(_client, db, $"users/{i:D2}", $$"""{"N":{{i}}}""");
        await FolioApi.StoreAsync(_client, db, "orders/1", """{"N":100}""");

        JsonElement page = await FolioApi.GetJsonAsync(_client, $"/databases/{db}/docs?startsWith=USERS/&start=5&pageSize=4");
        JsonElement all = await FolioApi.GetJsonAsync(_client, $"/databases/{db}/docs");

        Assert.Equal([5, 6, 7, 8], page.GetProperty("Results").EnumerateArray().Select(d => d.GetProperty("N").GetInt32()).ToArray());
        Assert.Equal(4, page.GetProperty("PageSize").GetInt32());
        Assert.False(page.GetProperty("PageSizeCapped").GetBoolean());
        Assert.Equal(13, all.GetProperty("Results").GetArrayLength());
        Assert.Equal("orders/1", all.GetProperty("Results")[0].GetProperty("@metadata").GetProperty("@id").GetString());
    }

    [Fact]
    public async Task Collection_PagesThroughDocumentsOfOneCollection()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        for (int i = 0; i < 5; i++)
            await FolioApi.StoreAsync(_client, db, $"orders/{i}", $$"""{"N":{{i}}}""");
        await FolioApi.StoreAsync(_client, db, "misc/1", """{"N":99,"@metadata":{"@collection":"Orders"}}""");
        await FolioApi.StoreAsync(_client, db, "users/1", """{"N":100}""");

        JsonElement page = await FolioApi.GetJsonAsync(_client, $"/databases/{db}/collections/docs?name=ORDERS&start=1&pageSize=10");
        JsonElement none = await FolioApi.GetJsonAsync(_client, $"/databases/{db}/collections/docs?name=Nothing");

        Assert.Equal([1, 2, 3, 4, 99], page.GetProperty("Results").EnumerateArray().Select(d => d.GetProperty("N").GetInt32()).ToArray());
        Assert.Equal(0, none.GetProperty("Results").GetArrayLength());
    }

    [Fact]
    public async Task PageSize_IsCappedAndSaysSo_WhenAskingForMoreThanTheCap()
    {
        await using RunningServer running = await RunningServer.StartAsync("--MaxPageSize=3");
        string db = await FolioApi.CreateDatabaseAsync(running.Client);
        for (int i = 0; i < 5; i++)
            await FolioApi.StoreAsync(running.Client, db, $"users/{i}", "{}");

        using HttpResponseMessage response = await running.Client.GetAsync($"/databases/{db}/docs?pageSize=100000");
        JsonElement defaulted = await FolioApi.GetJsonAsync(running.Client, $"/databases/{db}/collections/docs?name=users");

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("3", response.Headers.GetValues("Folio-Page-Size-Capped").Single());
        JsonElement page = JsonDocument.Parse(await response.Content.ReadAsStringAsync()).RootElement;
        Assert.Equal(3, page.GetProperty("Results").GetArrayLength());
        Assert.Equal(3, page.GetProperty("PageSize").GetInt32());
        Assert.True(page.GetProperty("PageSizeCapped").GetBoolean());
        Assert.Equal(3, defaulted.GetProperty("Results").GetArrayLength());
        Assert.False(defaulted.GetProperty("PageSizeCapped").GetBoolean());
    }

    [Fact]
    public async Task Stats_CountDocumentsCollectionsAndEtags()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        await FolioApi.StoreAsync(_client, db, "users/1", "{}");
        await FolioApi.StoreAsync(_client, db, "users/2", "{}");
        await FolioApi.StoreAsync(_client, db, "Orders/1", "{}");
        await _client.DeleteAsync(FolioApi.DocsUri(db, "users/2"));

        JsonElement stats = await FolioApi.GetJsonAsync(_client, $"/databases/{db}/stats");
        JsonElement collections = await FolioApi.GetJsonAsync(_client, $"/databases/{db}/collections/stats");

        Assert.Equal(2, stats.GetProperty("CountOfDocuments").GetInt64());
        Assert.Equal(0, stats.GetProperty("CountOfIndexes").GetInt64());
        Assert.Equal(4, stats.GetProperty("LastDocEtag").GetInt64());
        Assert.Equal(1, stats.GetProperty("CountOfTombstones").GetInt64());
        Assert.True(stats.GetProperty("SizeOnDisk").GetInt64() > 0);
        Assert.False(string.IsNullOrEmpty(stats.GetProperty("DatabaseId").GetString()));
        Assert.Equal(2, collections.GetProperty("CountOfDocuments").GetInt64());
        Assert.Equal(1, collections.GetProperty("Collections").GetProperty("users").GetInt64());
        Assert.Equal(1, collections.GetProperty("Collections").GetProperty("Orders").GetInt64());
    }

    [Theory]
    [InlineData("../../etc/passwd")]
    [InlineData("a/../../b")]
    [InlineData("users/1/..")]
    [InlineData("..")]
    [InlineData("C:\\Windows\\system32")]
    [InlineData("users/ä/ß/日本")]
    [InlineData("a+b c&d=e?f#g%h")]
    public async Task Ids_WithPathAndQueryCharacters_RoundTripAsPlainKeys(string id)
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        var (stored, _) = await FolioApi.StoreAsync(_client, db, id, """{"Safe":true}""");
        JsonElement? loaded = await FolioApi.LoadAsync(_client, db, id);
        JsonElement listed = await FolioApi.GetJsonAsync(_client, $"/databases/{db}/docs");

        Assert.Equal(id, stored);
        Assert.Equal(id, loaded!.Value.GetProperty("@metadata").GetProperty("@id").GetString());
        Assert.Equal(id, listed.GetProperty("Results")[0].GetProperty("@metadata").GetProperty("@id").GetString());
        // An id is a key inside the data file, never a path: the database directory holds only storage files and its indexes' folder.
        string directory = Path.Combine(_fixture.Running.DataDir, "Databases", db);
        Assert.All(Directory.GetDirectories(directory), sub => Assert.Equal(Folio.Server.Databases.DatabaseRegistry.IndexesFolder, Path.GetFileName(sub)));
        Assert.DoesNotContain(
            Directory.EnumerateFileSystemEntries(_fixture.Running.DataDir, "*", SearchOption.AllDirectories),
            path => path.Contains("passwd", StringComparison.Ordinal) || path.Contains("system32", StringComparison.Ordinal));
    }

    [Fact]
    public async Task EncodedSlash_InId_IsTheSameIdAsSlash()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);

        using HttpResponseMessage put = await _client.PutAsync($"/databases/{db}/docs?id=users%2F7", FolioApi.Json("""{"N":7}"""));
        JsonElement? loaded = await FolioApi.LoadAsync(_client, db, "users/7");

        Assert.Equal(HttpStatusCode.Created, put.StatusCode);
        Assert.Equal(7, loaded!.Value.GetProperty("N").GetInt32());
    }
}
