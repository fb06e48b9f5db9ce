using System.Diagnostics;
using System.Net;
using System.Text;
using System.Text.Json;
using System.Text.Json.Nodes;
using Folio.Server.Http;
using Folio.Server.Tests.Support;
using static Folio.Server.Tests.Support.FolioApi;

namespace Folio.Server.Tests.Operations;

/// <summary>Patch and delete by query as tracked operations, on a real server and real storage, across a restart.</summary>
public sealed class QueryOperationTests : IAsyncLifetime
{
    // More than two batches of the runner (1024 documents each).
    private const int Orders = 2500;

    // Scripts here that run long on purpose stay under the statement limit; on a machine loaded by other builds they can
    // pass the default second of wall-clock time, which must not decide these tests (endless loops still end, on statements).
    private const string PatientScripts = "--Scripting:TimeoutMs=60000";

    private RunningServer _server = null!;
    private string _db = "";

    private HttpClient Client => _server.Client;

    public async Task InitializeAsync()
    {
        _server = await RunningServer.StartAsync(PatientScripts);
        _db = await CreateDatabaseAsync(Client);
        await SeedAsync(Client, _db);
    }

    public async Task DisposeAsync() => await _server.DisposeAsync();

    private static async Task SeedAsync(HttpClient client, string db)
    {
        var commands = Enumerable.Range(1, Orders).Select(i => "{\"Type\":\"PUT\",\"Id\":\"orders/" + i + "\",\"Document\":{\"Freight\":" + (i % 50) + ",\"Number\":" + i + ",\"@metadata\":{\"@collection\":\"Orders\"}}}");
        using var bulk = await client.PostAsync($"/databases/{db}/bulk_docs", FolioApi.Json($$"""{"Commands":[{{string.Join(',', commands)}}]}"""));
        Assert.True(bulk.IsSuccessStatusCode, await bulk.Content.ReadAsStringAsync());
    }

    private static async Task<(HttpStatusCode Status, JsonElement Body)> SendAsync(HttpClient client, HttpMethod method, string uri, object? body = null)
    {
        using var request = new HttpRequestMessage(method, uri);
        if (body is not null)
            request.Content = FolioApi.Json(JsonSerializer.Serialize(body));
        using var response = await client.SendAsync(request);
        var text = await response.Content.ReadAsStringAsync();
        return (response.StatusCode, text.Length == 0 ? default : JsonDocument.Parse(text).RootElement.Clone());
    }

    private static async Task<long> StartAsync(HttpClient client, string db, HttpMethod method, string query, object? parameters = null)
    {
        var (status, body) = await SendAsync(client, method, $"/databases/{db}/queries", new { Query = query, QueryParameters = parameters });
        Assert.True(status == HttpStatusCode.Accepted, body.ToString());
        return body.GetProperty("OperationId").GetInt64();
    }

    private static async Task<JsonElement> StateAsync(HttpClient client, string db, long id)
    {
        var (status, body) = await SendAsync(client, HttpMethod.Get, $"/databases/{db}/operations/state?id={id}");
        // The answer's problem says why when it is not a state (it once was not, right after a restart).
        Assert.True(status == HttpStatusCode.OK, $"operation {id}'s state: {(int)status} {body}");
        return body;
    }

    private static async Task<JsonElement> WaitAsync(HttpClient client, string db, long id, Func<JsonElement, bool> condition, TimeSpan? timeout = null)
    {
        var clock = Stopwatch.StartNew();
        while (true)
        {
            var state = await StateAsync(client, db, id);
            if (condition(state))
                return state;
            Assert.True(clock.Elapsed < (timeout ?? TestTimeouts.Default), $"The operation did not reach the expected state: {state}");
            await Task.Delay(50);
        }
    }

    private static Task<JsonElement> EndedAsync(HttpClient client, string db, long id, TimeSpan? timeout = null) =>
        WaitAsync(client, db, id, s => s.GetProperty("Status").GetString() != "InProgress", timeout);

    private static async Task<Dictionary<int, double>> FreightsAsync(HttpClient client, string db)
    {
        using var response = await client.GetAsync($"/databases/{db}/streams/queries?query={Uri.EscapeDataString("from Orders")}");
        using var json = JsonDocument.Parse(await response.Content.ReadAsStringAsync());
        return json.RootElement.GetProperty("Results").EnumerateArray().ToDictionary(r => r.GetProperty("Number").GetInt32(), r => r.GetProperty("Freight").GetDouble());
    }

    [Fact]
    public async Task PatchByQuery_Update_PatchesEveryMatchInBatches()
    {
        var id = await StartAsync(Client, _db, HttpMethod.Patch, "from Orders where Freight > $min update { this.Freight = this.Freight * $factor + 1; this.Patched = true; }", new { min = 10, factor = 2 });
        var state = await EndedAsync(Client, _db, id);

        var expected = Enumerable.Range(1, Orders).Count(i => i % 50 > 10);
        Assert.Equal("Completed", state.GetProperty("Status").GetString());
        Assert.Equal("PatchByQuery", state.GetProperty("Kind").GetString());
        Assert.Equal(expected, state.GetProperty("Total").GetInt64());
        Assert.Equal(expected, state.GetProperty("Processed").GetInt64());
        Assert.Equal(JsonValueKind.Null, state.GetProperty("Error").ValueKind);
        var freights = await FreightsAsync(Client, _db);
        for (var i = 1; i <= Orders; i++)
            Assert.Equal(i % 50 > 10 ? (i % 50) * 2 + 1 : i % 50, freights[i]);
    }

    [Fact]
    public async Task PatchByQuery_WithFilter_PatchesOnlyWhatPassesIt()
    {
        // The where retrieves a fifth of the orders through an index; the filter keeps those of them with a Number over 2,000.
        var id = await StartAsync(Client, _db, HttpMethod.Patch, "from Orders where Freight < 10 filter Number > $min update { this.Filtered = true; }", new { min = 2000 });
        var state = await EndedAsync(Client, _db, id);

        var expected = Enumerable.Range(2001, Orders - 2000).Count(i => i % 50 < 10);
        Assert.Equal("Completed", state.GetProperty("Status").GetString());
        Assert.Equal(expected, state.GetProperty("Processed").GetInt64());
        Assert.True((await LoadAsync(Client, _db, "orders/2001"))!.Value.GetProperty("Filtered").GetBoolean());
        Assert.False((await LoadAsync(Client, _db, "orders/1001"))!.Value.TryGetProperty("Filtered", out _));
        Assert.False((await LoadAsync(Client, _db, "orders/2010"))!.Value.TryGetProperty("Filtered", out _));
    }

    [Fact]
    public async Task PatchByQuery_QueryAsAnObject_IsTheSeedsClientsForm()
    {
        var (status, body) = await SendAsync(Client, HttpMethod.Patch, $"/databases/{_db}/queries", new { Query = new { Query = "from Orders where Number = $n update { this.Freight = -7; }", QueryParameters = new { n = 3 } } });
        Assert.True(status == HttpStatusCode.Accepted, body.ToString());

        var state = await EndedAsync(Client, _db, body.GetProperty("OperationId").GetInt64());

        Assert.Equal("Completed", state.GetProperty("Status").GetString());
        Assert.Equal(1, state.GetProperty("Processed").GetInt64());
        Assert.Equal(-7, (await FreightsAsync(Client, _db))[3]);
    }

    [Fact]
    public async Task PatchByQuery_AllDocs_PatchesEveryCollection()
    {
        await StoreAsync(Client, _db, "notes/1", """{"Freight":20,"Number":-1,"@metadata":{"@collection":"Notes"}}""");
        await StoreAsync(Client, _db, "loose/1", """{"Freight":20,"Number":-2}""");

        var id = await StartAsync(Client, _db, HttpMethod.Patch, "from @all_docs where Freight = 20 update { this.Seen = true; }");
        var state = await EndedAsync(Client, _db, id);

        Assert.Equal("Completed", state.GetProperty("Status").GetString());
        Assert.Equal(Orders / 50 + 2, state.GetProperty("Processed").GetInt64());
        Assert.True((await LoadAsync(Client, _db, "notes/1"))!.Value.GetProperty("Seen").GetBoolean());
        Assert.True((await LoadAsync(Client, _db, "loose/1"))!.Value.GetProperty("Seen").GetBoolean());
        Assert.True((await LoadAsync(Client, _db, "orders/20"))!.Value.GetProperty("Seen").GetBoolean());
        Assert.False((await LoadAsync(Client, _db, "orders/21"))!.Value.TryGetProperty("Seen", out _));
    }

    [Fact]
    public async Task PatchByQuery_StaticIndexQuery_PatchesTheDocumentsOfTheMatchingEntries()
    {
        using (var put = await Client.PutAsync($"/databases/{_db}/indexes", FolioApi.Json("""{"Indexes":[{"Name":"Orders/ByFreight","Collections":["Orders"],"Fields":{"F":{"Path":"Freight","Type":"Long"}}}]}""")))
            Assert.True(put.StatusCode == HttpStatusCode.Created, await put.Content.ReadAsStringAsync());

        var id = await StartAsync(Client, _db, HttpMethod.Patch, "from index 'Orders/ByFreight' where F between 48 and 49 update { this.Freight = 0; }");
        var state = await EndedAsync(Client, _db, id);

        Assert.Equal("Completed", state.GetProperty("Status").GetString());
        Assert.Equal(Orders / 25, state.GetProperty("Processed").GetInt64());
        var freights = await FreightsAsync(Client, _db);
        for (var i = 1; i <= Orders; i++)
            Assert.Equal(i % 50 is 48 or 49 ? 0 : i % 50, freights[i]);
    }

    [Fact]
    public async Task DeleteByQuery_DeletesEveryMatch()
    {
        var id = await StartAsync(Client, _db, HttpMethod.Delete, "from Orders where Freight < $max", new { max = 5 });
        var state = await EndedAsync(Client, _db, id);

        Assert.Equal("Completed", state.GetProperty("Status").GetString());
        Assert.Equal("DeleteByQuery", state.GetProperty("Kind").GetString());
        Assert.Equal(Orders / 10, state.GetProperty("Processed").GetInt64());
        var freights = await FreightsAsync(Client, _db);
        Assert.Equal(Orders - Orders / 10, freights.Count);
        Assert.DoesNotContain(freights.Values, f => f < 5);
    }

    [Fact]
    public async Task PatchByQuery_InfiniteLoop_FaultsWithinTheLimitAndChangesNothing()
    {
        var id = await StartAsync(Client, _db, HttpMethod.Patch, "from Orders update { while (true) { } }");
        var state = await EndedAsync(Client, _db, id);

        Assert.Equal("Faulted", state.GetProperty("Status").GetString());
        Assert.Contains("orders/", state.GetProperty("Error").GetString(), StringComparison.Ordinal);
        Assert.Contains("limit", state.GetProperty("Error").GetString(), StringComparison.Ordinal);
        Assert.Equal(0, state.GetProperty("Processed").GetInt64());
        var freights = await FreightsAsync(Client, _db);
        Assert.All(Enumerable.Range(1, Orders), i => Assert.Equal(i % 50, freights[i]));
        await AssertServingAsync(Client);
    }

    [Fact]
    public async Task PatchByQuery_FailingDocument_KeepsEarlierBatchesCommitted()
    {
        var id = await StartAsync(Client, _db, HttpMethod.Patch, "from Orders update {\n  if (this.Number === 1500) throw new Error('bad order');\n  this.Freight = -1;\n}");
        var state = await EndedAsync(Client, _db, id);

        Assert.Equal("Faulted", state.GetProperty("Status").GetString());
        var error = state.GetProperty("Error").GetString()!;
        Assert.Contains("orders/1500", error, StringComparison.Ordinal);
        Assert.Contains("bad order", error, StringComparison.Ordinal);
        Assert.Contains("line 2", error, StringComparison.Ordinal);
        var processed = state.GetProperty("Processed").GetInt64();
        Assert.Equal(1024, processed);
        var freights = await FreightsAsync(Client, _db);
        Assert.Equal(processed, freights.Values.Count(f => f == -1));
        Assert.NotEqual(-1, freights[1500]);
    }

    [Fact]
    public async Task Kill_RunningOperation_CancelsAfterCommittedBatches()
    {
        // Each document costs a busy loop well under the limits, so the operation runs for many seconds.
        var id = await StartAsync(Client, _db, HttpMethod.Patch, "from Orders update { for (var i = 0; i < 200000; i++) { } this.Freight = -1; }");
        await WaitAsync(Client, _db, id, s => s.GetProperty("Total").GetInt64() == Orders);

        var (status, _) = await SendAsync(Client, HttpMethod.Post, $"/databases/{_db}/operations/kill?id={id}");
        var state = await EndedAsync(Client, _db, id);

        Assert.Equal(HttpStatusCode.NoContent, status);
        Assert.Equal("Cancelled", state.GetProperty("Status").GetString());
        var processed = state.GetProperty("Processed").GetInt64();
        Assert.True(processed < Orders, $"processed {processed}");
        var freights = await FreightsAsync(Client, _db);
        Assert.Equal(processed, freights.Values.Count(f => f == -1));
    }

    [Fact]
    public async Task Restart_DuringOperation_ReportsItInterruptedAndKeepsCommittedBatches()
    {
        var dataDir = RunningServer.NewDataDir();
        try
        {
            string db;
            long id;
            await using (var first = await RunningServer.StartOnAsync(dataDir, PatientScripts))
            {
                db = await CreateDatabaseAsync(first.Client);
                await SeedAsync(first.Client, db);
                // The last documents take far longer than a shutdown, so the operation cannot end before the server
                // stops, however fast the machine (on a quiet one it once finished first and was reported Completed).
                id = await StartAsync(first.Client, db, HttpMethod.Patch, "from Orders update { var n = this.Number > 2048 ? 300000 : 20000; for (var i = 0; i < n; i++) { } this.Freight = -1; }");
                await WaitAsync(first.Client, db, id, s => s.GetProperty("Processed").GetInt64() >= 1024, TimeSpan.FromMinutes(2));
            }

            await using (var second = await RunningServer.StartOnAsync(dataDir, PatientScripts))
            {
                var state = await StateAsync(second.Client, db, id);
                Assert.Equal("Interrupted", state.GetProperty("Status").GetString());
                Assert.Contains("not resumed", state.GetProperty("Error").GetString(), StringComparison.Ordinal);
                var processed = state.GetProperty("Processed").GetInt64();
                Assert.True(processed >= 1024 && processed < Orders, $"processed {processed}");
                var freights = await FreightsAsync(second.Client, db);
                Assert.Equal(processed, freights.Values.Count(f => f == -1));

                // Ids go on after the recorded ones.
                var next = await StartAsync(second.Client, db, HttpMethod.Delete, "from Orders where Freight = -1");
                Assert.True(next > id);
                Assert.Equal("Completed", (await EndedAsync(second.Client, db, next)).GetProperty("Status").GetString());
            }
        }
        finally
        {
            RunningServer.DeleteDirectory(dataDir);
        }
    }

    [Fact]
    public async Task Restart_AfterCrashMidOperation_ReportsItInterrupted()
    {
        var dataDir = RunningServer.NewDataDir();
        try
        {
            string db;
            long id;
            await using (var first = await RunningServer.StartOnAsync(dataDir, PatientScripts))
            {
                db = await CreateDatabaseAsync(first.Client);
                await SeedAsync(first.Client, db);
                id = await StartAsync(first.Client, db, HttpMethod.Patch, "from Orders where Number <= 10 update { this.Freight = -1; }");
                await EndedAsync(first.Client, db, id);
            }

            // A crash leaves the record as the last committed batch wrote it: still in progress.
            var file = Directory.GetFiles(dataDir, "operations.json", SearchOption.AllDirectories).Single();
            var record = JsonNode.Parse(await File.ReadAllTextAsync(file))!;
            var operation = record["Operations"]!.AsArray().Single(o => (long)o!["Id"]! == id)!;
            operation["Status"] = "InProgress";
            operation["Processed"] = 8;
            operation["CompletedAt"] = null;
            await File.WriteAllTextAsync(file, record.ToJsonString(), new UTF8Encoding(false));

            await using var second = await RunningServer.StartOnAsync(dataDir);
            var state = await StateAsync(second.Client, db, id);
            Assert.Equal("Interrupted", state.GetProperty("Status").GetString());
            Assert.Equal(8, state.GetProperty("Processed").GetInt64());
            Assert.Contains("server stopped", state.GetProperty("Error").GetString(), StringComparison.Ordinal);
        }
        finally
        {
            RunningServer.DeleteDirectory(dataDir);
        }
    }

    [Theory]
    [InlineData("PATCH", """{"Query":"from Orders"}""")]
    [InlineData("PATCH", """{"Query":"from Orders update { this.Freight = ; }"}""")]
    [InlineData("PATCH", """{"Query":"from Orders update"}""")]
    [InlineData("PATCH", """{"Nope":1}""")]
    [InlineData("DELETE", """{"Query":"from Orders update { this.A = 1 }"}""")]
    [InlineData("DELETE", """{"Query":"from Orders","QueryParameters":[1]}""")]
    public async Task StartOperation_BadQuery_Answers400AndStartsNothing(string method, string body)
    {
        using var request = new HttpRequestMessage(new HttpMethod(method), $"/databases/{_db}/queries") { Content = FolioApi.Json(body) };
        using var response = await Client.SendAsync(request);

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Equal(Orders, (await FreightsAsync(Client, _db)).Count);
    }

    [Theory]
    [InlineData("GET", "state?id=999", HttpStatusCode.NotFound)]
    [InlineData("POST", "kill?id=999", HttpStatusCode.NotFound)]
    [InlineData("GET", "state?id=abc", HttpStatusCode.BadRequest)]
    [InlineData("GET", "state", HttpStatusCode.BadRequest)]
    [InlineData("POST", "kill?id=-1", HttpStatusCode.BadRequest)]
    public async Task OperationRoutes_UnknownOrBadId_AnswerProblem(string method, string path, HttpStatusCode expected)
    {
        var (status, body) = await SendAsync(Client, new HttpMethod(method), $"/databases/{_db}/operations/{path}");

        Assert.Equal(expected, status);
        if (expected == HttpStatusCode.NotFound)
            Assert.Equal(ProblemTypes.OperationNotFound, body.GetProperty("type").GetString());
    }
}
