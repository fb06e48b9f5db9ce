using System.Net;
using System.Text.Json;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.RavenProtocol;

/// <summary>
/// Query answers in the shapes the seeds' system's clients read (requests carrying <c>Raven-Client-Version</c>), beside
/// Folio's own shapes for the same query, and <c>key()</c> and aliases in group by queries.
/// </summary>
public sealed class SeedsQueryShapesTests(ServerFixture fixture) : IClassFixture<ServerFixture>
{
    private HttpClient Client => fixture.Client;

    [Fact]
    public async Task Facets_AnswerIndexedTermsInValueOrder_WhenTheRequestCarriesTheSeedsVersionHeader()
    {
        // Range names carry the parameters' values for every client: the seeds' clients look ranges up by them.
        string db = await StoreOrdersAsync();
        const string query = """{"Query":"from Orders select facet(Product), facet(Total < $p0, Total >= $p0)","QueryParameters":{"p0":100},"WaitForNonStaleResults":true}""";

        JsonElement seeds = await QueryAsync(db, query, seedsClient: true);
        JsonElement products = seeds.GetProperty("Results")[0];
        Assert.Equal(["iphone", "milk"], Ranges(products));
        Assert.Equal([1L, 2L], Counts(products));
        Assert.False(products.TryGetProperty("MissingCount", out _));
        Assert.Equal(["Total < 100", "Total >= 100"], Ranges(seeds.GetProperty("Results")[1]));
        Assert.Equal([2L, 1L], Counts(seeds.GetProperty("Results")[1]));

        JsonElement own = await QueryAsync(db, query, seedsClient: false);
        products = own.GetProperty("Results")[0];
        Assert.Equal(["Milk", "iPhone"], Ranges(products));
        Assert.True(products.TryGetProperty("MissingCount", out _));
        Assert.Equal(["Total < 100", "Total >= 100"], Ranges(own.GetProperty("Results")[1]));
    }

    [Fact]
    public async Task GroupBy_ProjectsKeyUnderTheGroupFieldsName_AndOrdersByASelectedAlias()
    {
        string db = await StoreOrdersAsync();
        JsonElement answer = await QueryAsync(db, """{"Query":"from Orders group by Product order by count desc select key(), count() as count, sum(Total) as Total","WaitForNonStaleResults":true}""", seedsClient: false);
        JsonElement[] rows = [.. answer.GetProperty("Results").EnumerateArray()];
        Assert.Equal(2, rows.Length);
        Assert.Equal("Milk", rows[0].GetProperty("Product").GetString());
        Assert.Equal(2, rows[0].GetProperty("count").GetInt64());
        Assert.Equal(15, rows[0].GetProperty("Total").GetDouble());
        Assert.Equal("iPhone", rows[1].GetProperty("Product").GetString());

        JsonElement named = await QueryAsync(db, """{"Query":"from Orders group by Product order by key() desc select key() as Name, count()","WaitForNonStaleResults":true}""", seedsClient: false);
        Assert.Equal("Milk", named.GetProperty("Results")[0].GetProperty("Name").GetString());

        JsonElement both = await QueryAsync(db, """{"Query":"from Orders group by Product, Currency select key(), count()","WaitForNonStaleResults":true}""", seedsClient: false);
        foreach (JsonElement row in both.GetProperty("Results").EnumerateArray())
        {
            Assert.True(row.TryGetProperty("Product", out _));
            Assert.True(row.TryGetProperty("Currency", out _));
        }
    }

    [Theory]
    [InlineData("from Orders select key()")]
    [InlineData("from Orders order by key()")]
    [InlineData("from Orders group by Product, Currency select key() as K")]
    [InlineData("from Orders group by Product, Currency order by key()")]
    public async Task Query_IsRefusedAndChangesNothing_WhenKeyIsNotOneGroup(string rql)
    {
        string db = await StoreOrdersAsync();
        using HttpResponseMessage response = await Client.PostAsync($"/databases/{db}/queries", FolioApi.Json(JsonSerializer.Serialize(new { Query = rql })));
        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
        Assert.Contains("key()", await response.Content.ReadAsStringAsync());
        Assert.Equal(3, (await FolioApi.StatsAsync(Client, db)).CountOfDocuments);
    }

    [Theory]
    [InlineData("from Orders select count()", "count()")]
    [InlineData("from Orders where Total > 1 select count() as N, Product", "count()")]
    [InlineData("from Orders select sum(Total)", "sum(Total)")]
    [InlineData("from Orders order by count() desc", "count()")]
    public async Task Query_WithAnAggregateButNoGroupBy_IsRefusedNamingIt(string rql, string named)
    {
        // Regression: these answered each document's id (count()) or field (sum(Total)) under the function's name.
        string db = await StoreOrdersAsync();
        using HttpResponseMessage response = await Client.PostAsync($"/databases/{db}/queries", FolioApi.Json(JsonSerializer.Serialize(new { Query = rql })));
        string text = await response.Content.ReadAsStringAsync();
        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
        Assert.Contains(named + " aggregates the groups of a group by query", text);
    }

    [Fact]
    public async Task MapReduceRows_CarryAnEmptyMetadata_OnlyForTheSeedsClients()
    {
        string db = await StoreOrdersAsync();
        await QueryAsync(db, """{"Query":"from Orders group by Product select key() as Product, count() as Count","WaitForNonStaleResults":true}""", seedsClient: false);
        const string query = """{"Query":"from index 'Auto/Orders/ByCountReducedByProduct'","WaitForNonStaleResults":true}""";
        JsonElement seeds = await QueryAsync(db, query, seedsClient: true);
        foreach (JsonElement row in seeds.GetProperty("Results").EnumerateArray())
        {
            Assert.Equal(JsonValueKind.Object, row.GetProperty("@metadata").ValueKind);
            Assert.True(row.TryGetProperty("Count", out _));
        }
        JsonElement own = await QueryAsync(db, query, seedsClient: false);
        Assert.False(own.GetProperty("Results")[0].TryGetProperty("@metadata", out _));

        JsonElement documents = await QueryAsync(db, """{"Query":"from Orders where Product = 'iPhone'"}""", seedsClient: true);
        Assert.Equal("orders/3", documents.GetProperty("Results")[0].GetProperty("@metadata").GetProperty("@id").GetString());
    }

    [Fact]
    public async Task Query_Answers304_WhileNothingItDependsOnChanged()
    {
        string db = await StoreOrdersAsync();
        const string query = """{"Query":"from Orders where Product = $p","QueryParameters":{"p":"Milk"},"WaitForNonStaleResults":true}""";
        string etag;
        using (HttpResponseMessage first = await PostQueryAsync(db, query, null))
        {
            Assert.Equal(HttpStatusCode.OK, first.StatusCode);
            etag = first.Headers.ETag!.Tag;
        }
        using (HttpResponseMessage again = await PostQueryAsync(db, query, etag))
        {
            Assert.Equal(HttpStatusCode.NotModified, again.StatusCode);
            Assert.Empty(await again.Content.ReadAsByteArrayAsync());
        }
        using (HttpResponseMessage other = await PostQueryAsync(db, query.Replace("\"Milk\"", "\"iPhone\"", StringComparison.Ordinal), etag))
            Assert.Equal(HttpStatusCode.OK, other.StatusCode);

        await FolioApi.StoreAsync(Client, db, "orders/4", """{"Product":"Milk","Total":1,"@metadata":{"@collection":"Orders"}}""");
        using (HttpResponseMessage afterWrite = await PostQueryAsync(db, query, etag))
        {
            Assert.Equal(HttpStatusCode.OK, afterWrite.StatusCode);
            Assert.NotEqual(etag, afterWrite.Headers.ETag!.Tag);
            Assert.Equal(3, JsonDocument.Parse(await afterWrite.Content.ReadAsStringAsync()).RootElement.GetProperty("Results").GetArrayLength());
        }
        using (HttpResponseMessage shuffled = await PostQueryAsync(db, """{"Query":"from Orders order by random()"}""", null))
            Assert.Null(shuffled.Headers.ETag);
    }

    [Fact]
    public async Task Query_PagesByStartAndPageSize_WhenItsTextHasNoLimit()
    {
        string db = await StoreOrdersAsync();
        JsonElement page = await QueryAsync(db, """{"Query":"from Orders order by Total as long","Start":1,"PageSize":1,"WaitForNonStaleResults":true}""", seedsClient: true);
        Assert.Equal(12, page.GetProperty("Results")[0].GetProperty("Total").GetInt64());
        Assert.Equal(1, page.GetProperty("Results").GetArrayLength());
        JsonElement limited = await QueryAsync(db, """{"Query":"from Orders order by Total limit 0, 2","Start":1,"PageSize":1,"WaitForNonStaleResults":true}""", seedsClient: false);
        Assert.Equal(2, limited.GetProperty("Results").GetArrayLength());

        using HttpResponseMessage bad = await PostQueryAsync(db, """{"Query":"from Orders","Start":-1}""", null);
        Assert.Equal(HttpStatusCode.BadRequest, bad.StatusCode);
        Assert.Contains("Start", await bad.Content.ReadAsStringAsync());
    }

    private async Task<HttpResponseMessage> PostQueryAsync(string db, string body, string? ifNoneMatch)
    {
        var request = new HttpRequestMessage(HttpMethod.Post, $"/databases/{db}/queries") { Content = FolioApi.Json(body) };
        if (ifNoneMatch is not null)
            request.Headers.TryAddWithoutValidation("If-None-Match", ifNoneMatch);
        using (request)
            return await Client.SendAsync(request);
    }

    private async Task<string> StoreOrdersAsync()
    {
        string db = await FolioApi.CreateDatabaseAsync(Client);
        await FolioApi.StoreAsync(Client, db, "orders/1", """{"Product":"Milk","Currency":"EUR","Total":3,"@metadata":{"@collection":"Orders"}}""");
        await FolioApi.StoreAsync(Client, db, "orders/2", """{"Product":"Milk","Currency":"NIS","Total":12,"@metadata":{"@collection":"Orders"}}""");
        await FolioApi.StoreAsync(Client, db, "orders/3", """{"Product":"iPhone","Currency":"EUR","Total":3333,"@metadata":{"@collection":"Orders"}}""");
        return db;
    }

    private async Task<JsonElement> QueryAsync(string db, string body, bool seedsClient)
    {
        using var request = new HttpRequestMessage(HttpMethod.Post, $"/databases/{db}/queries") { Content = FolioApi.Json(body) };
        if (seedsClient)
            request.Headers.Add("Raven-Client-Version", "5.4.0");
        using HttpResponseMessage response = await Client.SendAsync(request);
        string text = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == HttpStatusCode.OK, text);
        return JsonDocument.Parse(text).RootElement.Clone();
    }

    private static string[] Ranges(JsonElement facet) => [.. facet.GetProperty("Values").EnumerateArray().Select(v => v.GetProperty("Range").GetString() ?? "(null)")];

    private static long[] Counts(JsonElement facet) => [.. facet.GetProperty("Values").EnumerateArray().Select(v => v.GetProperty("Count").GetInt64())];
}
