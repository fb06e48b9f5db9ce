using System.Net;
using System.Text.Json;
using Folio.Server.Tests.Support;
using static Folio.Server.Tests.Support.FolioApi;

namespace Folio.Server.Tests.Databases;

/// <summary>A database's lock mode keeps it from deletion (refused or silently left), and is kept across restarts.</summary>
public sealed class DatabaseLockTests
{
    [Fact]
    public async Task LockMode_KeepsDatabaseFromDeletion_AcrossRestart()
    {
        string dataDir = RunningServer.NewDataDir();
        try
        {
            string db;
            await using (RunningServer server = await RunningServer.StartOnAsync(dataDir))
            {
                db = await CreateDatabaseAsync(server.Client);
                await SetLockAsync(server.Client, db, "PreventDeletesError");
                await StoreAsync(server.Client, db, "users/1", """{"Name":"Ann"}""");
            }

            await using (RunningServer restarted = await RunningServer.StartOnAsync(dataDir))
            {
                JsonElement record = await GetJsonAsync(restarted.Client, $"/admin/databases?name={db}");
                Assert.Equal("PreventDeletesError", record.GetProperty("LockMode").GetString());

                using (HttpResponseMessage refused = await restarted.Client.DeleteAsync($"/admin/databases?name={db}"))
                {
                    JsonElement problem = await ProblemAssert.IsProblemAsync(refused, HttpStatusCode.Conflict, "urn:folio:problem:database-locked");
                    Assert.Contains("cannot be deleted because of the set lock mode", problem.GetProperty("detail").GetString());
                }
                Assert.NotNull(await LoadAsync(restarted.Client, db, "users/1"));

                await SetLockAsync(restarted.Client, db, "PreventDeletesIgnore");
                using (var request = new HttpRequestMessage(HttpMethod.Delete, "/admin/databases") { Content = FolioApi.Json($$"""{"DatabaseNames":["{{db}}"],"HardDelete":true}""") })
                using (HttpResponseMessage ignored = await restarted.Client.SendAsync(request))
                {
                    Assert.Equal(HttpStatusCode.OK, ignored.StatusCode);
                    using JsonDocument answer = JsonDocument.Parse(await ignored.Content.ReadAsStringAsync());
                    Assert.Equal(-1, answer.RootElement.GetProperty("RaftCommandIndex").GetInt64());
                }
                Assert.NotNull(await LoadAsync(restarted.Client, db, "users/1"));

                await SetLockAsync(restarted.Client, db, "Unlock");
                using (HttpResponseMessage deleted = await restarted.Client.DeleteAsync($"/admin/databases?name={db}"))
                    Assert.Equal(HttpStatusCode.NoContent, deleted.StatusCode);
            }
        }
        finally
        {
            RunningServer.DeleteDirectory(dataDir);
        }
    }

    [Fact]
    public async Task SetLock_NameWithoutDatabase_ChangesNothing()
    {
        await using RunningServer server = await RunningServer.StartAsync();
        string db = await CreateDatabaseAsync(server.Client);

        using (HttpResponseMessage missing = await server.Client.PostAsync("/admin/databases/set-lock", FolioApi.Json($$"""{"DatabaseNames":["{{db}}","no-such-db"],"Mode":"PreventDeletesError"}""")))
            await ProblemAssert.IsProblemAsync(missing, HttpStatusCode.NotFound, "urn:folio:problem:database-not-found");

        JsonElement record = await GetJsonAsync(server.Client, $"/admin/databases?name={db}");
        Assert.Equal("Unlock", record.GetProperty("LockMode").GetString());
    }

    private static async Task SetLockAsync(HttpClient client, string db, string mode)
    {
        using HttpResponseMessage response = await client.PostAsync("/admin/databases/set-lock", FolioApi.Json($$"""{"DatabaseNames":["{{db}}"],"Mode":"{{mode}}"}"""));
        Assert.Equal(HttpStatusCode.NoContent, response.StatusCode);
    }
}
