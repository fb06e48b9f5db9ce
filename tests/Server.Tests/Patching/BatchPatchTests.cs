using System.Net;
using System.Text.Json;
using Folio.Server.Tests.Support;
using static Folio.Server.Tests.Support.FolioApi;

namespace Folio.Server.Tests.Patching;

/// <summary><c>PATCH</c> commands inside <c>POST /databases/{db}/bulk_docs</c>, as the seeds' clients send them, on a real server.</summary>
public sealed class BatchPatchTests : IAsyncLifetime
{
    private RunningServer _server = null!;
    private string _db = "";

    private HttpClient Client => _server.Client;

    public async Task InitializeAsync()
    {
        _server = await RunningServer.StartAsync();
        _db = await CreateDatabaseAsync(Client);
    }

    public async Task DisposeAsync() => await _server.DisposeAsync();

    private async Task<(HttpStatusCode Status, JsonElement Body, string Text)> BatchAsync(params object[] commands)
    {
        using var response = await Client.PostAsync($"/databases/{_db}/bulk_docs", FolioApi.Json(JsonSerializer.Serialize(new { Commands = commands })));
        var text = await response.Content.ReadAsStringAsync();
        return (response.StatusCode, JsonDocument.Parse(text).RootElement.Clone(), text);
    }

    private static object Patch(string id, string script, object? values = null, object? ifMissing = null, object? create = null, string? changeVector = null, bool returnDocument = true) =>
        new { Id = id, ChangeVector = changeVector, Type = "PATCH", Patch = new { Script = script, Values = values }, PatchIfMissing = ifMissing, CreateIfMissing = create, ReturnDocument = returnDocument };

    [Fact]
    public async Task Batch_Patch_ChangesTheDocumentAndAnswersPatchStatus()
    {
        await StoreAsync(Client, _db, "users/1", """{"Name":"a","Count":1,"@metadata":{"@collection":"Users"}}""");

        var (status, body, text) = await BatchAsync(Patch("users/1", "this.Count += args.by; this.Name = 'b'", new { by = 4 }));

        Assert.True(status == HttpStatusCode.Created, text);
        var result = Assert.Single(body.GetProperty("Results").EnumerateArray());
        Assert.Equal("PATCH", result.GetProperty("Type").GetString());
        Assert.Equal("Patched", result.GetProperty("PatchStatus").GetString());
        Assert.Equal(5, result.GetProperty("ModifiedDocument").GetProperty("Count").GetInt32());
        var stored = (await LoadAsync(Client, _db, "users/1"))!.Value;
        Assert.Equal(5, stored.GetProperty("Count").GetInt32());
        Assert.Equal("b", stored.GetProperty("Name").GetString());
        Assert.Equal(result.GetProperty("ChangeVector").GetString(), stored.GetProperty("@metadata").GetProperty("@change-vector").GetString());
        Assert.True(result.TryGetProperty("LastModified", out _));
    }

    [Fact]
    public async Task Batch_Patch_SeesTheBatchsEarlierCommands()
    {
        var (status, body, text) = await BatchAsync(
            new { Type = "PUT", Id = "users/2", Document = new { Count = 10 } },
            Patch("users/2", "this.Count *= 2"),
            Patch("users/2", "this.Count += 1"));

        Assert.True(status == HttpStatusCode.Created, text);
        Assert.Equal(3, body.GetProperty("Results").GetArrayLength());
        Assert.Equal(21, (await LoadAsync(Client, _db, "users/2"))!.Value.GetProperty("Count").GetInt32());
    }

    [Fact]
    public async Task Batch_PatchOfMissingDocument_CreatesFromPatchIfMissingOrCreateIfMissingOrSaysItDoesNotExist()
    {
        var (status, body, text) = await BatchAsync(
            Patch("users/3", "this.Count++", ifMissing: new { Script = "this.Count = 100" }),
            Patch("users/4", "this.Count++", create: new Dictionary<string, object> { ["Count"] = 7, ["@metadata"] = new Dictionary<string, string> { ["@collection"] = "Users" } }),
            Patch("users/5", "this.Count++"));

        Assert.True(status == HttpStatusCode.Created, text);
        var results = body.GetProperty("Results").EnumerateArray().ToArray();
        Assert.Equal("Created", results[0].GetProperty("PatchStatus").GetString());
        Assert.Equal("Created", results[1].GetProperty("PatchStatus").GetString());
        Assert.Equal("DocumentDoesNotExist", results[2].GetProperty("PatchStatus").GetString());
        Assert.Equal(100, (await LoadAsync(Client, _db, "users/3"))!.Value.GetProperty("Count").GetInt32());
        var created = (await LoadAsync(Client, _db, "users/4"))!.Value;
        Assert.Equal(7, created.GetProperty("Count").GetInt32());
        Assert.Equal("Users", created.GetProperty("@metadata").GetProperty("@collection").GetString());
        Assert.Null(await LoadAsync(Client, _db, "users/5"));
    }

    [Fact]
    public async Task Batch_PatchWithStaleChangeVector_Answers409AndWritesNothing()
    {
        var (_, first) = await StoreAsync(Client, _db, "users/6", """{"Count":1}""");
        await StoreAsync(Client, _db, "users/6", """{"Count":2}""");

        var (status, _, text) = await BatchAsync(
            new { Type = "PUT", Id = "users/7", Document = new { Count = 1 } },
            Patch("users/6", "this.Count = 50", changeVector: first));

        Assert.True(status == HttpStatusCode.Conflict, text);
        Assert.Equal(2, (await LoadAsync(Client, _db, "users/6"))!.Value.GetProperty("Count").GetInt32());
        Assert.Null(await LoadAsync(Client, _db, "users/7"));
    }

    [Fact]
    public async Task Batch_PatchWithFailingScriptOrNoPatch_Answers400AndWritesNothing()
    {
        await StoreAsync(Client, _db, "users/8", """{"Count":1}""");

        var (thrown, _, thrownText) = await BatchAsync(
            new { Type = "PUT", Id = "users/9", Document = new { Count = 1 } },
            Patch("users/8", "throw new Error('no')"));
        var (missing, problem, missingText) = await BatchAsync(new { Type = "PATCH", Id = "users/8" });

        Assert.True(thrown == HttpStatusCode.BadRequest, thrownText);
        Assert.Null(await LoadAsync(Client, _db, "users/9"));
        Assert.True(missing == HttpStatusCode.BadRequest, missingText);
        Assert.Contains("Patch", problem.GetProperty("detail").GetString());
        Assert.Equal(1, (await LoadAsync(Client, _db, "users/8"))!.Value.GetProperty("Count").GetInt32());
    }

    [Fact]
    public async Task Batch_PatchThatChangesNothing_AnswersNotModifiedAndKeepsTheVersion()
    {
        var (_, changeVector) = await StoreAsync(Client, _db, "users/10", """{"Count":1}""");

        var (status, body, text) = await BatchAsync(Patch("users/10", "this.Count = 1"));

        Assert.True(status == HttpStatusCode.Created, text);
        var result = Assert.Single(body.GetProperty("Results").EnumerateArray());
        Assert.Equal("NotModified", result.GetProperty("PatchStatus").GetString());
        Assert.Equal(changeVector, result.GetProperty("ChangeVector").GetString());
        Assert.Equal(changeVector, (await LoadAsync(Client, _db, "users/10"))!.Value.GetProperty("@metadata").GetProperty("@change-vector").GetString());
    }
}
