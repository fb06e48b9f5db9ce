using System.Net;
using System.Text.Json;
using Folio.Server.Tests.Support;
using static Folio.Server.Tests.Support.FolioApi;

namespace Folio.Server.Tests.RavenProtocol;

/// <summary>
/// Index administration as the seeds' system's clients send it, with its effects: a disabled or stopped index indexes
/// nothing (an enabled index of the same collection shows the documents were there to take), disabling, lock mode and
/// priority survive a restart, and a locked index keeps its definition.
/// </summary>
public sealed class IndexAdministrationTests
{
    private const string TwoIndexes = """
        {"Indexes":[
          {"Name":"Users/Held","Collections":["Users"],"Fields":{"Name":{"Path":"Name"}}},
          {"Name":"Users/Control","Collections":["Users"],"Fields":{"Name":{"Path":"Name"}}}]}
        """;

    [Fact]
    public async Task DisabledIndex_IndexesNothing_AndStaysDisabledAcrossRestart()
    {
        string dataDir = RunningServer.NewDataDir();
        try
        {
            string db;
            await using (RunningServer server = await RunningServer.StartOnAsync(dataDir))
            {
                db = await CreateDatabaseAsync(server.Client);
                await PutIndexesAsync(server.Client, db, TwoIndexes);
                await PostAsync(server.Client, $"/databases/{db}/admin/indexes/disable?name=Users/Held");
                await StoreAsync(server.Client, db, "users/1", """{"Name":"Ann","@metadata":{"@collection":"Users"}}""");

                long etag = (await StatsAsync(server.Client, db)).LastDocEtag;
                await WaitForProcessedAsync(server.Client, db, "Users/Control", etag);
                Assert.Equal(0, (await IndexAsync(server.Client, db, "Users/Held")).GetProperty("ProcessedEtag").GetInt64());
                Assert.Equal("Disabled", await StatusOfAsync(server.Client, db, "Users/Held"));
            }

            await using (RunningServer restarted = await RunningServer.StartOnAsync(dataDir))
            {
                Assert.Equal("Disabled", await StatusOfAsync(restarted.Client, db, "Users/Held"));
                await StoreAsync(restarted.Client, db, "users/2", """{"Name":"Bob","@metadata":{"@collection":"Users"}}""");
                long etag = (await StatsAsync(restarted.Client, db)).LastDocEtag;
                await WaitForProcessedAsync(restarted.Client, db, "Users/Control", etag);
                Assert.Equal(0, (await IndexAsync(restarted.Client, db, "Users/Held")).GetProperty("ProcessedEtag").GetInt64());

                await PostAsync(restarted.Client, $"/databases/{db}/admin/indexes/enable?name=Users/Held");
                await WaitForProcessedAsync(restarted.Client, db, "Users/Held", etag);
                Assert.Equal(2, (await IndexAsync(restarted.Client, db, "Users/Held")).GetProperty("EntriesCount").GetInt64());
                Assert.Equal("Running", await StatusOfAsync(restarted.Client, db, "Users/Held"));
            }
        }
        finally
        {
            RunningServer.DeleteDirectory(dataDir);
        }
    }

    [Fact]
    public async Task StopIndex_PausesThatIndexAlone_StopIndexingPausesAll_UntilStarted()
    {
        await using RunningServer server = await RunningServer.StartAsync();
        string db = await CreateDatabaseAsync(server.Client);
        await PutIndexesAsync(server.Client, db, TwoIndexes);

        await PostAsync(server.Client, $"/databases/{db}/admin/indexes/stop?name=Users/Held");
        await StoreAsync(server.Client, db, "users/1", """{"Name":"Ann","@metadata":{"@collection":"Users"}}""");
        long etag = (await StatsAsync(server.Client, db)).LastDocEtag;
        await WaitForProcessedAsync(server.Client, db, "Users/Control", etag);
        Assert.Equal(0, (await IndexAsync(server.Client, db, "Users/Held")).GetProperty("ProcessedEtag").GetInt64());
        JsonElement status = await GetJsonAsync(server.Client, $"/databases/{db}/indexes/status");
        Assert.Equal("Running", status.GetProperty("Status").GetString());
        Assert.Equal("Paused", await StatusOfAsync(server.Client, db, "Users/Held"));

        await PostAsync(server.Client, $"/databases/{db}/admin/indexes/start?name=Users/Held");
        await WaitForProcessedAsync(server.Client, db, "Users/Held", etag);

        await PostAsync(server.Client, $"/databases/{db}/admin/indexes/stop");
        status = await GetJsonAsync(server.Client, $"/databases/{db}/indexes/status");
        Assert.Equal("Paused", status.GetProperty("Status").GetString());
        Assert.All(status.GetProperty("Indexes").EnumerateArray(), index => Assert.Equal("Paused", index.GetProperty("Status").GetString()));
        // Another database's indexing goes on: once its index took the same write, this one had the time to.
        string other = await CreateDatabaseAsync(server.Client);
        await PutIndexesAsync(server.Client, other, TwoIndexes);
        await StoreAsync(server.Client, db, "users/2", """{"Name":"Bob","@metadata":{"@collection":"Users"}}""");
        await StoreAsync(server.Client, other, "users/2", """{"Name":"Bob","@metadata":{"@collection":"Users"}}""");
        long later = (await StatsAsync(server.Client, db)).LastDocEtag;
        await WaitForProcessedAsync(server.Client, other, "Users/Control", (await StatsAsync(server.Client, other)).LastDocEtag);
        Assert.True((await IndexAsync(server.Client, db, "Users/Control")).GetProperty("ProcessedEtag").GetInt64() < later);
        Assert.True((await IndexAsync(server.Client, db, "Users/Held")).GetProperty("ProcessedEtag").GetInt64() < later);

        await PostAsync(server.Client, $"/databases/{db}/admin/indexes/start");
        await WaitForProcessedAsync(server.Client, db, "Users/Control", later);
        await WaitForProcessedAsync(server.Client, db, "Users/Held", later);
    }

    [Fact]
    public async Task LockModeAndPriority_SurviveRestart_AndLockedIndexesKeepTheirDefinition()
    {
        string dataDir = RunningServer.NewDataDir();
        try
        {
            string db;
            await using (RunningServer server = await RunningServer.StartOnAsync(dataDir))
            {
                db = await CreateDatabaseAsync(server.Client);
                await PutIndexesAsync(server.Client, db, TwoIndexes);
                await PostAsync(server.Client, $"/databases/{db}/indexes/set-lock", """{"IndexNames":["Users/Held"],"Mode":"LockedError"}""");
                await PostAsync(server.Client, $"/databases/{db}/indexes/set-lock", """{"IndexNames":["Users/Control"],"Mode":"LockedIgnore"}""");
                await PostAsync(server.Client, $"/databases/{db}/indexes/set-priority", """{"IndexNames":["Users/Held","Users/Control"],"Priority":"High"}""");
            }

            await using (RunningServer restarted = await RunningServer.StartOnAsync(dataDir))
            {
                JsonElement held = await DefinitionAsync(restarted.Client, db, "Users/Held");
                Assert.Equal("LockedError", held.GetProperty("LockMode").GetString());
                Assert.Equal("High", held.GetProperty("Priority").GetString());
                Assert.Equal("LockedIgnore", (await DefinitionAsync(restarted.Client, db, "Users/Control")).GetProperty("LockMode").GetString());

                const string Changed = """{"Indexes":[{"Name":"Users/Held","Collections":["Users"],"Fields":{"Age":{"Path":"Age"}}}]}""";
                using (HttpResponseMessage refused = await restarted.Client.PutAsync($"/databases/{db}/indexes", FolioApi.Json(Changed)))
                    await ProblemAssert.IsProblemAsync(refused, HttpStatusCode.BadRequest, "urn:folio:problem:invalid-index-definition");
                Assert.True(held.GetProperty("Fields").TryGetProperty("Name", out _));

                const string Ignored = """{"Indexes":[{"Name":"Users/Control","Collections":["Users"],"Fields":{"Age":{"Path":"Age"}}}]}""";
                using (HttpResponseMessage ignored = await restarted.Client.PutAsync($"/databases/{db}/indexes", FolioApi.Json(Ignored)))
                    Assert.Equal(HttpStatusCode.Created, ignored.StatusCode);
                JsonElement control = await DefinitionAsync(restarted.Client, db, "Users/Control");
                Assert.True(control.GetProperty("Fields").TryGetProperty("Name", out _));
                Assert.False(control.GetProperty("Fields").TryGetProperty("Age", out _));
            }
        }
        finally
        {
            RunningServer.DeleteDirectory(dataDir);
        }
    }

    [Fact]
    public async Task SetLockAndPriority_NameWithoutIndex_ChangesNothing()
    {
        await using RunningServer server = await RunningServer.StartAsync();
        string db = await CreateDatabaseAsync(server.Client);
        await PutIndexesAsync(server.Client, db, TwoIndexes);

        using (HttpResponseMessage missing = await server.Client.PostAsync($"/databases/{db}/indexes/set-lock", FolioApi.Json("""{"IndexNames":["Users/Held","Nope"],"Mode":"LockedError"}""")))
            await ProblemAssert.IsProblemAsync(missing, HttpStatusCode.NotFound, "urn:folio:problem:index-not-found");
        using (HttpResponseMessage bad = await server.Client.PostAsync($"/databases/{db}/indexes/set-priority", FolioApi.Json("""{"IndexNames":["Users/Held"],"Priority":"Urgent"}""")))
            await ProblemAssert.IsProblemAsync(bad, HttpStatusCode.BadRequest, "urn:folio:problem:invalid-parameter");

        JsonElement held = await DefinitionAsync(server.Client, db, "Users/Held");
        Assert.Equal("Unlock", held.GetProperty("LockMode").GetString());
        Assert.Equal("Normal", held.GetProperty("Priority").GetString());
    }

    private static async Task PutIndexesAsync(HttpClient client, string db, string json)
    {
        using HttpResponseMessage response = await client.PutAsync($"/databases/{db}/indexes", FolioApi.Json(json));
        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
    }

    private static async Task PostAsync(HttpClient client, string uri, string? json = null)
    {
        using HttpResponseMessage response = await client.PostAsync(uri, json is null ? null : FolioApi.Json(json));
        Assert.True(response.StatusCode == HttpStatusCode.NoContent, $"POST {uri} answered {(int)response.StatusCode}: {await response.Content.ReadAsStringAsync()}");
    }

    private static async Task<JsonElement> DefinitionAsync(HttpClient client, string db, string name) =>
        (await GetJsonAsync(client, $"/databases/{db}/indexes?name={Uri.EscapeDataString(name)}")).GetProperty("Results")[0];

    private static async Task<JsonElement> IndexAsync(HttpClient client, string db, string name)
    {
        JsonElement stats = await GetJsonAsync(client, $"/databases/{db}/indexes/stats");
        return stats.GetProperty("Results").EnumerateArray().Single(index => index.GetProperty("Name").GetString() == name);
    }

    private static async Task<string?> StatusOfAsync(HttpClient client, string db, string name)
    {
        JsonElement status = await GetJsonAsync(client, $"/databases/{db}/indexes/status");
        return status.GetProperty("Indexes").EnumerateArray().Single(index => index.GetProperty("Name").GetString() == name).GetProperty("Status").GetString();
    }

    private static async Task WaitForProcessedAsync(HttpClient client, string db, string name, long etag)
    {
        DateTime deadline = DateTime.UtcNow + TestTimeouts.Default;
        while ((await IndexAsync(client, db, name)).GetProperty("ProcessedEtag").GetInt64() < etag)
        {
            Assert.True(DateTime.UtcNow < deadline, $"Index {name} did not reach etag {etag}.");
            await Task.Delay(20);
        }
    }
}
