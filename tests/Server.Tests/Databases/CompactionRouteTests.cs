using System.Diagnostics;
using System.Net;
using System.Text.Json;
using Folio.Server.Databases;
using Folio.Server.Operations;
using Folio.Server.Tests.Support;
using Microsoft.Extensions.DependencyInjection;
using static Folio.Server.Tests.Support.FolioApi;

namespace Folio.Server.Tests.Databases;

/// <summary><c>POST /admin/databases/{db}/compact</c> on a real server and real storage.</summary>
public sealed class CompactionRouteTests
{
    private const string NoIdleUnload = "--Databases:IdleUnloadAfter=00:00:00";

    [Fact]
    public async Task Compact_Answers202AndShrinksTheFile_AfterHalfTheDocumentsAreDeleted()
    {
        await using RunningServer server = await RunningServer.StartAsync();
        string db = await CreateDatabaseAsync(server.Client);
        await SeedAsync(server.Client, db, 4_000);
        await DeleteEvenAsync(server.Client, db, 4_000);

        using var started = await server.Client.PostAsync($"/admin/databases/{db}/compact", null);
        Assert.Equal(HttpStatusCode.Accepted, started.StatusCode);
        long id = JsonDocument.Parse(await started.Content.ReadAsStringAsync()).RootElement.GetProperty("OperationId").GetInt64();
        JsonElement state = await WaitForEndAsync(server.Client, db, id);

        Assert.Equal("Completed", state.GetProperty("Status").GetString());
        Assert.Equal("Compaction", state.GetProperty("Kind").GetString());
        Assert.True(state.GetProperty("Total").GetInt64() > 0);
        Assert.Equal(state.GetProperty("Total").GetInt64(), state.GetProperty("Processed").GetInt64());
        JsonElement stats = await GetJsonAsync(server.Client, $"/databases/{db}/stats");
        Assert.Equal(JsonValueKind.Null, stats.GetProperty("Compaction").ValueKind);
        JsonElement last = stats.GetProperty("LastCompaction");
        Assert.True(last.GetProperty("SizeAfter").GetInt64() < last.GetProperty("SizeBefore").GetInt64(), last.ToString());
        Assert.Equal(last.GetProperty("SizeAfter").GetInt64(), stats.GetProperty("SizeOnDisk").GetInt64());
        Assert.NotNull(await LoadAsync(server.Client, db, "orders/1"));
        Assert.Null(await LoadAsync(server.Client, db, "orders/2"));
        await StoreAsync(server.Client, db, "orders/after", """{"Freight":1}""");
        Assert.NotNull(await LoadAsync(server.Client, db, "orders/after"));
        Assert.Contains(server.Log.Events, e => e.MessageTemplate.Text.StartsWith("Compaction {OperationId} of {Database} completed", StringComparison.Ordinal));
    }

    [Fact]
    public async Task CompactIndex_Answers202AndKeepsEveryQueryAnswer_AfterDeletes()
    {
        await using RunningServer server = await RunningServer.StartAsync();
        string db = await CreateDatabaseAsync(server.Client);
        await SeedAsync(server.Client, db, 3_000);
        using (HttpResponseMessage put = await server.Client.PutAsync($"/databases/{db}/indexes",
            FolioApi.Json("""{"Indexes":[{"Name":"Orders/ByNumber","Collections":["Orders"],"Fields":{"Number":{"Path":"Number","Type":"Long"}}}]}""")))
            Assert.Equal(HttpStatusCode.Created, put.StatusCode);
        await DeleteEvenAsync(server.Client, db, 3_000);
        const string Query = "from index 'Orders/ByNumber' where Number between 100 and 199";
        int before = await CountAsync(server.Client, db, Query);
        Assert.Equal(50, before);

        using var started = await server.Client.PostAsync($"/admin/databases/{db}/indexes/compact?name=Orders/ByNumber", null);
        Assert.Equal(HttpStatusCode.Accepted, started.StatusCode);
        long id = JsonDocument.Parse(await started.Content.ReadAsStringAsync()).RootElement.GetProperty("OperationId").GetInt64();
        JsonElement state = await WaitForEndAsync(server.Client, db, id);

        Assert.Equal("Completed", state.GetProperty("Status").GetString());
        Assert.Equal("index:Orders/ByNumber", state.GetProperty("Query").GetString());
        Assert.Equal(before, await CountAsync(server.Client, db, Query));
        await StoreAsync(server.Client, db, "orders/100", """{"Number":100,"@metadata":{"@collection":"Orders"}}""");
        Assert.Equal(before + 1, await CountAsync(server.Client, db, Query));
    }

    [Fact]
    public async Task Compact_Answers404_ForAnUnknownDatabase()
    {
        await using RunningServer server = await RunningServer.StartAsync();

        using var response = await server.Client.PostAsync($"/admin/databases/{NewDatabaseName()}/compact", null);

        Assert.Equal(HttpStatusCode.NotFound, response.StatusCode);
        Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
    }

    [Fact]
    public async Task Compact_Answers409_WhileACompactionRuns()
    {
        await using RunningServer server = await RunningServer.StartAsync();
        string db = await CreateDatabaseAsync(server.Client);
        using (DatabaseLease lease = Registry(server).Lease(db))
        {
            Assert.True(lease.Database.TryBeginCompaction());
            try
            {
                using var response = await server.Client.PostAsync($"/admin/databases/{db}/compact", null);

                Assert.Equal(HttpStatusCode.Conflict, response.StatusCode);
                Assert.Contains("compaction-in-progress", await response.Content.ReadAsStringAsync());
            }
            finally
            {
                lease.Database.EndCompaction(null);
            }
        }
        using var after = await server.Client.PostAsync($"/admin/databases/{db}/compact", null);
        Assert.Equal(HttpStatusCode.Accepted, after.StatusCode);
    }

    [Fact]
    public async Task TryUnload_Refuses_WhileACompactionOperationRuns()
    {
        await using RunningServer server = await RunningServer.StartAsync(NoIdleUnload);
        string db = await CreateDatabaseAsync(server.Client);
        DatabaseRegistry registry = Registry(server);
        DatabaseOperation operation;
        using (DatabaseLease lease = registry.Lease(db))
            operation = lease.Database.Operations.Register(OperationKind.Compaction, "compact");

        Assert.False(registry.TryUnload(db));

        operation.End(OperationStatus.Completed, null);
        Assert.True(registry.TryUnload(db));
    }

    private static async Task<int> CountAsync(HttpClient client, string db, string query)
    {
        using var response = await client.PostAsync($"/databases/{db}/queries", FolioApi.Json(JsonSerializer.Serialize(new { Query = query, WaitForNonStaleResults = true })));
        Assert.True(response.IsSuccessStatusCode, await response.Content.ReadAsStringAsync());
        return JsonDocument.Parse(await response.Content.ReadAsStringAsync()).RootElement.GetProperty("TotalResults").GetInt32();
    }

    private static DatabaseRegistry Registry(RunningServer server) => server.Server.Services.GetRequiredService<DatabaseRegistry>();

    internal static async Task SeedAsync(HttpClient client, string db, int count)
    {
        for (int start = 1; start <= count; start += 1_000)
        {
            IEnumerable<string> commands = Enumerable.Range(start, Math.Min(1_000, count - start + 1)).Select(i =>
                "{\"Type\":\"PUT\",\"Id\":\"orders/" + i + "\",\"Document\":{\"Number\":" + i + ",\"Notes\":\"" + new string((char)('a' + i % 26), 600) + "\",\"@metadata\":{\"@collection\":\"Orders\"}}}");
            using var bulk = await client.PostAsync($"/databases/{db}/bulk_docs", FolioApi.Json($$"""{"Commands":[{{string.Join(',', commands)}}]}"""));
            Assert.True(bulk.IsSuccessStatusCode, await bulk.Content.ReadAsStringAsync());
        }
    }

    internal static async Task DeleteEvenAsync(HttpClient client, string db, int count)
    {
        IEnumerable<string> commands = Enumerable.Range(1, count / 2).Select(i => "{\"Type\":\"DELETE\",\"Id\":\"orders/" + (i * 2) + "\"}");
        using var bulk = await client.PostAsync($"/databases/{db}/bulk_docs", FolioApi.Json($$"""{"Commands":[{{string.Join(',', commands)}}]}"""));
        Assert.True(bulk.IsSuccessStatusCode, await bulk.Content.ReadAsStringAsync());
    }

    private static async Task<JsonElement> WaitForEndAsync(HttpClient client, string db, long id)
    {
        var clock = Stopwatch.StartNew();
        while (true)
        {
            JsonElement state = await GetJsonAsync(client, $"/databases/{db}/operations/state?id={id}");
            if (state.GetProperty("Status").GetString() != "InProgress")
                return state;
            Assert.True(clock.Elapsed < TimeSpan.FromMinutes(2), $"the compaction did not end: {state}");
            await Task.Delay(20);
        }
    }
}
