using System.Net;
using System.Text;
using System.Text.Json;
using Folio.Server.Http;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.BadInput;

/// <summary>
/// Hostile and broken requests: each must get a 4xx problem+json with the right status, write nothing
/// (the database's stats and the data directory are unchanged) and leave the server serving.
/// </summary>
public class BadInputTests : IClassFixture<BadInputFixture>
{
    private const string ValidDocument = """{"Name":"Ann","Tags":["a","b"],"Address":{"City":"Oslo","Zip":null},"Age":41.5,"Admin":true}""";

    private readonly BadInputFixture _fixture;

    public BadInputTests(BadInputFixture fixture)
    {
        _fixture = fixture;
    }

    private HttpClient Client => _fixture.Client;

    private string Db => _fixture.Database;

    [Theory]
    [InlineData("{not json")]
    [InlineData("{\"a\":1,}")]
    [InlineData("{\"a\":1")]
    [InlineData("{\"a\":}")]
    [InlineData("{'a':1}")]
    [InlineData("{\"a\":NaN}")]
    [InlineData("{\"a\":/*comment*/1}")]
    [InlineData("{\"a\":1}{\"b\":2}")]
    [InlineData("{\"a\":1} trailing")]
    [InlineData("[1,2]")]
    [InlineData("\"just a string\"")]
    [InlineData("42")]
    [InlineData("null")]
    [InlineData("")]
    [InlineData("   ")]
    [InlineData("{\"@metadata\":{},\"@metadata\":{}}")]
    [InlineData("{\"@metadata\":[]}")]
    [InlineData("{\"@metadata\":{\"@collection\":5}}")]
    [InlineData("{\"@metadata\":{\"@collection\":\"\"}}")]
    [InlineData("{\"@metadata\":{\"@collection\":\"line\\nbreak\"}}")]
    [InlineData("{\"@metadata\":{\"@collection\":\"nul\\u0000\"}}")]
    [InlineData("{\"@metadata\":{\"@collection\":\"half\\udc00\"}}")]
    public Task Put_MalformedOrNonObjectJson_Returns400(string body) =>
        ExpectProblemAsync(() => PutBytesAsync("users/bad", Encoding.UTF8.GetBytes(body)), HttpStatusCode.BadRequest, ProblemTypes.InvalidDocument);

    [Theory]
    [InlineData(new byte[] { (byte)'{', (byte)'"', (byte)'a', (byte)'"', (byte)':', (byte)'"', 0xFF, (byte)'"', (byte)'}' })]
    [InlineData(new byte[] { (byte)'{', (byte)'"', (byte)'a', (byte)'"', (byte)':', (byte)'"', 0xC0, 0xAF, (byte)'"', (byte)'}' })]
    [InlineData(new byte[] { (byte)'{', (byte)'"', 0xED, 0xA0, 0x80, (byte)'"', (byte)':', (byte)'1', (byte)'}' })]
    [InlineData(new byte[] { (byte)'{', (byte)'"', (byte)'a', (byte)'"', (byte)':', (byte)'"', 0xE2, 0x82, (byte)'"', (byte)'}' })]
    public Task Put_InvalidUtf8_Returns400(byte[] body) =>
        ExpectProblemAsync(() => PutBytesAsync("users/bad", body), HttpStatusCode.BadRequest, ProblemTypes.InvalidDocument);

    [Fact]
    public Task Put_TenThousandDeepObjects_Returns400() =>
        ExpectProblemAsync(
            () => PutBytesAsync("users/deep", Encoding.UTF8.GetBytes(string.Concat(Enumerable.Repeat("{\"a\":", 10_000)) + "1" + new string('}', 10_000))),
            HttpStatusCode.BadRequest,
            ProblemTypes.InvalidDocument);

    [Fact]
    public Task Put_TenThousandDeepArrays_Returns400() =>
        ExpectProblemAsync(
            () => PutBytesAsync("users/deep", Encoding.UTF8.GetBytes("{\"a\":" + new string('[', 10_000) + new string(']', 10_000) + "}")),
            HttpStatusCode.BadRequest,
            ProblemTypes.InvalidDocument);

    [Fact]
    public Task BulkDocs_TenThousandDeepDocument_Returns400() =>
        ExpectProblemAsync(
            () => Client.PostAsync($"/databases/{Db}/bulk_docs", FolioApi.Json("{\"Commands\":[{\"Type\":\"PUT\",\"Id\":\"a/1\",\"Document\":{\"a\":" + new string('[', 10_000) + new string(']', 10_000) + "}}]}")),
            HttpStatusCode.BadRequest,
            ProblemTypes.MalformedJson);

    [Fact]
    public Task Put_OversizedDocument_Returns413() =>
        ExpectProblemAsync(
            () => PutBytesAsync("users/big", Encoding.UTF8.GetBytes($$"""{"Big":"{{new string('x', BadInputFixture.MaxDocumentSizeBytes)}}"}""")),
            HttpStatusCode.RequestEntityTooLarge,
            ProblemTypes.TooLarge);

    [Fact]
    public Task Put_OversizedChunkedDocument_Returns413()
    {
        byte[] body = Encoding.UTF8.GetBytes($$"""{"Big":"{{new string('x', BadInputFixture.MaxDocumentSizeBytes)}}"}""");
        return ExpectProblemAsync(
            () => Client.PutAsync(FolioApi.DocsUri(Db, "users/big"), new StreamContent(new UnknownLengthStream(body))),
            HttpStatusCode.RequestEntityTooLarge,
            ProblemTypes.TooLarge);
    }

    [Fact]
    public Task BulkDocs_OversizedDocument_Returns413() =>
        ExpectProblemAsync(
            () => Client.PostAsync(
                $"/databases/{Db}/bulk_docs",
                FolioApi.Json($$$"""{"Commands":[{"Type":"PUT","Id":"a/1","Document":{}},{"Type":"PUT","Id":"a/2","Document":{"Big":"{{{new string('x', BadInputFixture.MaxDocumentSizeBytes)}}}"}}]}""")),
            HttpStatusCode.RequestEntityTooLarge,
            ProblemTypes.TooLarge);

    [Fact]
    public Task BulkDocs_OversizedBody_Returns413() =>
        ExpectProblemAsync(
            () => Client.PostAsync($"/databases/{Db}/bulk_docs", FolioApi.Json("{\"Commands\":[]," + "\"Pad\":\"" + new string('x', 3 * BadInputFixture.MaxDocumentSizeBytes) + "\"}")),
            HttpStatusCode.RequestEntityTooLarge,
            ProblemTypes.TooLarge);

    [Theory]
    [InlineData("PUT", "/databases/{db}/docs?id=", ProblemTypes.InvalidDocumentId)]
    [InlineData("PUT", "/databases/{db}/docs?id=%20%20", ProblemTypes.InvalidDocumentId)]
    [InlineData("PUT", "/databases/{db}/docs?id=a%00b", ProblemTypes.InvalidDocumentId)]
    [InlineData("PUT", "/databases/{db}/docs?id=a%01b", ProblemTypes.InvalidDocumentId)]
    [InlineData("PUT", "/databases/{db}/docs?id=users%2F1%0A", ProblemTypes.InvalidDocumentId)]
    [InlineData("PUT", "/databases/{db}/docs?id=a%7Fb", ProblemTypes.InvalidDocumentId)]
    [InlineData("PUT", "/databases/{db}/docs?id=a%C2%85b", ProblemTypes.InvalidDocumentId)]
    [InlineData("PUT", "/databases/{db}/docs?id=users%2F..%2F..%2F%00", ProblemTypes.InvalidDocumentId)]
    [InlineData("PUT", "/databases/{db}/docs?id={long}", ProblemTypes.InvalidDocumentId)]
    [InlineData("PUT", "/databases/{db}/docs", ProblemTypes.InvalidParameter)]
    [InlineData("PUT", "/databases/{db}/docs?id=a&id=b", ProblemTypes.InvalidParameter)]
    [InlineData("DELETE", "/databases/{db}/docs?id=", ProblemTypes.InvalidDocumentId)]
    [InlineData("DELETE", "/databases/{db}/docs?id=users%2F1%00", ProblemTypes.InvalidDocumentId)]
    [InlineData("DELETE", "/databases/{db}/docs", ProblemTypes.InvalidParameter)]
    [InlineData("GET", "/databases/{db}/docs?id=", ProblemTypes.InvalidDocumentId)]
    [InlineData("GET", "/databases/{db}/docs?id=users%2F1&id=%00", ProblemTypes.InvalidDocumentId)]
    [InlineData("GET", "/databases/{db}/docs?id={long}", ProblemTypes.InvalidDocumentId)]
    public Task BadIds_Return400(string method, string uri, string type) =>
        ExpectProblemAsync(() => SendAsync(method, uri, ValidDocument), HttpStatusCode.BadRequest, type);

    [Theory]
    [InlineData("../evil")]
    [InlineData("..")]
    [InlineData(".")]
    [InlineData(".hidden")]
    [InlineData("trailing.")]
    [InlineData("a/b")]
    [InlineData("a\\\\b")]
    [InlineData("/etc")]
    [InlineData("C:")]
    [InlineData("con")]
    [InlineData("NUL.txt")]
    [InlineData("system")]
    [InlineData("")]
    [InlineData("white space")]
    [InlineData("ünïcode")]
    [InlineData("a%2Fb")]
    [InlineData("tab\\tname")]
    [InlineData("{long}")]
    public async Task CreateDatabase_WithBadName_Returns400AndCreatesNoDirectory(string name)
    {
        name = name.Replace("{long}", new string('n', 200), StringComparison.Ordinal);
        string[] before = DataDirEntries();

        await ExpectProblemAsync(
            () => Client.PutAsync("/admin/databases", FolioApi.Json($$"""{"Name":"{{name}}"}""")),
            HttpStatusCode.BadRequest,
            ProblemTypes.InvalidDatabaseName);

        Assert.Equal(before, DataDirEntries());
    }

    [Theory]
    [InlineData("[]")]
    [InlineData("{}")]
    [InlineData("{\"Name\":5}")]
    [InlineData("{\"Name\":null}")]
    [InlineData("{\"Name\":\"x\"} extra")]
    public Task CreateDatabase_WithBadBody_Returns400(string body) =>
        ExpectProblemAsync(() => Client.PutAsync("/admin/databases", FolioApi.Json(body)), HttpStatusCode.BadRequest, null);

    [Theory]
    [InlineData("GET", "/databases/..%2F..%2Fetc/docs?id=passwd", HttpStatusCode.BadRequest, ProblemTypes.InvalidDatabaseName)]
    [InlineData("PUT", "/databases/..%2F..%2Ftmp/docs?id=x", HttpStatusCode.BadRequest, ProblemTypes.InvalidDatabaseName)]
    [InlineData("GET", "/databases/con/docs?id=a", HttpStatusCode.BadRequest, ProblemTypes.InvalidDatabaseName)]
    [InlineData("GET", "/databases/.hidden/stats", HttpStatusCode.BadRequest, ProblemTypes.InvalidDatabaseName)]
    [InlineData("PUT", "/databases/no-such-db/docs?id=a", HttpStatusCode.NotFound, ProblemTypes.DatabaseNotFound)]
    [InlineData("GET", "/databases/no-such-db/stats", HttpStatusCode.NotFound, ProblemTypes.DatabaseNotFound)]
    [InlineData("POST", "/databases/no-such-db/bulk_docs", HttpStatusCode.NotFound, ProblemTypes.DatabaseNotFound)]
    [InlineData("DELETE", "/admin/databases?name=..%2F..%2Fetc", HttpStatusCode.BadRequest, ProblemTypes.InvalidDatabaseName)]
    [InlineData("DELETE", "/admin/databases?name=no-such-db", HttpStatusCode.NotFound, ProblemTypes.DatabaseNotFound)]
    [InlineData("DELETE", "/admin/databases", HttpStatusCode.BadRequest, ProblemTypes.InvalidParameter)]
    public async Task BadOrUnknownDatabase_ReturnsProblem(string method, string uri, HttpStatusCode status, string type)
    {
        string[] before = DataDirEntries();

        await ExpectProblemAsync(() => SendAsync(method, uri, ValidDocument), status, type);

        Assert.Equal(before, DataDirEntries());
    }

    [Theory]
    [InlineData("GET", "/nope", HttpStatusCode.NotFound, ProblemTypes.RouteNotFound)]
    [InlineData("GET", "/databases/{db}/nope", HttpStatusCode.NotFound, ProblemTypes.RouteNotFound)]
    [InlineData("PUT", "/databases/{db}/docs/extra?id=a", HttpStatusCode.NotFound, ProblemTypes.RouteNotFound)]
    [InlineData("PATCH", "/databases/{db}/stats", HttpStatusCode.MethodNotAllowed, ProblemTypes.MethodNotAllowed)]
    [InlineData("DELETE", "/databases/{db}/stats", HttpStatusCode.MethodNotAllowed, ProblemTypes.MethodNotAllowed)]
    [InlineData("GET", "/databases/{db}/bulk_docs", HttpStatusCode.MethodNotAllowed, ProblemTypes.MethodNotAllowed)]
    [InlineData("DELETE", "/databases", HttpStatusCode.MethodNotAllowed, ProblemTypes.MethodNotAllowed)]
    [InlineData("POST", "/admin/databases", HttpStatusCode.MethodNotAllowed, ProblemTypes.MethodNotAllowed)]
    [InlineData("PUT", "/databases/{db}/stats", HttpStatusCode.MethodNotAllowed, ProblemTypes.MethodNotAllowed)]
    public Task UnknownRoutesAndWrongMethods_ReturnProblem(string method, string uri, HttpStatusCode status, string type) =>
        ExpectProblemAsync(() => SendAsync(method, uri, ValidDocument), status, type);

    [Theory]
    [InlineData("/databases/{db}/docs?start=-1")]
    [InlineData("/databases/{db}/docs?pageSize=-1")]
    [InlineData("/databases/{db}/docs?start=abc")]
    [InlineData("/databases/{db}/docs?pageSize=1e3")]
    [InlineData("/databases/{db}/docs?start=1.5")]
    [InlineData("/databases/{db}/docs?start=")]
    [InlineData("/databases/{db}/docs?start=%2B1")]
    [InlineData("/databases/{db}/docs?pageSize=99999999999")]
    [InlineData("/databases/{db}/docs?start=99999999999999999999999")]
    [InlineData("/databases/{db}/docs?start=1&start=2")]
    [InlineData("/databases/{db}/docs?startsWith=users/&pageSize=-25")]
    [InlineData("/databases/{db}/collections/docs?name=users&start=-5")]
    [InlineData("/databases/{db}/collections/docs?name=users&pageSize=-2147483648")]
    [InlineData("/databases/{db}/collections/docs")]
    [InlineData("/databases/{db}/collections/docs?name=")]
    [InlineData("/databases/{db}/docs?id=users/1&include=a..b")]
    [InlineData("/databases/{db}/docs?id=users/1&include=[]")]
    [InlineData("/databases/{db}/docs?include=Lines[]x")]
    public Task BadPagingAndParameters_Return400(string uri) =>
        ExpectProblemAsync(() => SendAsync("GET", uri, null), HttpStatusCode.BadRequest, ProblemTypes.InvalidParameter);

    [Theory]
    [InlineData("/databases/{db}/docs?pageSize=2147483647", 1, true)]
    [InlineData("/databases/{db}/docs?start=2147483647&pageSize=10", 0, false)]
    [InlineData("/databases/{db}/collections/docs?name=users&pageSize=1000000", 1, true)]
    [InlineData("/databases/{db}/docs?pageSize=0", 0, false)]
    public async Task HugePaging_IsCappedOrEmpty_NotAnError(string uri, int results, bool capped)
    {
        JsonElement page = await FolioApi.GetJsonAsync(Client, uri.Replace("{db}", Db, StringComparison.Ordinal));

        Assert.Equal(results, page.GetProperty("Results").GetArrayLength());
        Assert.Equal(capped, page.GetProperty("PageSizeCapped").GetBoolean());
        Assert.True(page.GetProperty("PageSize").GetInt32() <= 50);
    }

    [Fact]
    public async Task Put_EveryTruncatedPrefixOfAValidBody_Returns400AndWritesNothing()
    {
        byte[] body = Encoding.UTF8.GetBytes(ValidDocument);
        DatabaseStats before = await FolioApi.StatsAsync(Client, Db);

        for (int length = 0; length < body.Length; length++)
        {
            using HttpResponseMessage response = await PutBytesAsync("users/truncated", body.AsSpan(0, length).ToArray());
            Assert.True(response.StatusCode == HttpStatusCode.BadRequest, $"A {length}-byte prefix answered {(int)response.StatusCode}.");
            Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
        }

        Assert.Equal(before, await FolioApi.StatsAsync(Client, Db));
        Assert.Null(await FolioApi.LoadAsync(Client, Db, "users/truncated"));
        using HttpResponseMessage whole = await PutBytesAsync("users/truncated", body);
        Assert.Equal(HttpStatusCode.Created, whole.StatusCode);
        using HttpResponseMessage cleanup = await Client.DeleteAsync(FolioApi.DocsUri(Db, "users/truncated"));
    }

    [Fact]
    public async Task BulkDocs_EveryTruncatedPrefixOfAValidBody_Returns400AndWritesNothing()
    {
        byte[] body = Encoding.UTF8.GetBytes($$$"""{"Commands":[{"Type":"PUT","Id":"bulk/1","Document":{{{ValidDocument}}}},{"Type":"DELETE","Id":"bulk/2"}]}""");
        DatabaseStats before = await FolioApi.StatsAsync(Client, Db);

        for (int length = 0; length < body.Length; length++)
        {
            using var content = new ByteArrayContent(body, 0, length);
            using HttpResponseMessage response = await Client.PostAsync($"/databases/{Db}/bulk_docs", content);
            Assert.True(response.StatusCode == HttpStatusCode.BadRequest, $"A {length}-byte prefix answered {(int)response.StatusCode}.");
        }

        Assert.Equal(before, await FolioApi.StatsAsync(Client, Db));
    }

    private async Task ExpectProblemAsync(Func<Task<HttpResponseMessage>> send, HttpStatusCode status, string? type)
    {
        DatabaseStats before = await FolioApi.StatsAsync(Client, Db);

        using (HttpResponseMessage response = await send())
        {
            Assert.Equal(status, response.StatusCode);
            Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
            JsonElement problem = JsonDocument.Parse(await response.Content.ReadAsStringAsync()).RootElement;
            Assert.Equal((int)status, problem.GetProperty("status").GetInt32());
            Assert.False(string.IsNullOrEmpty(problem.GetProperty("detail").GetString()));
            if (type is not null)
                Assert.Equal(type, problem.GetProperty("type").GetString());
        }

        await FolioApi.AssertServingAsync(Client);
        Assert.Equal("Ann", (await FolioApi.LoadAsync(Client, Db, "users/1"))!.Value.GetProperty("Name").GetString());
        Assert.Equal(before, await FolioApi.StatsAsync(Client, Db));
    }

    private Task<HttpResponseMessage> PutBytesAsync(string id, byte[] body)
    {
        var content = new ByteArrayContent(body);
        content.Headers.ContentType = new System.Net.Http.Headers.MediaTypeHeaderValue("application/json");
        return Client.PutAsync(FolioApi.DocsUri(Db, id), content);
    }

    private Task<HttpResponseMessage> SendAsync(string method, string uri, string? body)
    {
        uri = uri.Replace("{db}", Db, StringComparison.Ordinal).Replace("{long}", new string('i', 600), StringComparison.Ordinal);
        var request = new HttpRequestMessage(new HttpMethod(method), uri);
        if (body is not null && method is "PUT" or "POST" or "PATCH")
            request.Content = FolioApi.Json(body);
        return Client.SendAsync(request);
    }

    private string[] DataDirEntries()
    {
        // A name that escaped Databases/ would land beside it in the data directory (or deeper in Databases/).
        string dataDir = _fixture.Running.DataDir;
        return Directory.GetFileSystemEntries(dataDir)
            .Concat(Directory.GetFileSystemEntries(Path.Combine(dataDir, "Databases")))
            .Order(StringComparer.Ordinal)
            .ToArray();
    }

    private sealed class UnknownLengthStream(byte[] data) : MemoryStream(data)
    {
        public override bool CanSeek => false;
    }
}
