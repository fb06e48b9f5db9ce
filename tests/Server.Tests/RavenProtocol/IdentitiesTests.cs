using System.Net;
using System.Text.Json;
using Folio.Server.Tests.Support;
using static Folio.Server.Tests.Support.FolioApi;

namespace Folio.Server.Tests.RavenProtocol;

/// <summary>
/// Identities as the seeds' system's clients use them: kept in the database's storage, so they survive a restart, shared
/// with the ids documents stored as <c>prefix|</c> get, and never handing one value to two concurrent callers.
/// </summary>
public sealed class IdentitiesTests
{
    [Fact]
    public async Task NextAndSeed_SurviveRestart_AndServerMadeIdsFollowThem()
    {
        string dataDir = RunningServer.NewDataDir();
        try
        {
            string db;
            await using (RunningServer server = await RunningServer.StartOnAsync(dataDir))
            {
                db = await CreateDatabaseAsync(server.Client);
                Assert.Equal(1, await NextAsync(server.Client, db, "users"));
                (string id, _) = await StoreAsync(server.Client, db, "users|", """{"Name":"Ann"}""");
                Assert.Equal("users/2", id);
                Assert.Equal(10, await SeedAsync(server.Client, db, "users", 10, force: false));
                Assert.Equal(10, await SeedAsync(server.Client, db, "Users|", 5, force: false));
            }

            await using (RunningServer restarted = await RunningServer.StartOnAsync(dataDir))
            {
                JsonElement identities = await GetJsonAsync(restarted.Client, $"/databases/{db}/debug/identities");
                Assert.Equal(10, identities.GetProperty("users|").GetInt64());
                (string id, _) = await StoreAsync(restarted.Client, db, "users|", """{"Name":"Bob"}""");
                Assert.Equal("users/11", id);

                // Forced back below ids in use: the next server-made id skips those taken.
                Assert.Equal(1, await SeedAsync(restarted.Client, db, "users", 1, force: true));
                (string next, _) = await StoreAsync(restarted.Client, db, "users|", """{"Name":"Cy"}""");
                Assert.Equal("users/3", next);
            }
        }
        finally
        {
            RunningServer.DeleteDirectory(dataDir);
        }
    }

    [Fact]
    public async Task Next_ConcurrentCallers_EachGetTheirOwnValue()
    {
        await using RunningServer server = await RunningServer.StartAsync();
        string db = await CreateDatabaseAsync(server.Client);

        long[] values = await Task.WhenAll(Enumerable.Range(0, 40).Select(_ => NextAsync(server.Client, db, "orders")));

        Assert.Equal(Enumerable.Range(1, 40).Select(v => (long)v), values.Order());
        JsonElement identities = await GetJsonAsync(server.Client, $"/databases/{db}/debug/identities");
        Assert.Equal(40, identities.GetProperty("orders|").GetInt64());
    }

    [Theory]
    [InlineData("identity/next")]
    [InlineData("identity/next?name=")]
    [InlineData("identity/next?name=%7C")]
    [InlineData("identity/seed?name=users")]
    [InlineData("identity/seed?name=users&value=-1")]
    [InlineData("identity/seed?name=users&value=ten")]
    [InlineData("identity/seed?name=users&value=3&force=maybe")]
    public async Task IdentityRoutes_BadInput_AnswerProblemAndChangeNothing(string query)
    {
        await using RunningServer server = await RunningServer.StartAsync();
        string db = await CreateDatabaseAsync(server.Client);

        using HttpResponseMessage response = await server.Client.PostAsync($"/databases/{db}/{query}", null);

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
        JsonElement identities = await GetJsonAsync(server.Client, $"/databases/{db}/debug/identities");
        Assert.Empty(identities.EnumerateObject());
    }

    private static async Task<long> NextAsync(HttpClient client, string db, string name)
    {
        using HttpResponseMessage response = await client.PostAsync($"/databases/{db}/identity/next?name={Uri.EscapeDataString(name)}", null);
        response.EnsureSuccessStatusCode();
        using JsonDocument body = JsonDocument.Parse(await response.Content.ReadAsStringAsync());
        return body.RootElement.GetProperty("NewIdentityValue").GetInt64();
    }

    private static async Task<long> SeedAsync(HttpClient client, string db, string name, long value, bool force)
    {
        string uri = $"/databases/{db}/identity/seed?name={Uri.EscapeDataString(name)}&value={value}" + (force ? "&force=true" : "");
        using HttpResponseMessage response = await client.PostAsync(uri, null);
        response.EnsureSuccessStatusCode();
        using JsonDocument body = JsonDocument.Parse(await response.Content.ReadAsStringAsync());
        return body.RootElement.GetProperty("NewSeedValue").GetInt64();
    }
}
