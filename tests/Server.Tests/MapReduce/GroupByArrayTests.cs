using System.Net;
using System.Text.Json;
using Folio.Server.Tests.Support;
using static Folio.Server.Tests.Support.FolioApi;

namespace Folio.Server.Tests.MapReduce;

/// <summary>
/// <c>group by array(Lines[].Product)</c>, as the seeds' documentation groups by an array's content: one group per
/// distinct list of values (in their order), where <c>group by Lines[].Product</c> makes a group per value; on each engine.
/// </summary>
public sealed class GroupByArrayTests
{
    [Theory]
    [InlineData("Folio")]
    [InlineData("Lucene")]
    public async Task GroupByArray_GroupsByTheWholeListOfValues(string engine)
    {
        await using var server = await RunningServer.StartAsync($"--Indexing:SearchEngine={engine}");
        var db = await CreateDatabaseAsync(server.Client);
        string[][] lines = [["a", "b"], ["a", "b"], ["a"], ["b", "a"], ["a", "b"]];
        for (var i = 0; i < lines.Length; i++)
        {
            var items = string.Join(",", lines[i].Select(p => "{\"Product\":\"" + p + "\",\"Quantity\":" + (i + 1) + "}"));
            await StoreAsync(server.Client, db, $"orders/{i}", "{\"Lines\":[" + items + "],\"@metadata\":{\"@collection\":\"Orders\"}}");
        }

        var rows = await QueryResultsAsync(server.Client, db, "from Orders group by array(Lines[].Product) select key() as Products, count() as Count, sum(Lines[].Quantity) as Quantity");
        var groups = rows.EnumerateArray().ToDictionary(r => r.GetProperty("Products").GetRawText(), r => (Count: r.GetProperty("Count").GetInt32(), Quantity: r.GetProperty("Quantity").GetInt32()));
        Assert.Equal(3, groups.Count);
        Assert.Equal((3, 2 * (1 + 2 + 5)), groups["""["a","b"]"""]);
        Assert.Equal((1, 3), groups["""["a"]"""]);
        Assert.Equal((1, 2 * 4), groups["""["b","a"]"""]);

        // A static map/reduce index says the same with "Array": true.
        using (var put = await server.Client.PutAsync($"/databases/{db}/indexes", FolioApi.Json("""{"Indexes":[{"Name":"Orders/ByProducts","Collections":["Orders"],"Reduce":{"GroupBy":[{"Name":"Products","Path":"Lines[].Product","Array":true}],"Aggregations":{"Count":{"Op":"Count"}}}}]}""")))
            Assert.Equal(HttpStatusCode.Created, put.StatusCode);
        var stat = await QueryResultsAsync(server.Client, db, "from index 'Orders/ByProducts' where Count > 1");
        Assert.Equal("""["a","b"]""", Assert.Single(stat.EnumerateArray()).GetProperty("Products").GetRawText());

        // A value that is no array is a list of one, so "x" and ["x"] are one group; no value is the null group.
        await StoreAsync(server.Client, db, "tags/1", """{"Tags":"x","@metadata":{"@collection":"Tags"}}""");
        await StoreAsync(server.Client, db, "tags/2", """{"Tags":["x"],"@metadata":{"@collection":"Tags"}}""");
        await StoreAsync(server.Client, db, "tags/3", """{"Other":1,"@metadata":{"@collection":"Tags"}}""");
        var tagGroups = (await QueryResultsAsync(server.Client, db, "from Tags group by array(Tags) select key() as Tags, count() as Count")).EnumerateArray()
            .ToDictionary(r => r.GetProperty("Tags").GetRawText(), r => r.GetProperty("Count").GetInt32());
        Assert.Equal(2, tagGroups["""["x"]"""]);
        Assert.Equal(1, tagGroups["null"]);

        // Per value, as before: every order with an a, every order with a b.
        var perValue = await QueryResultsAsync(server.Client, db, "from Orders group by Lines[].Product select key() as Product, count() as Count");
        Assert.Equal(5, perValue.EnumerateArray().Single(r => r.GetProperty("Product").GetString() == "a").GetProperty("Count").GetInt32());
    }

    private static async Task<JsonElement> QueryResultsAsync(HttpClient client, string db, string rql) =>
        (await FolioApi.QueryAsync(client, db, rql)).GetProperty("Results");
}
