using System.Net;
using System.Text.Json;
using Folio.Server.Http;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Documents;

public class BulkDocsTests : IClassFixture<ServerFixture>
{
    private readonly HttpClient _client;

    public BulkDocsTests(ServerFixture fixture)
    {
        _client = fixture.Client;
    }

    [Fact]
    public async Task Batch_RunsPutsAndDeletes_AndAnswersInCommandOrder()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        await FolioApi.StoreAsync(_client, db, "users/9", "{}");

        using HttpResponseMessage response = await PostAsync(db, """
            {"Commands":[
              {"Type":"PUT","Id":"users/1","Document":{"Name":"Ann"}},
              {"Type":"PUT","Id":"orders/","Document":{"Total":5,"@metadata":{"@collection":"Orders"}}},
              {"Type":"DELETE","Id":"users/9"},
              {"Type":"DELETE","Id":"users/404","ChangeVector":null}
            ]}
            """);

        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
        JsonElement results = JsonDocument.Parse(await response.Content.ReadAsStringAsync()).RootElement.GetProperty("Results");
        Assert.Equal(4, results.GetArrayLength());
        Assert.Equal("PUT", results[0].GetProperty("Type").GetString());
        Assert.Equal("users/1", results[0].GetProperty("@id").GetString());
        Assert.Equal("users", results[0].GetProperty("@collection").GetString());
        Assert.StartsWith("A:", results[0].GetProperty("@change-vector").GetString(), StringComparison.Ordinal);
        Assert.True(DateTime.TryParse(results[0].GetProperty("@last-modified").GetString(), out _));
        Assert.Equal("orders/1", results[1].GetProperty("@id").GetString());
        Assert.Equal("Orders", results[1].GetProperty("@collection").GetString());
        Assert.Equal("DELETE", results[2].GetProperty("Type").GetString());
        Assert.True(results[2].GetProperty("Deleted").GetBoolean());
        Assert.False(results[3].GetProperty("Deleted").GetBoolean());
        Assert.NotNull(await FolioApi.LoadAsync(_client, db, "users/1"));
        Assert.Null(await FolioApi.LoadAsync(_client, db, "users/9"));
        // One transaction: every write of the batch carries a consecutive etag.
        Assert.Equal(4, (await FolioApi.StatsAsync(_client, db)).LastDocEtag);
    }

    [Fact]
    public async Task Batch_WithStaleChangeVector_WritesNothing()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        var (_, stale) = await FolioApi.StoreAsync(_client, db, "users/1", """{"V":1}""");
        await FolioApi.StoreAsync(_client, db, "users/1", """{"V":2}""");
        DatabaseStats before = await FolioApi.StatsAsync(_client, db);

        using HttpResponseMessage response = await PostAsync(db, $$$"""
            {"Commands":[
              {"Type":"PUT","Id":"users/2","Document":{"V":1}},
              {"Type":"DELETE","Id":"users/1"},
              {"Type":"PUT","Id":"users/1","Document":{"V":3},"ChangeVector":"{{{stale}}}"}
            ]}
            """);

        await ProblemAssert.IsProblemAsync(response, HttpStatusCode.Conflict, ProblemTypes.ConcurrencyConflict);
        Assert.Equal(before, await FolioApi.StatsAsync(_client, db));
        Assert.Null(await FolioApi.LoadAsync(_client, db, "users/2"));
        Assert.Equal(2, (await FolioApi.LoadAsync(_client, db, "users/1"))!.Value.GetProperty("V").GetInt32());
    }

    [Theory]
    [InlineData("""{"Commands":[{"Type":"PUT","Id":"a/1","Document":{}},{"Type":"PUT","Id":"   ","Document":{}}]}""", ProblemTypes.InvalidDocumentId)]
    [InlineData("""{"Commands":[{"Type":"PUT","Id":"a/1","Document":{}},{"Type":"PUT","Id":"a/2","Document":[1]}]}""", ProblemTypes.BadRequest)]
    [InlineData("""{"Commands":[{"Type":"PUT","Id":"a/1","Document":{}},{"Type":"PATCH","Id":"a/2"}]}""", ProblemTypes.BadRequest)]
    [InlineData("""{"Commands":[{"Type":"PUT","Id":"a/1","Document":{}},{"Type":"PUT","Id":"a/2"}]}""", ProblemTypes.BadRequest)]
    [InlineData("""{"Commands":[{"Type":"PUT","Id":"a/1","Document":{}},{"Type":"PUT","Id":"a/2","Document":{"@metadata":[]}}]}""", ProblemTypes.InvalidDocument)]
    [InlineData("""{"Commands":[{"Type":"PUT","Id":"a/1","Document":{}}""", ProblemTypes.MalformedJson)]
    [InlineData("""{"Commands":{}}""", ProblemTypes.BadRequest)]
    [InlineData("""{}""", ProblemTypes.BadRequest)]
    [InlineData("""[]""", ProblemTypes.BadRequest)]
    public async Task Batch_WithOneBadCommand_Returns400AndWritesNothing(string body, string type)
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        DatabaseStats before = await FolioApi.StatsAsync(_client, db);

        using HttpResponseMessage response = await PostAsync(db, body);

        await ProblemAssert.IsProblemAsync(response, HttpStatusCode.BadRequest, type);
        Assert.Equal(before, await FolioApi.StatsAsync(_client, db));
    }

    [Fact]
    public async Task EmptyBatch_AnswersNoResults()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);

        using HttpResponseMessage response = await PostAsync(db, """{"Commands":[]}""");

        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
        Assert.Equal(0, JsonDocument.Parse(await response.Content.ReadAsStringAsync()).RootElement.GetProperty("Results").GetArrayLength());
    }

    private Task<HttpResponseMessage> PostAsync(string db, string body) =>
        _client.PostAsync($"/databases/{db}/bulk_docs", FolioApi.Json(body));
}
