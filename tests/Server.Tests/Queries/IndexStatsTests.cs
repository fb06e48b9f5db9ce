using System.Net;
using System.Text.Json;
using Folio.Server.Tests.Support;
using static Folio.Server.Tests.Support.FolioApi;

namespace Folio.Server.Tests.Queries;

public sealed class IndexStatsTests
{
    [Fact]
    public async Task Stats_AnswersTheIndexAndItsReplacement_WhileAChangedDefinitionIsBuilt()
    {
        // Maintenance (which swaps a caught-up replacement in) never runs here, so the replacement stays.
        await using var server = await RunningServer.StartAsync("--IndexMaintenanceInterval=01:00:00");
        var db = await CreateDatabaseAsync(server.Client);
        await StoreAsync(server.Client, db, "orders/1", """{"Country":"France","Total":10}""");
        foreach (var fields in new[] { """{"Country":{}}""", """{"Country":{},"Total":{"Type":"Double"}}""" })
        {
            using var put = await server.Client.PutAsync($"/databases/{db}/indexes", FolioApi.Json($$"""{"Indexes":[{"Name":"Orders/ByCountry","Collections":["Orders"],"Fields":{{fields}}}]}"""));
            Assert.Equal(HttpStatusCode.Created, put.StatusCode);
        }

        var stats = await GetJsonAsync(server.Client, $"/databases/{db}/indexes/stats");
        var index = Assert.Single(stats.GetProperty("Results").EnumerateArray());
        Assert.Equal("Orders/ByCountry", index.GetProperty("Name").GetString());
        Assert.Equal(JsonValueKind.Object, index.GetProperty("Replacement").ValueKind);
        Assert.Equal("Orders/ByCountry", index.GetProperty("Replacement").GetProperty("Name").GetString());
    }
}
