using System.Net;
using System.Text.Json;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.RavenProtocol;

/// <summary>What the seeds' system's clients rely on, over plain HTTP against a real server.</summary>
public sealed class SeedsProtocolTests(ServerFixture fixture) : IClassFixture<ServerFixture>
{
    private HttpClient Client => fixture.Client;

    [Fact]
    public async Task HiLoNext_DoublesTheRange_WhenTheLastWasTakenWithinAMinute()
    {
        string db = await FolioApi.CreateDatabaseAsync(Client);
        await FolioApi.StoreAsync(Client, db, "Raven/Hilo/users", """{"Max":64,"Note":"kept","@metadata":{"@collection":"@hilo"}}""");

        JsonElement first = await NextAsync(db, "users", 0, null);
        Assert.Equal(65, first.GetProperty("Low").GetInt64());
        Assert.Equal(96, first.GetProperty("High").GetInt64());
        JsonElement second = await NextAsync(db, "users", 32, DateTime.UtcNow);
        Assert.Equal(97, second.GetProperty("Low").GetInt64());
        Assert.Equal(160, second.GetProperty("High").GetInt64());

        JsonElement stored = (await FolioApi.LoadAsync(Client, db, "Raven/Hilo/users"))!.Value;
        Assert.Equal(160, stored.GetProperty("Max").GetInt64());
        Assert.Equal("kept", stored.GetProperty("Note").GetString());
    }

    [Fact]
    public async Task HiLoNext_NeverGivesARangeTwice_WhenAskedConcurrently()
    {
        string db = await FolioApi.CreateDatabaseAsync(Client);
        JsonElement[] ranges = await Task.WhenAll(Enumerable.Range(0, 16).Select(_ => NextAsync(db, "orders", 0, null)));
        var lows = ranges.Select(r => r.GetProperty("Low").GetInt64()).ToHashSet();
        Assert.Equal(16, lows.Count);
        Assert.Equal(16 * 32, ranges.Max(r => r.GetProperty("High").GetInt64()));
    }

    [Fact]
    public async Task HiLoReturn_GivesBackTheUnusedEnd_OnlyWhenNoLaterRangeWasTaken()
    {
        string db = await FolioApi.CreateDatabaseAsync(Client);
        await NextAsync(db, "users", 0, null);
        using (HttpResponseMessage returned = await Client.PutAsync($"/databases/{db}/hilo/return?tag=users&end=32&last=2", null))
            Assert.Equal(HttpStatusCode.NoContent, returned.StatusCode);
        Assert.Equal(2, (await FolioApi.LoadAsync(Client, db, "Raven/Hilo/users"))!.Value.GetProperty("Max").GetInt64());

        await NextAsync(db, "users", 0, null);
        using (HttpResponseMessage stale = await Client.PutAsync($"/databases/{db}/hilo/return?tag=users&end=32&last=3", null))
            Assert.Equal(HttpStatusCode.NoContent, stale.StatusCode);
        Assert.Equal(34, (await FolioApi.LoadAsync(Client, db, "Raven/Hilo/users"))!.Value.GetProperty("Max").GetInt64());
    }

    [Fact]
    public async Task DeleteDatabases_DeletesNone_WhenOneNamedIsMissing()
    {
        string db = await FolioApi.CreateDatabaseAsync(Client);
        using var request = new HttpRequestMessage(HttpMethod.Delete, "/admin/databases") { Content = FolioApi.Json($$"""{"DatabaseNames":["{{db}}","no-such-db"]}""") };
        using HttpResponseMessage response = await Client.SendAsync(request);
        Assert.Equal(HttpStatusCode.NotFound, response.StatusCode);
        using HttpResponseMessage stats = await Client.GetAsync($"/databases/{db}/stats");
        Assert.Equal(HttpStatusCode.OK, stats.StatusCode);
    }

    [Fact]
    public async Task Problem_SpeaksTheSeedsClientsTerms_WhenTheRequestCarriesTheirVersionHeader()
    {
        using var missing = new HttpRequestMessage(HttpMethod.Get, "/databases/no-such-db/docs?id=a");
        missing.Headers.Add("Raven-Client-Version", "5.4.0");
        using HttpResponseMessage missingResponse = await Client.SendAsync(missing);
        Assert.Equal(HttpStatusCode.ServiceUnavailable, missingResponse.StatusCode);
        Assert.True(missingResponse.Headers.Contains("Database-Missing"));
        JsonElement body = JsonDocument.Parse(await missingResponse.Content.ReadAsStringAsync()).RootElement;
        Assert.Equal("Raven.Client.Exceptions.Database.DatabaseDoesNotExistException", body.GetProperty("Type").GetString());
        Assert.Contains("no-such-db", body.GetProperty("Error").GetString());

        using HttpResponseMessage plain = await Client.GetAsync("/databases/no-such-db/docs?id=a");
        Assert.Equal(HttpStatusCode.NotFound, plain.StatusCode);
        Assert.False(JsonDocument.Parse(await plain.Content.ReadAsStringAsync()).RootElement.TryGetProperty("Type", out _));
    }

    [Fact]
    public async Task SeedsIndex_IsQueryable_AndStatsListIt()
    {
        string db = await FolioApi.CreateDatabaseAsync(Client);
        await FolioApi.StoreAsync(Client, db, "users/1", """{"Name":"John Smith","Address":{"City":"Oslo"},"@metadata":{"@collection":"Users"}}""");
        await FolioApi.StoreAsync(Client, db, "users/2", """{"Name":"Jane Doe","Address":{"City":"Rome"},"@metadata":{"@collection":"Users"}}""");
        using (HttpResponseMessage put = await Client.PutAsync($"/databases/{db}/admin/indexes", FolioApi.Json(
            """{"Indexes":[{"Name":"UsersJs","Maps":["map('Users', function (u) { return { name: u.Name, city: u.Address.City }; })"],"Fields":{"name":{"Indexing":"Search"}}}]}""")))
            Assert.Equal(HttpStatusCode.Created, put.StatusCode);

        using HttpResponseMessage query = await Client.PostAsync($"/databases/{db}/queries", FolioApi.Json(
            """{"Query":"from index 'UsersJs' where search(name, $q) and city = $c","QueryParameters":{"q":"smith","c":"Oslo"},"WaitForNonStaleResults":true}"""));
        JsonElement result = JsonDocument.Parse(await query.Content.ReadAsStringAsync()).RootElement;
        Assert.Equal(HttpStatusCode.OK, query.StatusCode);
        Assert.Equal("users/1", Assert.Single(result.GetProperty("Results").EnumerateArray()).GetProperty("@metadata").GetProperty("@id").GetString());

        JsonElement stats = await FolioApi.GetJsonAsync(Client, $"/databases/{db}/stats");
        JsonElement index = Assert.Single(stats.GetProperty("Indexes").EnumerateArray());
        Assert.Equal("UsersJs", index.GetProperty("Name").GetString());
        Assert.Equal("Normal", index.GetProperty("State").GetString());
    }

    [Fact]
    public async Task Query_ReadsNullLimitParameters_AsNoOffset()
    {
        string db = await FolioApi.CreateDatabaseAsync(Client);
        await FolioApi.StoreAsync(Client, db, "users/1", """{"Age":3,"@metadata":{"@collection":"Users"}}""");
        await FolioApi.StoreAsync(Client, db, "users/2", """{"Age":5,"@metadata":{"@collection":"Users"}}""");
        using HttpResponseMessage response = await Client.PostAsync($"/databases/{db}/queries", FolioApi.Json(
            """{"Query":"from 'Users' order by Age desc select Age, @metadata.@nested-object-types as N limit $p0, $p1","QueryParameters":{"p0":null,"p1":1}}"""));
        string text = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == HttpStatusCode.OK, text);
        Assert.Equal(5, Assert.Single(JsonDocument.Parse(text).RootElement.GetProperty("Results").EnumerateArray()).GetProperty("Age").GetInt32());
    }

    private async Task<JsonElement> NextAsync(string db, string tag, long lastBatchSize, DateTime? lastRangeAt)
    {
        string at = lastRangeAt is { } t ? Uri.EscapeDataString(t.ToString("O")) : "";
        return await FolioApi.GetJsonAsync(Client, $"/databases/{db}/hilo/next?tag={tag}&lastBatchSize={lastBatchSize}&lastRangeAt={at}&identityPartsSeparator=/&lastMax=0");
    }
}
