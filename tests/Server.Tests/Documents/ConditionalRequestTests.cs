using System.Net;
using Folio.Server.Http;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Documents;

public class ConditionalRequestTests : IClassFixture<ServerFixture>
{
    private readonly HttpClient _client;

    public ConditionalRequestTests(ServerFixture fixture)
    {
        _client = fixture.Client;
    }

    [Fact]
    public async Task IfNoneMatch_Returns304WithoutBody_WhenETagIsCurrent()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        var (_, changeVector) = await FolioApi.StoreAsync(_client, db, "users/1", """{"Name":"Ann"}""");

        using HttpResponseMessage notModified = await GetWithAsync(FolioApi.DocsUri(db, "users/1"), "If-None-Match", "\"" + changeVector + "\"");
        using HttpResponseMessage unquotedList = await GetWithAsync(FolioApi.DocsUri(db, "users/1"), "If-None-Match", "\"A:999-x\", W/" + "\"" + changeVector + "\"");

        Assert.Equal(HttpStatusCode.NotModified, notModified.StatusCode);
        Assert.Equal("\"" + changeVector + "\"", FolioApi.ETagOf(notModified));
        Assert.Empty(await notModified.Content.ReadAsByteArrayAsync());
        Assert.Equal(HttpStatusCode.NotModified, unquotedList.StatusCode);
    }

    [Fact]
    public async Task IfNoneMatch_Returns200_WhenDocumentChangedSince()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        var (_, old) = await FolioApi.StoreAsync(_client, db, "users/1", """{"Name":"Ann"}""");
        var (_, current) = await FolioApi.StoreAsync(_client, db, "users/1", """{"Name":"Bob"}""");

        using HttpResponseMessage response = await GetWithAsync(FolioApi.DocsUri(db, "users/1"), "If-None-Match", "\"" + old + "\"");

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("\"" + current + "\"", FolioApi.ETagOf(response));
        Assert.Contains("Bob", await response.Content.ReadAsStringAsync(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task IfMatch_Stores_WhenChangeVectorIsCurrent()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        var (_, changeVector) = await FolioApi.StoreAsync(_client, db, "users/1", """{"Name":"Ann"}""");

        using HttpResponseMessage response = await FolioApi.PutAsync(_client, db, "users/1", """{"Name":"Bob"}""", "\"" + changeVector + "\"");

        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
        Assert.Equal("Bob", (await FolioApi.LoadAsync(_client, db, "users/1"))!.Value.GetProperty("Name").GetString());
    }

    [Fact]
    public async Task IfMatch_Returns409AndWritesNothing_WhenChangeVectorIsStale()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        var (_, stale) = await FolioApi.StoreAsync(_client, db, "users/1", """{"Name":"Ann"}""");
        var (_, current) = await FolioApi.StoreAsync(_client, db, "users/1", """{"Name":"Bob"}""");
        DatabaseStats before = await FolioApi.StatsAsync(_client, db);

        using HttpResponseMessage put = await FolioApi.PutAsync(_client, db, "users/1", """{"Name":"Eve"}""", "\"" + stale + "\"");
        using var delete = new HttpRequestMessage(HttpMethod.Delete, FolioApi.DocsUri(db, "users/1"));
        delete.Headers.TryAddWithoutValidation("If-Match", stale);
        using HttpResponseMessage deleted = await _client.SendAsync(delete);

        var problem = await ProblemAssert.IsProblemAsync(put, HttpStatusCode.Conflict, ProblemTypes.ConcurrencyConflict);
        string detail = problem.GetProperty("detail").GetString()!;
        Assert.Contains(stale, detail, StringComparison.Ordinal);
        Assert.Contains(current, detail, StringComparison.Ordinal);
        await ProblemAssert.IsProblemAsync(deleted, HttpStatusCode.Conflict, ProblemTypes.ConcurrencyConflict);
        Assert.Equal(before, await FolioApi.StatsAsync(_client, db));
        Assert.Equal("Bob", (await FolioApi.LoadAsync(_client, db, "users/1"))!.Value.GetProperty("Name").GetString());
    }

    [Fact]
    public async Task IfMatch_Returns409_WhenDocumentDoesNotExist()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        var (_, otherVector) = await FolioApi.StoreAsync(_client, db, "users/2", "{}");

        using HttpResponseMessage response = await FolioApi.PutAsync(_client, db, "users/1", "{}", otherVector);

        await ProblemAssert.IsProblemAsync(response, HttpStatusCode.Conflict, ProblemTypes.ConcurrencyConflict);
        Assert.Null(await FolioApi.LoadAsync(_client, db, "users/1"));
    }

    [Theory]
    [InlineData("*")]
    [InlineData("\"A:1-x\", \"A:2-x\"")]
    public async Task IfMatch_Returns400_WhenNotOneChangeVector(string ifMatch)
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        await FolioApi.StoreAsync(_client, db, "users/1", "{}");

        using HttpResponseMessage response = await FolioApi.PutAsync(_client, db, "users/1", """{"x":1}""", ifMatch);

        await ProblemAssert.IsProblemAsync(response, HttpStatusCode.BadRequest, ProblemTypes.InvalidParameter);
    }

    private async Task<HttpResponseMessage> GetWithAsync(string uri, string header, string value)
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, uri);
        request.Headers.TryAddWithoutValidation(header, value);
        return await _client.SendAsync(request);
    }
}
