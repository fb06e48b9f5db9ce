using System.Net;
using System.Text.Json;
using Folio.Server.Http;
using Folio.Server.Tests.Support;
using static Folio.Server.Tests.Support.FolioApi;

namespace Folio.Server.Tests.Queries;

/// <summary>
/// An index definition names its search engine (<c>"SearchEngine": "Folio" | "Lucene"</c>), the server's
/// <c>Indexing:SearchEngine</c> decides for those that don't and for auto indexes, the index list and stats show it,
/// and changing it rebuilds the index side by side.
/// </summary>
public sealed class SearchEngineSelectionTests
{
    private const string Orders = """{"Name":"Orders/ByCountry","Collections":["Orders"],"SearchEngine":"ENGINE","Fields":{"Country":{},"Total":{"Type":"Double"},"Notes":{"Search":true}}}""";

    [Fact]
    public async Task Put_LuceneEngine_IndexesAndAnswersQueries_AndShowsTheEngine()
    {
        await using var server = await RunningServer.StartAsync();
        var db = await CreateDatabaseAsync(server.Client);
        await StoreAsync(server.Client, db, "orders/1", """{"Country":"France","Total":10,"Notes":"late delivery"}""");
        await StoreAsync(server.Client, db, "orders/2", """{"Country":"Spain","Total":30,"Notes":"delivered early"}""");
        await StoreAsync(server.Client, db, "orders/3", """{"Country":"france","Total":20,"Notes":"lost"}""");
        using (var put = await server.Client.PutAsync($"/databases/{db}/indexes", FolioApi.Json($$"""{"Indexes":[{{Orders.Replace("ENGINE", "lucene")}}]}""")))
            Assert.Equal(HttpStatusCode.Created, put.StatusCode);

        Assert.Equal(["orders/3", "orders/1"], await IdsAsync(server.Client, db, "from index 'Orders/ByCountry' where Country = 'FRANCE' order by Total as double desc"));
        Assert.Equal(["orders/1", "orders/3"], await IdsAsync(server.Client, db, "from index 'Orders/ByCountry' where search(Notes, 'deliveries lost') order by Total as double"));

        var list = await GetJsonAsync(server.Client, $"/databases/{db}/indexes");
        Assert.Equal("Lucene", Assert.Single(list.GetProperty("Results").EnumerateArray()).GetProperty("SearchEngine").GetString());
        var stats = Assert.Single((await GetJsonAsync(server.Client, $"/databases/{db}/indexes/stats")).GetProperty("Results").EnumerateArray());
        Assert.Equal("Lucene", stats.GetProperty("SearchEngine").GetString());
        Assert.Equal(3, stats.GetProperty("EntriesCount").GetInt64());
    }

    [Fact]
    public async Task Put_UnknownEngine_Is400ListingTheEngines_AndChangesNothing()
    {
        await using var server = await RunningServer.StartAsync();
        var db = await CreateDatabaseAsync(server.Client);
        using var put = await server.Client.PutAsync($"/databases/{db}/indexes", FolioApi.Json($$"""{"Indexes":[{{Orders.Replace("ENGINE", "Corax")}}]}"""));
        var problem = await ProblemAssert.IsProblemAsync(put, HttpStatusCode.BadRequest, ProblemTypes.InvalidIndexDefinition);
        var detail = problem.GetProperty("detail").GetString()!;
        Assert.Contains("Corax", detail, StringComparison.Ordinal);
        Assert.Contains("Folio", detail, StringComparison.Ordinal);
        Assert.Contains("Lucene", detail, StringComparison.Ordinal);
        var list = await GetJsonAsync(server.Client, $"/databases/{db}/indexes");
        Assert.Equal(0, list.GetProperty("Results").GetArrayLength());
    }

    [Fact]
    public async Task Put_ChangedEngine_RebuildsSideBySide()
    {
        // Maintenance (which swaps a caught-up replacement in) never runs here, so the replacement stays visible.
        await using var server = await RunningServer.StartAsync("--IndexMaintenanceInterval=01:00:00");
        var db = await CreateDatabaseAsync(server.Client);
        await StoreAsync(server.Client, db, "orders/1", """{"Country":"France","Total":10}""");
        // Without SearchEngine the server's default (Folio) keeps it; the same definition naming Folio changes nothing.
        foreach (var definition in new[] { Orders.Replace("\"SearchEngine\":\"ENGINE\",", ""), Orders.Replace("ENGINE", "Folio") })
        {
            using var put = await server.Client.PutAsync($"/databases/{db}/indexes", FolioApi.Json($$"""{"Indexes":[{{definition}}]}"""));
            Assert.Equal(HttpStatusCode.Created, put.StatusCode);
        }
        var before = Assert.Single((await GetJsonAsync(server.Client, $"/databases/{db}/indexes/stats")).GetProperty("Results").EnumerateArray());
        Assert.Equal("Folio", before.GetProperty("SearchEngine").GetString());
        Assert.False(before.TryGetProperty("Replacement", out _));

        using (var put = await server.Client.PutAsync($"/databases/{db}/indexes", FolioApi.Json($$"""{"Indexes":[{{Orders.Replace("ENGINE", "Lucene")}}]}""")))
            Assert.Equal(HttpStatusCode.Created, put.StatusCode);
        var after = Assert.Single((await GetJsonAsync(server.Client, $"/databases/{db}/indexes/stats")).GetProperty("Results").EnumerateArray());
        Assert.Equal("Folio", after.GetProperty("SearchEngine").GetString());
        Assert.Equal("Lucene", after.GetProperty("Replacement").GetProperty("SearchEngine").GetString());
    }

    [Fact]
    public async Task AutoIndex_TakesTheServersEngine()
    {
        await using var server = await RunningServer.StartAsync("--Indexing:SearchEngine=Lucene");
        var db = await CreateDatabaseAsync(server.Client);
        await StoreAsync(server.Client, db, "orders/1", """{"Country":"France","Total":10}""");
        await StoreAsync(server.Client, db, "orders/2", """{"Country":"Spain","Total":30}""");
        Assert.Equal(["orders/2"], await IdsAsync(server.Client, db, "from Orders where Country = 'spain'"));
        var stats = Assert.Single((await GetJsonAsync(server.Client, $"/databases/{db}/indexes/stats")).GetProperty("Results").EnumerateArray());
        Assert.Equal("Auto", stats.GetProperty("Type").GetString());
        Assert.Equal("Lucene", stats.GetProperty("SearchEngine").GetString());
    }

    private static async Task<List<string>> IdsAsync(HttpClient client, string db, string rql)
    {
        using var response = await client.PostAsync($"/databases/{db}/queries", FolioApi.Json(JsonSerializer.Serialize(new { Query = rql, WaitForNonStaleResults = true })));
        var body = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == HttpStatusCode.OK, body);
        using var json = JsonDocument.Parse(body);
        return [.. json.RootElement.GetProperty("Results").EnumerateArray().Select(r => r.GetProperty("@metadata").GetProperty("@id").GetString()!)];
    }
}
