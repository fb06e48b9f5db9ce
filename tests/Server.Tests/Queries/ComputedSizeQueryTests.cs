using System.Net;
using System.Text.Json;
using Folio.Server.Tests.Support;
using static Folio.Server.Tests.Support.FolioApi;

namespace Folio.Server.Tests.Queries;

/// <summary>
/// <c>Lines.Count</c> and <c>Name.Length</c> in queries, as the seeds' .NET client writes <c>o.Lines.Count &gt; 1</c>:
/// the size of the array or string the path reaches, filtered, ordered and projected, on each engine. Found trying the
/// seeds' query forms from outside: the filter matched nothing.
/// </summary>
public sealed class ComputedSizeQueryTests
{
    [Theory]
    [InlineData("Folio")]
    [InlineData("Lucene")]
    public async Task Query_CountAndLengthOfWhatAPathReaches_FilterOrderAndProject(string engine)
    {
        await using var server = await RunningServer.StartAsync($"--Indexing:SearchEngine={engine}");
        var db = await CreateDatabaseAsync(server.Client);
        for (var i = 1; i <= 5; i++)
        {
            var lines = string.Join(",", Enumerable.Range(0, i).Select(n => $$"""{"Product":"p{{n}}"}"""));
            await StoreAsync(server.Client, db, $"orders/{i}", $$$"""{"Name":"{{{new string('x', 10 - i)}}}","Lines":[{{{lines}}}],"@metadata":{"@collection":"Orders"}}""");
        }

        Assert.Equal(["orders/3", "orders/4", "orders/5"], Ids(await QueryResultsAsync(server.Client, db, "from Orders where Lines.Count > 2")));
        Assert.Equal(["orders/5", "orders/4"], InOrder(await QueryResultsAsync(server.Client, db, "from Orders where Lines.Count >= 4 order by Lines.Count as long desc")));
        Assert.Equal(["orders/1", "orders/2"], Ids(await QueryResultsAsync(server.Client, db, "from Orders where Name.Length between 8 and 9")));
        var projected = await QueryResultsAsync(server.Client, db, "from Orders where id() = 'orders/4' select Lines.Count as Lines, Name.Length as Name");
        var row = Assert.Single(projected.EnumerateArray());
        Assert.Equal(4, row.GetProperty("Lines").GetInt32());
        Assert.Equal(6, row.GetProperty("Name").GetInt32());

        using var put = await server.Client.PutAsync($"/databases/{db}/indexes", FolioApi.Json("""{"Indexes":[{"Name":"Orders/ByLineCount","Collections":["Orders"],"Fields":{"LineCount":{"Path":"Lines.Count","Type":"Long"}}}]}"""));
        Assert.Equal(HttpStatusCode.Created, put.StatusCode);
        Assert.Equal(["orders/1", "orders/2"], Ids(await QueryResultsAsync(server.Client, db, "from index 'Orders/ByLineCount' where LineCount < 3")));
    }

    private static List<string> Ids(JsonElement results) => [.. InOrder(results).Order(StringComparer.Ordinal)];

    private static List<string> InOrder(JsonElement results) =>
        [.. results.EnumerateArray().Select(r => r.GetProperty("@metadata").GetProperty("@id").GetString()!)];

    private static async Task<JsonElement> QueryResultsAsync(HttpClient client, string db, string rql) =>
        (await FolioApi.QueryAsync(client, db, rql)).GetProperty("Results");
}
