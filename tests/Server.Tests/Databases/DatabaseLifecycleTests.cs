using System.Net;
using System.Text.Json;
using Folio.Server.Http;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Databases;

public class DatabaseLifecycleTests : IClassFixture<ServerFixture>
{
    private readonly ServerFixture _fixture;
    private readonly HttpClient _client;

    public DatabaseLifecycleTests(ServerFixture fixture)
    {
        _fixture = fixture;
        _client = fixture.Client;
    }

    [Fact]
    public async Task Create_ListsDatabase_AndMakesItsDirectory()
    {
        string name = FolioApi.NewDatabaseName().ToUpperInvariant();

        using HttpResponseMessage created = await _client.PutAsync("/admin/databases", FolioApi.Json($$"""{"Name":"{{name}}"}"""));
        JsonElement list = await FolioApi.GetJsonAsync(_client, "/databases");

        Assert.Equal(HttpStatusCode.Created, created.StatusCode);
        Assert.Contains(list.GetProperty("Databases").EnumerateArray(), d => d.GetProperty("Name").GetString() == name);
        Assert.True(Directory.Exists(Path.Combine(_fixture.Running.DataDir, "Databases", name)));
    }

    [Fact]
    public async Task Create_Returns409_WhenNameExistsInAnyCasing()
    {
        string name = await FolioApi.CreateDatabaseAsync(_client);

        using HttpResponseMessage again = await _client.PutAsync("/admin/databases", FolioApi.Json($$"""{"Name":"{{name.ToUpperInvariant()}}"}"""));

        await ProblemAssert.IsProblemAsync(again, HttpStatusCode.Conflict, ProblemTypes.DatabaseExists);
    }

    [Fact]
    public async Task DatabaseNames_ResolveCaseInsensitively()
    {
        string name = await FolioApi.CreateDatabaseAsync(_client);
        await FolioApi.StoreAsync(_client, name.ToUpperInvariant(), "users/1", """{"Name":"Ann"}""");

        Assert.NotNull(await FolioApi.LoadAsync(_client, name, "users/1"));
    }

    [Fact]
    public async Task Delete_RemovesDatabaseAndDirectory_AndLaterRequestsGet404()
    {
        string name = await FolioApi.CreateDatabaseAsync(_client);
        await FolioApi.StoreAsync(_client, name, "users/1", "{}");
        string directory = Path.Combine(_fixture.Running.DataDir, "Databases", name);

        using HttpResponseMessage deleted = await _client.DeleteAsync($"/admin/databases?name={name.ToUpperInvariant()}");
        using HttpResponseMessage get = await _client.GetAsync(FolioApi.DocsUri(name, "users/1"));
        using HttpResponseMessage again = await _client.DeleteAsync($"/admin/databases?name={name}");

        Assert.Equal(HttpStatusCode.NoContent, deleted.StatusCode);
        Assert.False(Directory.Exists(directory));
        await ProblemAssert.IsProblemAsync(get, HttpStatusCode.NotFound, ProblemTypes.DatabaseNotFound);
        await ProblemAssert.IsProblemAsync(again, HttpStatusCode.NotFound, ProblemTypes.DatabaseNotFound);
    }

    [Fact]
    public async Task Delete_ThenCreateSameName_StartsEmpty()
    {
        string name = await FolioApi.CreateDatabaseAsync(_client);
        await FolioApi.StoreAsync(_client, name, "users/1", "{}");
        using HttpResponseMessage deleted = await _client.DeleteAsync($"/admin/databases?name={name}");

        await FolioApi.CreateDatabaseAsync(_client, name);

        Assert.Equal(0, (await FolioApi.StatsAsync(_client, name)).CountOfDocuments);
    }

    [Fact]
    public async Task Databases_AreIsolated()
    {
        string first = await FolioApi.CreateDatabaseAsync(_client);
        string second = await FolioApi.CreateDatabaseAsync(_client);

        await FolioApi.StoreAsync(_client, first, "users/1", """{"In":"first"}""");
        await FolioApi.StoreAsync(_client, second, "users/2", """{"In":"second"}""");

        Assert.Null(await FolioApi.LoadAsync(_client, second, "users/1"));
        Assert.Null(await FolioApi.LoadAsync(_client, first, "users/2"));
        Assert.Equal("first", (await FolioApi.LoadAsync(_client, first, "users/1"))!.Value.GetProperty("In").GetString());
        Assert.Equal(1, (await FolioApi.StatsAsync(_client, first)).CountOfDocuments);
        Assert.Equal(1, (await FolioApi.StatsAsync(_client, second)).CountOfDocuments);
        Assert.Equal(1, (await FolioApi.StatsAsync(_client, second)).LastDocEtag);
        JsonElement firstList = await FolioApi.GetJsonAsync(_client, $"/databases/{first}/docs");
        Assert.Single(firstList.GetProperty("Results").EnumerateArray());
    }

    [Fact]
    public async Task Delete_WaitsForWritesInFlight_AndNothingFailsWithA500()
    {
        string name = await FolioApi.CreateDatabaseAsync(_client);
        var writes = new List<Task<HttpResponseMessage>>();
        for (int i = 0; i < 32; i++)
            writes.Add(FolioApi.PutAsync(_client, name, $"users/{i}", """{"Busy":true}"""));

        using HttpResponseMessage deleted = await _client.DeleteAsync($"/admin/databases?name={name}");
        HttpResponseMessage[] answers = await Task.WhenAll(writes);

        Assert.Equal(HttpStatusCode.NoContent, deleted.StatusCode);
        foreach (HttpResponseMessage answer in answers)
        {
            // Each write either finished before the delete closed the store, or found no database.
            Assert.True(answer.StatusCode is HttpStatusCode.Created or HttpStatusCode.NotFound, $"A write answered {(int)answer.StatusCode}.");
            answer.Dispose();
        }

        Assert.False(Directory.Exists(Path.Combine(_fixture.Running.DataDir, "Databases", name)));
    }

    [Fact]
    public async Task ExistingDatabases_AreFoundOnDisk_WhenServerStarts()
    {
        await using (RunningServer first = await RunningServer.StartAsync())
        {
            string name = await FolioApi.CreateDatabaseAsync(first.Client);
            await FolioApi.StoreAsync(first.Client, name, "users/1", """{"Name":"Ann"}""");
            await first.StopAsync();

            await using RunningServer second = await RunningServer.StartOnAsync(first.DataDir);
            JsonElement list = await FolioApi.GetJsonAsync(second.Client, "/databases");

            Assert.Contains(list.GetProperty("Databases").EnumerateArray(), d => d.GetProperty("Name").GetString() == name);
            Assert.Equal("Ann", (await FolioApi.LoadAsync(second.Client, name, "users/1"))!.Value.GetProperty("Name").GetString());
        }
    }
}
