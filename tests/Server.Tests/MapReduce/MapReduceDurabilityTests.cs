using System.Net;
using System.Text;
using System.Text.Json;
using Folio.Server.Tests.Support;
using Xunit.Abstractions;
using static Folio.Server.Tests.Support.FolioApi;

namespace Folio.Server.Tests.MapReduce;

/// <summary>
/// A map/reduce index across kill -9: killed while it reduces a backlog of inserts and updates, it comes
/// back with every group equal to what the surviving documents give, neither counting a document twice
/// nor missing one, and its indexed rows agree with its reduce store.
/// </summary>
public sealed class MapReduceDurabilityTests(ITestOutputHelper output)
{
    private const string ByGroup = "Items/ByGroup";
    private const string ByProduct = "Items/ByProduct";
    private const int Groups = 13;
    private const int Products = 5;

    [Fact]
    public async Task Kill9_DuringReduce_LeavesEveryGroupAsTheDocumentsGive()
    {
        const int batch = 1_000;
        var dataDir = RunningServer.NewDataDir();
        try
        {
            string db;
            var written = 0;
            await using (var server = await ServerProcess.StartAsync(dataDir))
            {
                db = await CreateDatabaseAsync(server.Client);
                for (var b = 0; b < 6; b++)
                    written += await BulkAsync(server.Client, db, written, batch, version: 0);
                await PutIndexesAsync(server.Client, db);

                // Inserts and updates of earlier documents (retractions) go on while the indexes catch up;
                // the kill comes once the map/reduce index has committed some batches but not all.
                var killed = false;
                for (var b = 0; b < 60 && !killed; b++)
                {
                    // Batches four times the backlog's: a batch of 1,000 was reduced before the next look at the
                    // stats, so on a fast run the index was never seen behind (one run in four).
                    var write = BulkAsync(server.Client, db, written, 4 * batch, version: b + 1);
                    while (!write.IsCompleted)
                    {
                        var (processed, stale) = await IndexStatsAsync(server.Client, db, ByGroup);
                        if (processed >= 2_000 && stale)
                        {
                            output.WriteLine($"Killing with {written} documents written, {ByGroup} at etag {processed}");
                            await server.KillAsync();
                            killed = true;
                            break;
                        }
                        await Task.Delay(10);
                    }
                    try
                    {
                        written += await write;
                    }
                    catch (Exception e) when (killed && ConnectionCut.IsCut(e))
                    {
                        // The batch in flight may or may not have committed; the check reads what survived.
                    }
                    if (killed)
                        break;
                    // On a quiet machine the indexes can keep up with every write while it is in flight; right after
                    // a batch commits they are behind it, which is as good a moment to kill.
                    var (after, behind) = await IndexStatsAsync(server.Client, db, ByGroup);
                    if (after >= 2_000 && behind)
                    {
                        output.WriteLine($"Killing with {written} documents written, between writes, {ByGroup} at etag {after}");
                        await server.KillAsync();
                        killed = true;
                    }
                }
                Assert.True(killed, "The map/reduce index never was seen part-way through its work while writes went on.");
            }

            await using var restarted = await ServerProcess.StartAsync(dataDir);
            var documents = await DocumentsAsync(restarted.Client, db);
            output.WriteLine($"{documents.Count} documents survived");
            await AssertGroupsAsync(restarted.Client, db, documents);
        }
        finally
        {
            RunningServer.DeleteDirectory(dataDir);
        }
    }

    /// <summary>Writes documents <paramref name="from"/>.. (and rewrites every 7th earlier one with new values), one bulk_docs call.</summary>
    private static async Task<int> BulkAsync(HttpClient client, string db, int from, int count, int version)
    {
        var body = new StringBuilder("{\"Commands\":[");
        for (var i = from; i < from + count; i++)
            body.Append(Command(i, version)).Append(',');
        for (var i = version % 7; i < from; i += Math.Max(7, from / 50))
            body.Append(Command(i, version)).Append(',');
        body.Length--;
        body.Append("]}");
        using var response = await client.PostAsync($"/databases/{db}/bulk_docs", FolioApi.Json(body.ToString()));
        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
        return count;
    }

    private static string Command(int i, int version)
    {
        var document = $$"""{"Group":"g{{(i + version) % Groups}}","Num":{{i + version}},"Lines":[{"P":"p{{i % Products}}","Q":{{1 + version}}},{"P":"p{{(i + 1) % Products}}","Q":2.5}]}""";
        return $$"""{"Type":"PUT","Id":"items/{{i}}","Document":{{document}}}""";
    }

    private static async Task PutIndexesAsync(HttpClient client, string db)
    {
        const string definitions = """
            {"Indexes":[
              {"Name":"Items/ByGroup","Collections":["Items"],"Reduce":{"GroupBy":["Group"],"Aggregations":{"Count":{"Op":"Count"},"Sum":{"Op":"Sum","Path":"Num"},"Min":{"Op":"Min","Path":"Num"},"Max":{"Op":"Max","Path":"Num"}}}},
              {"Name":"Items/ByProduct","Collections":["Items"],"Reduce":{"GroupBy":["Lines[].P"],"Aggregations":{"Lines":{"Op":"Count"},"Q":{"Op":"Sum","Path":"Lines[].Q"}}}}
            ]}
            """;
        using var response = await client.PutAsync($"/databases/{db}/indexes", FolioApi.Json(definitions));
        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
    }

    private static async Task<(long ProcessedEtag, bool IsStale)> IndexStatsAsync(HttpClient client, string db, string name)
    {
        var stats = await GetJsonAsync(client, $"/databases/{db}/indexes/stats");
        var index = stats.GetProperty("Results").EnumerateArray().Single(i => i.GetProperty("Name").GetString() == name);
        return (index.GetProperty("ProcessedEtag").GetInt64(), index.GetProperty("IsStale").GetBoolean());
    }

    /// <summary>Every surviving document, read from the collection itself.</summary>
    private static async Task<List<JsonElement>> DocumentsAsync(HttpClient client, string db)
    {
        using var stream = await client.GetAsync($"/databases/{db}/streams/queries?query={Uri.EscapeDataString("from Items")}");
        Assert.Equal(HttpStatusCode.OK, stream.StatusCode);
        using var all = JsonDocument.Parse(await stream.Content.ReadAsStringAsync());
        return all.RootElement.GetProperty("Results").EnumerateArray().Select(d => d.Clone()).ToList();
    }

    private static async Task AssertGroupsAsync(HttpClient client, string db, List<JsonElement> documents)
    {
        var byGroup = await RowsAsync(client, db, ByGroup, "Group");
        Assert.Equal(Groups, byGroup.Count);
        foreach (var group in documents.GroupBy(d => d.GetProperty("Group").GetString()!))
        {
            var numbers = group.Select(d => d.GetProperty("Num").GetInt64()).ToList();
            Assert.Equal($$"""{"Group":"{{group.Key}}","Count":{{numbers.Count}},"Sum":{{numbers.Sum()}},"Min":{{numbers.Min()}},"Max":{{numbers.Max()}}}""", byGroup[group.Key]);
        }

        var byProduct = await RowsAsync(client, db, ByProduct, "P");
        Assert.Equal(Products, byProduct.Count);
        var lines = documents.SelectMany(d => d.GetProperty("Lines").EnumerateArray()).GroupBy(l => l.GetProperty("P").GetString()!);
        foreach (var product in lines)
        {
            var quantity = product.Sum(l => l.GetProperty("Q").GetDouble());
            var row = JsonDocument.Parse(byProduct[product.Key]).RootElement;
            Assert.Equal(product.Count(), row.GetProperty("Lines").GetInt64());
            Assert.Equal(quantity, row.GetProperty("Q").GetDouble(), 9);
        }
    }

    /// <summary>The index's rows by group value, once it caught up (its stats say so, then a query that waits).</summary>
    private static async Task<Dictionary<string, string>> RowsAsync(HttpClient client, string db, string index, string field)
    {
        var body = JsonSerializer.Serialize(new { Query = $"from index '{index}' limit 100", WaitForNonStaleResults = true, WaitForNonStaleResultsTimeout = "00:01:00" });
        using var response = await client.PostAsync($"/databases/{db}/queries", FolioApi.Json(body));
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        using var answer = JsonDocument.Parse(await response.Content.ReadAsStringAsync());
        Assert.False(answer.RootElement.GetProperty("IsStale").GetBoolean());
        var rows = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (var row in answer.RootElement.GetProperty("Results").EnumerateArray())
            rows.Add(row.GetProperty(field).GetString()!, row.GetRawText());
        return rows;
    }
}
