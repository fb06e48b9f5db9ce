using System.Net;
using System.Text.Json;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Changes;

public class ChangesFeedTests : IClassFixture<ServerFixture>
{
    private readonly HttpClient _client;

    public ChangesFeedTests(ServerFixture fixture)
    {
        _client = fixture.Client;
    }

    [Fact]
    public async Task NormalFeed_ListsPutsAndDeletesInEtagOrder_AndResumesFromLastEtag()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        await FolioApi.StoreAsync(_client, db, "users/1", """{"Name":"Ann","@metadata":{"@collection":"Users"}}""");
        await FolioApi.StoreAsync(_client, db, "Orders/1", """{"Total":5,"@metadata":{"@collection":"Orders"}}""");
        await FolioApi.StoreAsync(_client, db, "users/1", """{"Name":"Ann B","@metadata":{"@collection":"Users"}}""");
        using (HttpResponseMessage deleted = await _client.DeleteAsync(FolioApi.DocsUri(db, "Orders/1")))
            Assert.Equal(HttpStatusCode.NoContent, deleted.StatusCode);

        JsonElement page = await FolioApi.GetJsonAsync(_client, $"/databases/{db}/changes");

        JsonElement[] results = [.. page.GetProperty("Results").EnumerateArray()];
        Assert.Equal(["users/1", "orders/1"], results.Select(r => r.GetProperty("Id").GetString()));
        Assert.Equal(["Put", "Delete"], results.Select(r => r.GetProperty("ChangeType").GetString()));
        Assert.Equal("Orders", results[1].GetProperty("Collection").GetString());
        long[] etags = [.. results.Select(r => r.GetProperty("Etag").GetInt64())];
        Assert.True(etags[0] < etags[1]);
        Assert.Equal(etags[1], page.GetProperty("LastEtag").GetInt64());
        Assert.StartsWith($"A:{etags[0]}-", results[0].GetProperty("ChangeVector").GetString(), StringComparison.Ordinal);

        JsonElement after = await FolioApi.GetJsonAsync(_client, $"/databases/{db}/changes?since={etags[1]}");
        Assert.Equal(0, after.GetProperty("Results").GetArrayLength());
        Assert.Equal(etags[1], after.GetProperty("LastEtag").GetInt64());
    }

    [Fact]
    public async Task NormalFeed_ReportsOnlyMatchingChanges_WhenFiltered()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        await FolioApi.StoreAsync(_client, db, "users/1", """{"@metadata":{"@collection":"Users"}}""");
        await FolioApi.StoreAsync(_client, db, "users/2", """{"@metadata":{"@collection":"Users"}}""");
        await FolioApi.StoreAsync(_client, db, "orders/1", """{"@metadata":{"@collection":"Orders"}}""");
        await FolioApi.StoreAsync(_client, db, "orders/2", """{"@metadata":{"@collection":"Orders"}}""");
        await FolioApi.StoreAsync(_client, db, "notes/1", """{"@metadata":{"@collection":"Notes"}}""");

        Assert.Equal(["orders/1", "orders/2"], await IdsAsync($"/databases/{db}/changes?collection=ORDERS"));
        Assert.Equal(["users/1", "users/2"], await IdsAsync($"/databases/{db}/changes?prefix=Users/"));
        Assert.Equal(["users/2"], await IdsAsync($"/databases/{db}/changes?id=USERS/2"));
        Assert.Equal(["users/1", "orders/1", "orders/2"], await IdsAsync($"/databases/{db}/changes?id=users/1&collection=Orders"));
        Assert.Empty(await IdsAsync($"/databases/{db}/changes?collection=Nobody"));
    }

    [Fact]
    public async Task NormalFeed_PagesByLimit_AndIncludesDocumentsWhenAsked()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        for (var i = 1; i <= 5; i++)
            await FolioApi.StoreAsync(_client, db, $"items/{i}", $$"""{"N":{{i}}}""");

        JsonElement first = await FolioApi.GetJsonAsync(_client, $"/databases/{db}/changes?limit=2&includeDocs=true");
        Assert.Equal(2, first.GetProperty("Results").GetArrayLength());
        Assert.Equal(2, first.GetProperty("Results")[1].GetProperty("Document").GetProperty("N").GetInt32());
        long lastEtag = first.GetProperty("LastEtag").GetInt64();
        Assert.Equal(first.GetProperty("Results")[1].GetProperty("Etag").GetInt64(), lastEtag);

        Assert.Equal(["items/3", "items/4", "items/5"], await IdsAsync($"/databases/{db}/changes?since={lastEtag}&limit=10"));
        JsonElement plain = await FolioApi.GetJsonAsync(_client, $"/databases/{db}/changes?limit=1");
        Assert.False(plain.GetProperty("Results")[0].TryGetProperty("Document", out _));
    }

    [Fact]
    public async Task LongPoll_AnswersWithTheFirstWrite_AfterWaitingForIt()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        await FolioApi.StoreAsync(_client, db, "users/1", "{}");

        Task<JsonElement> waiting = FolioApi.GetJsonAsync(_client, $"/databases/{db}/changes?feed=longpoll&since=now&timeout=30000");
        Assert.False(waiting.IsCompleted);

        // The server takes "now" when it reads the request, which a loaded machine may do after the next write; so writes
        // go on until the poll answers, and it must answer with writes among them, never with the one before it.
        var written = new List<string>();
        var deadline = DateTime.UtcNow + TestTimeouts.Default;
        while (!waiting.IsCompleted && DateTime.UtcNow < deadline)
        {
            var id = $"users/{written.Count + 2}";
            await FolioApi.StoreAsync(_client, db, id, "{}");
            written.Add(id);
            await Task.WhenAny(waiting, Task.Delay(TimeSpan.FromMilliseconds(250)));
        }

        JsonElement page = await waiting.WaitAsync(TestTimeouts.Default);
        var answered = page.GetProperty("Results").EnumerateArray().Select(change => change.GetProperty("Id").GetString()).ToList();
        Assert.NotEmpty(answered);
        Assert.All(answered, id => Assert.Contains(id, written));
    }

    [Fact]
    public async Task LongPoll_AnswersEmpty_WhenTheTimeoutPassesWithoutAMatchingWrite()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        await FolioApi.StoreAsync(_client, db, "users/1", "{}");

        Task<JsonElement> waiting = FolioApi.GetJsonAsync(_client, $"/databases/{db}/changes?feed=longpoll&since=now&timeout=300&collection=Orders");
        await FolioApi.StoreAsync(_client, db, "users/2", "{}");
        JsonElement page = await waiting.WaitAsync(TestTimeouts.Default);

        Assert.Equal(0, page.GetProperty("Results").GetArrayLength());
        JsonElement all = await FolioApi.GetJsonAsync(_client, $"/databases/{db}/changes");
        Assert.Equal(all.GetProperty("LastEtag").GetInt64(), page.GetProperty("LastEtag").GetInt64());
    }

    [Theory]
    [InlineData("feed=sometimes")]
    [InlineData("since=-1")]
    [InlineData("since=yesterday")]
    [InlineData("limit=0")]
    [InlineData("limit=5000")]
    [InlineData("heartbeat=1")]
    [InlineData("timeout=soon")]
    [InlineData("includeDocs=yes")]
    [InlineData("collection=")]
    [InlineData("since=1&since=2")]
    public async Task Feed_AnswersBadRequest_ForUnusableParameters(string query)
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);

        using HttpResponseMessage response = await _client.GetAsync($"/databases/{db}/changes?{query}");

        await ProblemAssert.IsProblemAsync(response, HttpStatusCode.BadRequest, "urn:folio:problem:invalid-parameter");
    }

    [Fact]
    public async Task Feed_AnswersNotFound_ForAMissingDatabase()
    {
        using HttpResponseMessage response = await _client.GetAsync("/databases/no-such-db/changes");

        await ProblemAssert.IsProblemAsync(response, HttpStatusCode.NotFound, "urn:folio:problem:database-not-found");
    }

    private async Task<List<string?>> IdsAsync(string uri)
    {
        JsonElement page = await FolioApi.GetJsonAsync(_client, uri);
        return [.. page.GetProperty("Results").EnumerateArray().Select(r => r.GetProperty("Id").GetString())];
    }
}
