using System.Net;
using System.Text.Json;
using Folio.Server.Http;
using Folio.Server.Tests.Support;
using static Folio.Server.Tests.Support.FolioApi;

namespace Folio.Server.Tests.Queries;

public sealed class QueryEndpointTests : IAsyncLifetime
{
    private RunningServer _server = null!;
    private string _db = "";

    private HttpClient Client => _server.Client;

    public async Task InitializeAsync()
    {
        _server = await RunningServer.StartAsync("--MaxPageSize=50");
        _db = await CreateDatabaseAsync(Client);
        for (var i = 1; i <= 60; i++)
            await StoreAsync(Client, _db, $"orders/{i}", $$"""{"Company":"companies/{{i % 3}}","Total":{{i * 10}},"Notes":"{{(i % 2 == 0 ? "late delivery" : "on time")}}"}""");
        await StoreAsync(Client, _db, "companies/1", """{"Name":"Acme"}""");
    }

    public async Task DisposeAsync() => await _server.DisposeAsync();

    private async Task<JsonElement> QueryAsync(string query, object? parameters = null, bool wait = true)
    {
        var body = JsonSerializer.Serialize(new { Query = query, QueryParameters = parameters, WaitForNonStaleResults = wait });
        using var response = await Client.PostAsync($"/databases/{_db}/queries", FolioApi.Json(body));
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        return JsonDocument.Parse(await response.Content.ReadAsStringAsync()).RootElement.Clone();
    }

    [Fact]
    public async Task Post_QueryWithParametersAndInclude_AnswersTheDesignShape()
    {
        var result = await QueryAsync("from Orders where Company = $c and Total > 100 order by Total as long desc limit 3 include Company", new { c = "companies/1" });
        Assert.Equal(3, result.GetProperty("Results").GetArrayLength());
        Assert.Equal(580, result.GetProperty("Results")[0].GetProperty("Total").GetInt32());
        Assert.True(result.GetProperty("TotalResults").GetInt64() > 3);
        Assert.Equal(0, result.GetProperty("SkippedResults").GetInt64());
        Assert.False(result.GetProperty("IsStale").GetBoolean());
        Assert.StartsWith("Auto/Orders/", result.GetProperty("IndexName").GetString());
        Assert.True(result.GetProperty("IndexEtag").GetInt64() > 0);
        Assert.True(result.GetProperty("DurationInMs").GetDouble() >= 0);
        Assert.True(result.GetProperty("Includes").TryGetProperty("companies/1", out _));
    }

    [Fact]
    public async Task AllDocs_QueriesEveryCollection_WithAndWithoutConditions()
    {
        var all = await QueryAsync("from @all_docs limit 10");
        Assert.Equal(61, all.GetProperty("TotalResults").GetInt64());
        Assert.Equal(10, all.GetProperty("Results").GetArrayLength());

        var either = await QueryAsync("from @all_docs where Name = 'Acme' or Total = 600");
        Assert.Equal(2, either.GetProperty("TotalResults").GetInt64());

        var byId = await QueryAsync("from @all_docs where id() in ('companies/1', 'orders/2', 'nope/1')");
        Assert.Equal(2, byId.GetProperty("TotalResults").GetInt64());

        var ordered = await QueryAsync("from @all_docs where Total > 570 order by Total as long desc");
        Assert.Equal([600, 590, 580], ordered.GetProperty("Results").EnumerateArray().Select(r => r.GetProperty("Total").GetInt32()));

        await StoreAsync(Client, _db, "notes/1", """{"Total":595}""");
        var afterWrite = await QueryAsync("from @all_docs where Total > 570 order by Total as long desc");
        Assert.Equal([600, 595, 590, 580], afterWrite.GetProperty("Results").EnumerateArray().Select(r => r.GetProperty("Total").GetInt32()));
    }

    [Fact]
    public async Task Get_QueryString_RunsTheQuery()
    {
        var result = await GetJsonAsync(Client, $"/databases/{_db}/queries?query={Uri.EscapeDataString("from Orders where search(Notes, 'delivered late')")}&waitForNonStaleResults=true");
        Assert.Equal(30, result.GetProperty("TotalResults").GetInt64());
    }

    [Fact]
    public async Task PageSize_IsCappedAndSaysSo()
    {
        var result = await QueryAsync("from Orders limit 1000");
        Assert.Equal(50, result.GetProperty("Results").GetArrayLength());
        Assert.Equal(60, result.GetProperty("TotalResults").GetInt64());
        Assert.True(result.GetProperty("PageSizeCapped").GetBoolean());
    }

    [Fact]
    public async Task Stream_ReturnsEveryResult_WithoutThePageCap()
    {
        using var response = await Client.GetAsync($"/databases/{_db}/streams/queries?query={Uri.EscapeDataString("from Orders where Total >= 10")}", HttpCompletionOption.ResponseHeadersRead);
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var body = JsonDocument.Parse(await response.Content.ReadAsStringAsync()).RootElement;
        Assert.Equal(60, body.GetProperty("Results").GetArrayLength());
    }

    [Theory]
    [InlineData("from Orders where", "position")]
    [InlineData("select x", "Expected 'from'")]
    [InlineData("from Orders where Total = $nope", "nope")]
    public async Task BadQueries_Answer400ProblemWithWhere(string query, string expected)
    {
        using var response = await Client.PostAsync($"/databases/{_db}/queries", FolioApi.Json(JsonSerializer.Serialize(new { Query = query })));
        var problem = await ProblemAssert.IsProblemAsync(response, HttpStatusCode.BadRequest, ProblemTypes.InvalidQuery);
        Assert.Contains(expected, problem.GetProperty("detail").GetString());
        await AssertServingAsync(Client);
    }

    [Fact]
    public async Task UnknownIndex_Answers404()
    {
        using var response = await Client.PostAsync($"/databases/{_db}/queries", FolioApi.Json("""{"Query":"from index 'Missing'"}"""));
        await ProblemAssert.IsProblemAsync(response, HttpStatusCode.NotFound, ProblemTypes.IndexNotFound);
    }

    [Fact]
    public async Task Indexes_PutGetStatsResetDelete()
    {
        using (var put = await Client.PutAsync($"/databases/{_db}/indexes", FolioApi.Json("""{"Indexes":[{"Name":"Orders/Totals","Collections":["Orders"],"Fields":{"Total":{"Path":"Total","Type":"Long"},"Company":{"Path":"Company"}}}]}""")))
            Assert.Equal(HttpStatusCode.Created, put.StatusCode);
        var found = await QueryAsync("from index 'Orders/Totals' where Total between 100 and 200");
        Assert.Equal(11, found.GetProperty("TotalResults").GetInt64());

        var definitions = await GetJsonAsync(Client, $"/databases/{_db}/indexes?name=orders/totals");
        Assert.Equal("Long", definitions.GetProperty("Results")[0].GetProperty("Fields").GetProperty("Total").GetProperty("Type").GetString());

        var stats = await GetJsonAsync(Client, $"/databases/{_db}/indexes/stats");
        var mine = stats.GetProperty("Results").EnumerateArray().Single(i => i.GetProperty("Name").GetString() == "Orders/Totals");
        Assert.Equal(60, mine.GetProperty("EntriesCount").GetInt64());
        Assert.False(mine.GetProperty("IsStale").GetBoolean());
        Assert.True(mine.GetProperty("RecentBatches").GetArrayLength() > 0);

        using (var reset = await Client.PostAsync($"/databases/{_db}/indexes/reset?name=Orders/Totals", null))
            Assert.Equal(HttpStatusCode.NoContent, reset.StatusCode);
        Assert.Equal(11, (await QueryAsync("from index 'Orders/Totals' where Total between 100 and 200")).GetProperty("TotalResults").GetInt64());

        using (var delete = await Client.DeleteAsync($"/databases/{_db}/indexes?name=Orders/Totals"))
            Assert.Equal(HttpStatusCode.NoContent, delete.StatusCode);
        using (var again = await Client.DeleteAsync($"/databases/{_db}/indexes?name=Orders/Totals"))
            await ProblemAssert.IsProblemAsync(again, HttpStatusCode.NotFound, ProblemTypes.IndexNotFound);
    }

    [Theory]
    [InlineData("""{"Indexes":[{"Name":"x","Collections":["A"],"Fields":{"F":{"Path":"F","Type":"Date"}}}]}""", "Type 'Date'")]
    [InlineData("""{"Indexes":[{"Name":"","Collections":["A"],"Fields":{"F":{"Path":"F"}}}]}""", "Name")]
    [InlineData("""{"Indexes":[{"Name":"x","Collections":["A"],"Fields":{"F":{"Path":"a..b"}}}]}""", "empty segment")]
    [InlineData("""{"Indexes":[{"Name":"x","Collections":["A"],"Fields":{"F":{"Path":"F"}}},{"Name":"X","Collections":["A"],"Fields":{"F":{"Path":"F"}}}]}""", "twice")]
    public async Task BadDefinitions_Answer400NamingTheProblem_AndChangeNothing(string body, string expected)
    {
        using var response = await Client.PutAsync($"/databases/{_db}/indexes", FolioApi.Json(body));
        var problem = await ProblemAssert.IsProblemAsync(response, HttpStatusCode.BadRequest, ProblemTypes.InvalidIndexDefinition);
        Assert.Contains(expected, problem.GetProperty("detail").GetString());
        var indexes = await GetJsonAsync(Client, $"/databases/{_db}/indexes");
        Assert.DoesNotContain(indexes.GetProperty("Results").EnumerateArray(), i => i.GetProperty("Name").GetString()!.Equals("x", StringComparison.OrdinalIgnoreCase));
    }

    [Fact]
    public async Task BulkDocs_WaitForIndexes_ReturnsOnlyOnceIndexed()
    {
        using (var put = await Client.PutAsync($"/databases/{_db}/indexes", FolioApi.Json("""{"Indexes":[{"Name":"Notes","Collections":["Orders"],"Fields":{"Notes":{"Path":"Notes","Search":true}}}]}""")))
            Assert.Equal(HttpStatusCode.Created, put.StatusCode);
        for (var round = 0; round < 5; round++)
        {
            var body = $$$"""{"Commands":[{"Type":"PUT","Id":"orders/new{{{round}}}","Document":{"Notes":"unicorn{{{round}}}"}}]}""";
            using (var response = await Client.PostAsync($"/databases/{_db}/bulk_docs?waitForIndexesTimeout=00:00:30", FolioApi.Json(body)))
                Assert.Equal(HttpStatusCode.Created, response.StatusCode);
            var immediate = await QueryAsync($"from index 'Notes' where search(Notes, 'unicorn{round}')", wait: false);
            Assert.Equal(1, immediate.GetProperty("TotalResults").GetInt64());
        }
    }

    [Fact]
    public async Task Stats_CountIndexes()
    {
        await QueryAsync("from Orders where Total > 5");
        var stats = await GetJsonAsync(Client, $"/databases/{_db}/stats");
        Assert.True(stats.GetProperty("CountOfIndexes").GetInt32() >= 1);
    }
}
