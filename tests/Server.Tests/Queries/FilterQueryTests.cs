using System.Net;
using System.Text.Json;
using Folio.Server.Tests.Support;
using static Folio.Server.Tests.Support.FolioApi;

namespace Folio.Server.Tests.Queries;

/// <summary>
/// <c>filter</c> and <c>filter_limit</c>, the seeds' exploration queries, as their documentation writes them: a condition
/// (or a declared function) checked on what a collection query, an auto index or a static map/reduce index retrieved,
/// without an index of its own, up to a number of documents checked, before paging.
/// </summary>
public sealed class FilterQueryTests : IAsyncLifetime
{
    private RunningServer _server = null!;
    private string _db = "";

    public async Task InitializeAsync()
    {
        _server = await RunningServer.StartAsync();
        _db = await CreateDatabaseAsync(_server.Client);
        var commands = Enumerable.Range(1, 40).Select(i =>
            "{\"Type\":\"PUT\",\"Id\":\"employees/" + i + "\",\"Document\":{\"Title\":\"" + (i % 2 == 0 ? "Sales Representative" : "Manager") + "\",\"Address\":{\"Country\":\"" + (i % 4 < 2 ? "USA" : "UK") + "\"},\"Age\":" + (20 + i) + ",\"@metadata\":{\"@collection\":\"Employees\"}}}");
        using var bulk = await _server.Client.PostAsync($"/databases/{_db}/bulk_docs", FolioApi.Json($$"""{"Commands":[{{string.Join(',', commands)}}]}"""));
        Assert.True(bulk.IsSuccessStatusCode, await bulk.Content.ReadAsStringAsync());
    }

    public async Task DisposeAsync() => await _server.DisposeAsync();

    [Fact]
    public async Task Filter_OnACollectionQuery_ChecksEveryDocumentWithoutAnIndex()
    {
        var result = await QueryAsync("from Employees as e filter e.Address.Country = 'USA'");
        Assert.Equal(Expected(i => i % 4 < 2), Ids(result));
        Assert.Equal(20, result.GetProperty("TotalResults").GetInt32());
        Assert.Equal("collection/Employees", result.GetProperty("IndexName").GetString());
        using var indexes = await _server.Client.GetAsync($"/databases/{_db}/indexes");
        Assert.DoesNotContain("Auto/Employees", await indexes.Content.ReadAsStringAsync());
    }

    [Fact]
    public async Task Filter_AfterAWhere_ChecksWhatTheIndexRetrieved_InItsOrder_ThenPages()
    {
        var result = await QueryAsync("from Employees as e where e.Title = 'Sales Representative' filter e.Address.Country = 'USA' and e.Age > 30 order by Age as long desc limit 3 offset 1");
        var matching = Enumerable.Range(1, 40).Where(i => i % 2 == 0 && i % 4 < 2 && 20 + i > 30).OrderByDescending(i => i).ToList();
        Assert.Equal(matching.Skip(1).Take(3).Select(i => $"employees/{i}"), InOrder(result));
        Assert.Equal(matching.Count, result.GetProperty("TotalResults").GetInt32());
    }

    [Fact]
    public async Task FilterLimit_StopsAfterThatManyRetrievedDocumentsWereChecked()
    {
        var result = await QueryAsync("from Employees filter Address.Country = 'UK' filter_limit 8");
        // A collection query reads in write order: of the first eight orders written, those in the UK.
        var expected = Expected(i => i <= 8 && i % 4 >= 2);
        Assert.Equal(expected, Ids(result));
    }

    [Fact]
    public async Task Filter_ThroughADeclaredFunction_KeepsWhatItReturnsTrueFor()
    {
        var result = await QueryAsync("declare function titlePrefix(r, prefix) { return r.Title.startsWith(prefix); }\nfrom Employees as e filter titlePrefix(e, $prefix) filter_limit 100", new { prefix = "Man" });
        Assert.Equal(Expected(i => i % 2 == 1), Ids(result));
    }

    [Fact]
    public async Task Filter_OnAMapReduceIndex_ChecksItsRows()
    {
        using (var put = await _server.Client.PutAsync($"/databases/{_db}/indexes", FolioApi.Json("""{"Indexes":[{"Name":"Employees/ByCountry","Collections":["Employees"],"Reduce":{"GroupBy":["Address.Country"],"Aggregations":{"Count":{"Op":"Count"},"Oldest":{"Op":"Max","Path":"Age"}}}}]}""")))
            Assert.Equal(HttpStatusCode.Created, put.StatusCode);
        // The oldest in the USA is employees/40 (60), in the UK employees/39 (59).
        var result = await QueryAsync("from index 'Employees/ByCountry' filter Oldest = 60 and Count = 20");
        var row = Assert.Single(result.GetProperty("Results").EnumerateArray());
        Assert.Equal(60, row.GetProperty("Oldest").GetInt32());
        Assert.Equal(1, result.GetProperty("TotalResults").GetInt32());
    }

    [Fact]
    public async Task Filter_OnAFanOutIndex_CountsAndPagesDocumentsOnce()
    {
        for (var i = 1; i <= 6; i++)
        {
            var owner = i % 2 == 0 ? "ann" : "bob";
            await StoreAsync(_server.Client, _db, $"carts/{i}", "{\"Owner\":\"" + owner + "\",\"Items\":[{\"Sku\":\"a\"},{\"Sku\":\"a\"},{\"Sku\":\"b" + i + "\"}],\"@metadata\":{\"@collection\":\"Carts\"}}");
        }
        using (var put = await _server.Client.PutAsync($"/databases/{_db}/indexes", FolioApi.Json("""{"Indexes":[{"Name":"Carts/BySku","Collections":["Carts"],"ForEach":"Items[]","Fields":{"Sku":{"Path":"Items[].Sku"}}}]}""")))
            Assert.Equal(HttpStatusCode.Created, put.StatusCode);

        var result = await QueryAsync("from index 'Carts/BySku' where Sku = 'a' filter Owner = 'ann' limit 2");
        Assert.Equal(3, result.GetProperty("TotalResults").GetInt32());
        var page = Ids(result);
        Assert.Equal(2, page.Count);
        Assert.All(page, id => Assert.Contains(id, new[] { "carts/2", "carts/4", "carts/6" }));
        Assert.Equal(page.Count, page.Distinct().Count());
    }

    [Fact]
    public async Task Filter_OfAPatchThatCannotRun_IsA400BeforeAnyOperation()
    {
        using var request = new HttpRequestMessage(HttpMethod.Patch, $"/databases/{_db}/queries")
        {
            Content = FolioApi.Json(JsonSerializer.Serialize(new { Query = "from Employees filter Age > 1 filter_limit -3 update { this.X = 1; }" })),
        };
        using var response = await _server.Client.SendAsync(request);
        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Contains("filter_limit must be a whole number", await response.Content.ReadAsStringAsync());
    }

    [Theory]
    [InlineData("from Employees filter Age > 1 order by random()", "filter cannot be combined")]
    [InlineData("from Employees filter Age > 1 filter_limit -1", "filter_limit must be a whole number")]
    [InlineData("from Employees filter_limit 3", "no filter")]
    [InlineData("from Employees where search(Title, 'sales') filter Age > 1 include highlight(Title, 20, 1)", "highlight() or explanations()")]
    [InlineData("from Employees filter regex(Title, '^S')", "or a filter, checked without an index")]
    public async Task Filter_ThatCannotRun_IsA400(string rql, string expected)
    {
        using var response = await PostAsync(rql, null);
        var text = await response.Content.ReadAsStringAsync();
        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Contains(expected, text);
    }

    private Task<HttpResponseMessage> PostAsync(string rql, object? parameters) =>
        _server.Client.PostAsync($"/databases/{_db}/queries", FolioApi.Json(JsonSerializer.Serialize(new { Query = rql, QueryParameters = parameters, WaitForNonStaleResults = true })));

    private Task<JsonElement> QueryAsync(string rql, object? parameters = null) => FolioApi.QueryAsync(_server.Client, _db, rql, parameters);

    private static List<string> Expected(Func<int, bool> predicate) =>
        [.. Enumerable.Range(1, 40).Where(predicate).Select(i => $"employees/{i}").Order(StringComparer.Ordinal)];

    private static List<string> Ids(JsonElement result) => [.. InOrder(result).Order(StringComparer.Ordinal)];

    private static List<string> InOrder(JsonElement result) =>
        [.. result.GetProperty("Results").EnumerateArray().Select(r => r.GetProperty("@metadata").GetProperty("@id").GetString()!)];
}
