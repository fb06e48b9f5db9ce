using System.Net;
using System.Text.Json;
using Folio.Server.Http;
using Folio.Server.Tests.Support;
using static Folio.Server.Tests.Support.FolioApi;

namespace Folio.Server.Tests.MapReduce;

/// <summary>A map/reduce index over HTTP: defined, queried with where/order by/paging, its statistics, bad definitions, and facets in the answer shape.</summary>
public sealed class MapReduceEndpointTests : IAsyncLifetime
{
    private RunningServer _server = null!;
    private string _db = "";

    private HttpClient Client => _server.Client;

    public async Task InitializeAsync()
    {
        _server = await RunningServer.StartAsync();
        _db = await CreateDatabaseAsync(Client);
        var commands = new List<object>();
        for (var i = 1; i <= 40; i++)
            commands.Add(new { Type = "PUT", Id = $"orders/{i}", Document = new { Company = $"companies/{i % 4}", Freight = i, Lines = new[] { new { Product = $"p/{i % 3}", Quantity = i } } } });
        using var response = await Client.PostAsync($"/databases/{_db}/bulk_docs", FolioApi.Json(JsonSerializer.Serialize(new { Commands = commands })));
        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
    }

    public async Task DisposeAsync() => await _server.DisposeAsync();

    private async Task<JsonElement> QueryAsync(string query)
    {
        using var response = await Client.PostAsync($"/databases/{_db}/queries", FolioApi.Json(JsonSerializer.Serialize(new { Query = query, WaitForNonStaleResults = true })));
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        return JsonDocument.Parse(await response.Content.ReadAsStringAsync()).RootElement.Clone();
    }

    private async Task PutIndexAsync(string definition)
    {
        using var response = await Client.PutAsync($"/databases/{_db}/indexes", FolioApi.Json($$"""{"Indexes":[{{definition}}]}"""));
        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
    }

    [Fact]
    public async Task Query_AnswersGroupRows_FilteredSortedAndPaged()
    {
        await PutIndexAsync("""{"Name":"Orders/ByCompany","Collections":["Orders"],"Reduce":{"GroupBy":["Company"],"Aggregations":{"Count":{"Op":"Count"},"Freight":{"Op":"Sum","Path":"Freight"}}}}""");
        var result = await QueryAsync("from index 'Orders/ByCompany' where Count >= 10 order by Freight as long desc limit 2");
        Assert.Equal("Orders/ByCompany", result.GetProperty("IndexName").GetString());
        Assert.Equal(4, result.GetProperty("TotalResults").GetInt64());
        Assert.False(result.GetProperty("IsStale").GetBoolean());
        var rows = result.GetProperty("Results");
        Assert.Equal("""{"Company":"companies/0","Count":10,"Freight":220}""", rows[0].GetRawText());
        Assert.Equal("""{"Company":"companies/3","Count":10,"Freight":210}""", rows[1].GetRawText());

        var stats = await GetJsonAsync(Client, $"/databases/{_db}/indexes/stats");
        var index = stats.GetProperty("Results").EnumerateArray().Single(i => i.GetProperty("Name").GetString() == "Orders/ByCompany");
        Assert.Equal("MapReduce", index.GetProperty("Type").GetString());
        Assert.Equal(40, index.GetProperty("MapReduce").GetProperty("MapEntries").GetInt64());
        Assert.Equal(4, index.GetProperty("MapReduce").GetProperty("Groups").GetInt64());
        Assert.Equal(4, index.GetProperty("EntriesCount").GetInt64());
    }

    [Fact]
    public async Task Query_FacetsTheRows_OfAMapReduceIndex()
    {
        await PutIndexAsync("""{"Name":"Orders/ByProduct","Collections":["Orders"],"Reduce":{"GroupBy":["Lines[].Product"],"Aggregations":{"Quantity":{"Op":"Sum","Path":"Lines[].Quantity"}}}}""");
        var result = await QueryAsync("from index 'Orders/ByProduct' select facet(Quantity < 270, Quantity >= 270)");
        var facet = Assert.Single(result.GetProperty("Results").EnumerateArray());
        Assert.Equal("Quantity", facet.GetProperty("Name").GetString());
        // p/0: 3+6+…+39 = 273, p/1: 1+4+…+40 = 287, p/2: 2+5+…+38 = 260.
        Assert.Equal([1L, 2L], facet.GetProperty("Values").EnumerateArray().Select(v => v.GetProperty("Count").GetInt64()));
    }

    [Fact]
    public async Task Query_GroupBy_AnswersAggregatesFromAnAutoMapReduceIndex()
    {
        var result = await QueryAsync("from Orders group by Company where count() = 10 order by sum(Freight) as long desc select Company, count() as Orders, sum(Freight) as Freight limit 1");
        Assert.Equal("Auto/Orders/ByCountAndSum(Freight)ReducedByCompany", result.GetProperty("IndexName").GetString());
        Assert.Equal(4, result.GetProperty("TotalResults").GetInt64());
        Assert.Equal("""{"Company":"companies/0","Orders":10,"Freight":220,"@metadata":{"@projection":true}}""", Assert.Single(result.GetProperty("Results").EnumerateArray()).GetRawText());

        using var bad = await Client.PostAsync($"/databases/{_db}/queries", FolioApi.Json("""{"Query":"from Orders group by Company where Freight > 1 select count()"}"""));
        var problem = await ProblemAssert.IsProblemAsync(bad, HttpStatusCode.BadRequest, ProblemTypes.InvalidQuery);
        Assert.Contains("group fields and aggregates", problem.GetProperty("detail").GetString(), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("""{"GroupBy":["Company"],"Aggregations":{"Total":{"Op":"Sum"}}}""", "needs a Path")]
    [InlineData("""{"GroupBy":[],"Aggregations":{}}""", "at least one field")]
    [InlineData("""{"GroupBy":["Company"],"Aggregations":{"X":{"Op":"Median","Path":"Freight"}}}""", "unknown Op")]
    [InlineData("""{"GroupBy":["Company"],"Aggregations":{"Company":{"Op":"Count"}}}""", "named like a GroupBy field")]
    public async Task PutIndex_Answers400NamingTheProblem_WhenTheReduceIsBad(string reduce, string message)
    {
        using var response = await Client.PutAsync($"/databases/{_db}/indexes", FolioApi.Json($$"""{"Indexes":[{"Name":"Bad","Collections":["Orders"],"Reduce":{{reduce}}}]}"""));
        var problem = await ProblemAssert.IsProblemAsync(response, HttpStatusCode.BadRequest, ProblemTypes.InvalidIndexDefinition);
        Assert.Contains(message, problem.GetProperty("detail").GetString(), StringComparison.Ordinal);
        var indexes = await GetJsonAsync(Client, $"/databases/{_db}/indexes");
        Assert.DoesNotContain(indexes.GetProperty("Results").EnumerateArray(), i => i.GetProperty("Name").GetString() == "Bad");
    }
}
