using System.Text;
using System.Text.Json;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Wire;

/// <summary>The document routes answer as the wire contract says, for good and bad input.</summary>
public sealed class DocumentConformanceTests(WireFixture fixture) : WireTests(fixture)
{
    private const string Docs = "/databases/{db}/docs";
    private const string Collection = "/databases/{db}/collections/docs";

    [Fact]
    [Exercises("GET /databases/{db}/docs", "HEAD /databases/{db}/docs")]
    public async Task GetDocuments_AnswerAsDocumented_ForGoodAndBadInput()
    {
        string db = await SeedAsync();
        string uri = $"/databases/{db}/docs";

        WireAnswer one = await Wire.GetAsync(Docs, $"{uri}?id=users/1");
        string etag = one.Header("ETag")!;
        Assert.Equal(304, (await Wire.GetAsync(Docs, $"{uri}?id=users/1", ("If-None-Match", etag))).Status);
        WireAnswer included = await Wire.GetAsync(Docs, $"{uri}?id=users/1&include=Company");
        Assert.True(included.Body.GetProperty("Includes").TryGetProperty("companies/1", out _));
        Assert.Equal(304, (await Wire.GetAsync(Docs, $"{uri}?id=users/1&include=Company", ("If-None-Match", etag))).Status);
        WireAnswer many = await Wire.GetAsync(Docs, $"{uri}?id=users/1&id=users/404&id=users/2&include=Company");
        Assert.Equal(JsonValueKind.Null, many.Body.GetProperty("Results")[1].ValueKind);
        WireAnswer page = await Wire.GetAsync(Docs, $"{uri}?startsWith=users/&start=1&pageSize=1&include=Company");
        Assert.Single(page.Body.GetProperty("Results").EnumerateArray());
        WireAnswer capped = await Wire.GetAsync(Docs, $"{uri}?pageSize=5000");
        Assert.Equal(WireFixture.MaxPageSize.ToString(System.Globalization.CultureInfo.InvariantCulture), capped.Header("Folio-Page-Size-Capped"));

        Assert.Equal(404, (await Wire.GetAsync(Docs, $"{uri}?id=users/404")).Status);
        Assert.Equal(404, (await Wire.GetAsync(Docs, $"{uri}?id=users/404&include=Company")).Status);
        Assert.Equal(404, (await Wire.GetAsync(Docs, "/databases/no-such-db/docs?id=users/1")).Status);
        Assert.Equal(400, (await Wire.GetAsync(Docs, $"{uri}?id=")).Status);
        Assert.Equal(400, (await Wire.GetAsync(Docs, $"{uri}?id={new string('x', 600)}")).Status);
        Assert.Equal(400, (await Wire.GetAsync(Docs, $"{uri}?start=-1")).Status);
        Assert.Equal(400, (await Wire.GetAsync(Docs, $"{uri}?startsWith=a&startsWith=b")).Status);
        Assert.Equal(400, (await Wire.GetAsync(Docs, $"{uri}?id=users/1&id=users/2&include=%27open")).Status);

        Assert.Equal(200, (await Wire.SendAsync(HttpMethod.Head, Docs, $"{uri}?id=users/1")).Status);
        Assert.Equal(304, (await Wire.SendAsync(HttpMethod.Head, Docs, $"{uri}?id=users/1", (string?)null, ("If-None-Match", etag))).Status);
        Assert.Equal(200, (await Wire.SendAsync(HttpMethod.Head, Docs, $"{uri}?startsWith=users/")).Status);
        Assert.Equal(404, (await Wire.SendAsync(HttpMethod.Head, Docs, $"{uri}?id=users/404")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Head, Docs, $"{uri}?id=")).Status);

        AssertExercised();
    }

    [Fact]
    [Exercises("GET /databases/{db}/export", "POST /databases/{db}/import")]
    public async Task Export_AnswersAsDocumented_ForGoodAndBadInput()
    {
        string db = await SeedAsync();
        const string Export = "/databases/{db}/export";

        WireAnswer lines = await Wire.GetAsync(Export, $"/databases/{db}/export");
        Assert.Equal(200, lines.Status);
        Assert.True(lines.Body.GetArrayLength() > 0);
        Assert.Equal(200, (await Wire.GetAsync(Export, $"/databases/{db}/export?compress=gzip")).Status);
        Assert.Equal(400, (await Wire.GetAsync(Export, $"/databases/{db}/export?compress=zip")).Status);
        Assert.Equal(404, (await Wire.GetAsync(Export, "/databases/no-such-db/export")).Status);

        const string Import = "/databases/{db}/import";
        string target = await FolioApi.CreateDatabaseAsync(Server.Client);
        string ndjson = string.Join("\n", lines.Body.EnumerateArray().Select(l => l.GetRawText()));
        Assert.Equal(201, (await Wire.SendAsync(HttpMethod.Post, Import, $"/databases/{target}/import", new StringContent(ndjson, Encoding.UTF8, "application/x-ndjson"))).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, Import, $"/databases/{target}/import", new StringContent("{\"no\":\"id\"}", Encoding.UTF8, "application/x-ndjson"))).Status);
        Assert.Equal(404, (await Wire.SendAsync(HttpMethod.Post, Import, "/databases/no-such-db/import", new StringContent("", Encoding.UTF8, "application/x-ndjson"))).Status);

        AssertExercised();
    }

    [Fact]
    [Exercises("PUT /databases/{db}/docs")]
    public async Task PutDocument_AnswersAsDocumented_ForGoodAndBadInput()
    {
        string db = await FolioApi.CreateDatabaseAsync(Server.Client);
        string uri = $"/databases/{db}/docs";

        WireAnswer first = await Wire.SendAsync(HttpMethod.Put, Docs, $"{uri}?id=users/1", """{"Name":"Ann","@metadata":{"@collection":"People","Tag":1}}""");
        string changeVector = first.Body.GetProperty("ChangeVector").GetString()!;
        WireAnswer made = await Wire.SendAsync(HttpMethod.Put, Docs, $"{uri}?id=orders/", """{"Total":5}""");
        Assert.Equal("orders/1", made.Body.GetProperty("Id").GetString());
        Assert.Equal(201, (await Wire.SendAsync(HttpMethod.Put, Docs, $"{uri}?id=users/1", """{"Name":"Bo"}""", ("If-Match", $"\"{changeVector}\""))).Status);

        Assert.Equal(409, (await Wire.SendAsync(HttpMethod.Put, Docs, $"{uri}?id=users/1", """{"Name":"Cy"}""", ("If-Match", $"\"{changeVector}\""))).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Put, Docs, $"{uri}?id=users/1", "{}", ("If-Match", "*"))).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Put, Docs, uri, "{}")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Put, Docs, $"{uri}?id=%20", "{}")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Put, Docs, $"{uri}?id=users/2", "[1]")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Put, Docs, $"{uri}?id=users/2", """{"Name":""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Put, Docs, $"{uri}?id=users/2", """{"@metadata":{"@collection":5}}""")).Status);
        Assert.Equal(413, (await Wire.SendAsync(HttpMethod.Put, Docs, $"{uri}?id=users/2", LargeObject(WireFixture.MaxDocumentBytes + 1024))).Status);
        Assert.Equal(404, (await Wire.SendAsync(HttpMethod.Put, Docs, "/databases/no-such-db/docs?id=users/1", "{}")).Status);

        AssertExercised();
    }

    [Fact]
    [Exercises("DELETE /databases/{db}/docs")]
    public async Task DeleteDocument_AnswersAsDocumented_ForGoodAndBadInput()
    {
        string db = await FolioApi.CreateDatabaseAsync(Server.Client);
        string uri = $"/databases/{db}/docs";
        var (_, stale) = await FolioApi.StoreAsync(Server.Client, db, "users/1", """{"V":1}""");
        var (_, current) = await FolioApi.StoreAsync(Server.Client, db, "users/1", """{"V":2}""");

        Assert.Equal(409, (await Wire.SendAsync(HttpMethod.Delete, Docs, $"{uri}?id=users/1", (string?)null, ("If-Match", $"\"{stale}\""))).Status);
        Assert.Equal(204, (await Wire.SendAsync(HttpMethod.Delete, Docs, $"{uri}?id=users/1", (string?)null, ("If-Match", $"\"{current}\""))).Status);
        Assert.Equal(204, (await Wire.SendAsync(HttpMethod.Delete, Docs, $"{uri}?id=users/1")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Delete, Docs, uri)).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Delete, Docs, $"{uri}?id=users/1", (string?)null, ("If-Match", "\"a\", \"b\""))).Status);
        Assert.Equal(404, (await Wire.SendAsync(HttpMethod.Delete, Docs, "/databases/no-such-db/docs?id=users/1")).Status);

        AssertExercised();
    }

    [Fact]
    [Exercises("GET /databases/{db}/collections/docs")]
    public async Task ListCollection_AnswersAsDocumented_ForGoodAndBadInput()
    {
        string db = await SeedAsync();
        string uri = $"/databases/{db}/collections/docs";

        WireAnswer page = await Wire.GetAsync(Collection, $"{uri}?name=USERS&include=Company");
        Assert.Equal(2, page.Body.GetProperty("Results").GetArrayLength());
        Assert.Equal(200, (await Wire.GetAsync(Collection, $"{uri}?name=users&start=1&pageSize=5000")).Status);
        Assert.Empty((await Wire.GetAsync(Collection, $"{uri}?name=nothing")).Body.GetProperty("Results").EnumerateArray());

        Assert.Equal(400, (await Wire.GetAsync(Collection, uri)).Status);
        Assert.Equal(400, (await Wire.GetAsync(Collection, $"{uri}?name=")).Status);
        Assert.Equal(400, (await Wire.GetAsync(Collection, $"{uri}?name=users&pageSize=ten")).Status);
        Assert.Equal(404, (await Wire.GetAsync(Collection, "/databases/no-such-db/collections/docs?name=users")).Status);

        AssertExercised();
    }

    /// <summary>A database with two users referring to one company.</summary>
    private async Task<string> SeedAsync()
    {
        string db = await FolioApi.CreateDatabaseAsync(Server.Client);
        await FolioApi.StoreAsync(Server.Client, db, "companies/1", """{"Name":"Acme"}""");
        await FolioApi.StoreAsync(Server.Client, db, "users/1", """{"Name":"Ann","Company":"companies/1"}""");
        await FolioApi.StoreAsync(Server.Client, db, "users/2", """{"Name":"Bo","Company":"companies/1","Tags":["a"]}""");
        return db;
    }
}
