using System.Net;
using System.Net.Http.Headers;
using System.Text;
using System.Text.Json;
using Folio.Server.Http;
using Folio.Server.Tests.Support;
using static Folio.Server.Tests.Support.FolioApi;

namespace Folio.Server.Tests.Patching;

/// <summary><c>PATCH /databases/{db}/docs?id=</c> with a script or a merge patch, on a real server and real storage.</summary>
public sealed class PatchDocumentTests : IAsyncLifetime
{
    private const string Order = """{"Company":"companies/1","Freight":3.5,"Tags":["a"],"Address":{"City":"Lyon","Zip":"69001"},"@metadata":{"@collection":"Orders"}}""";

    private RunningServer _server = null!;
    private string _db = "";

    private HttpClient Client => _server.Client;

    public async Task InitializeAsync()
    {
        _server = await RunningServer.StartAsync();
        _db = await CreateDatabaseAsync(Client);
    }

    public async Task DisposeAsync() => await _server.DisposeAsync();

    private async Task<(HttpStatusCode Status, JsonElement Body, string Text)> PatchAsync(string id, string body, string contentType = "application/json", string? ifMatch = null)
    {
        using var request = new HttpRequestMessage(HttpMethod.Patch, DocsUri(_db, id)) { Content = new StringContent(body, Encoding.UTF8) };
        request.Content.Headers.ContentType = new MediaTypeHeaderValue(contentType);
        if (ifMatch is not null)
            request.Headers.TryAddWithoutValidation("If-Match", ifMatch);
        using var response = await Client.SendAsync(request);
        var text = await response.Content.ReadAsStringAsync();
        var json = text.Length > 0 ? JsonDocument.Parse(text).RootElement.Clone() : default;
        return (response.StatusCode, json, text);
    }

    private static string Script(string script, object? values = null) => JsonSerializer.Serialize(new { Script = script, Values = values });

    private async Task<JsonElement> DocumentAsync(string id) => (await LoadAsync(Client, _db, id))!.Value;

    [Fact]
    public async Task Patch_Script_ChangesTheDocumentWithArgs()
    {
        var (_, before) = await StoreAsync(Client, _db, "orders/1", Order);
        var (status, body, text) = await PatchAsync("orders/1", Script("this.Freight = args.f; this.Tags.push('x'); this.Note = args.note + '!'", new { f = 10, note = "hi" }));

        Assert.True(status == HttpStatusCode.OK, text);
        Assert.Equal("orders/1", body.GetProperty("Id").GetString());
        Assert.NotEqual(before, body.GetProperty("ChangeVector").GetString());
        Assert.Equal(10, body.GetProperty("Document").GetProperty("Freight").GetInt32());
        var stored = await DocumentAsync("orders/1");
        Assert.Equal(10, stored.GetProperty("Freight").GetInt32());
        Assert.Equal(["a", "x"], stored.GetProperty("Tags").EnumerateArray().Select(t => t.GetString()!).ToArray());
        Assert.Equal("hi!", stored.GetProperty("Note").GetString());
        Assert.Equal("Orders", stored.GetProperty("@metadata").GetProperty("@collection").GetString());
        Assert.Equal(body.GetProperty("ChangeVector").GetString(), stored.GetProperty("@metadata").GetProperty("@change-vector").GetString());
    }

    [Fact]
    public async Task Patch_ScriptThatChangesNothing_AnswersNotModifiedAndWritesNothing()
    {
        var (_, before) = await StoreAsync(Client, _db, "orders/1", Order);
        var (status, body, text) = await PatchAsync("orders/1", Script("this.Freight = 3.5"));

        Assert.True(status == HttpStatusCode.OK, text);
        Assert.Equal("NotModified", body.GetProperty("Status").GetString());
        Assert.Equal(before, body.GetProperty("ChangeVector").GetString());
        Assert.Equal(before, (await DocumentAsync("orders/1")).GetProperty("@metadata").GetProperty("@change-vector").GetString());
    }

    [Fact]
    public async Task Patch_MergePatch_AppliesRfc7396()
    {
        await StoreAsync(Client, _db, "orders/1", Order);
        var (status, _, text) = await PatchAsync("orders/1", """{"Freight":7,"Tags":["z"],"Address":{"Zip":null,"Country":"France"},"Company":null,"New":{"A":1}}""", "application/merge-patch+json");

        Assert.True(status == HttpStatusCode.OK, text);
        var stored = await DocumentAsync("orders/1");
        Assert.Equal(7, stored.GetProperty("Freight").GetInt32());
        Assert.Equal("z", Assert.Single(stored.GetProperty("Tags").EnumerateArray()).GetString());
        Assert.Equal("Lyon", stored.GetProperty("Address").GetProperty("City").GetString());
        Assert.Equal("France", stored.GetProperty("Address").GetProperty("Country").GetString());
        Assert.False(stored.GetProperty("Address").TryGetProperty("Zip", out _));
        Assert.False(stored.TryGetProperty("Company", out _));
        Assert.Equal(1, stored.GetProperty("New").GetProperty("A").GetInt32());
        Assert.Equal("Orders", stored.GetProperty("@metadata").GetProperty("@collection").GetString());
    }

    [Fact]
    public async Task Patch_MissingDocument_Answers404()
    {
        var (status, body, _) = await PatchAsync("orders/404", Script("this.Freight = 1"));

        Assert.Equal(HttpStatusCode.NotFound, status);
        Assert.Equal(ProblemTypes.DocumentNotFound, body.GetProperty("type").GetString());
        Assert.Null(await LoadAsync(Client, _db, "orders/404"));
    }

    [Fact]
    public async Task Patch_SeedsClientsForm_PatchesAndAnswersTheModifiedDocument()
    {
        await StoreAsync(Client, _db, "orders/1", Order);

        var (status, body, text) = await PatchAsync("orders/1", """{"Patch":{"Script":"this.Freight = args.f","Values":{"f":12}},"PatchIfMissing":null}""");

        Assert.True(status == HttpStatusCode.OK, text);
        Assert.Equal("Patched", body.GetProperty("Status").GetString());
        Assert.Equal(12, body.GetProperty("ModifiedDocument").GetProperty("Freight").GetInt32());
        Assert.Equal(12, (await DocumentAsync("orders/1")).GetProperty("Freight").GetInt32());
    }

    [Fact]
    public async Task Patch_PatchIfMissing_CreatesTheDocument_OnlyWhenItIsMissing()
    {
        const string patch = """{"Patch":{"Script":"this.Count += 1"},"PatchIfMissing":{"Script":"this.Count = args.start; this['@metadata'] = { '@collection': 'Counters' }","Values":{"start":1}}}""";

        var (created, createdBody, createdText) = await PatchAsync("counters/1", patch);
        var (patched, patchedBody, patchedText) = await PatchAsync("counters/1", patch);

        Assert.True(created == HttpStatusCode.OK, createdText);
        Assert.Equal("Created", createdBody.GetProperty("Status").GetString());
        Assert.True(patched == HttpStatusCode.OK, patchedText);
        Assert.Equal("Patched", patchedBody.GetProperty("Status").GetString());
        var stored = await DocumentAsync("counters/1");
        Assert.Equal(2, stored.GetProperty("Count").GetInt32());
        Assert.Equal("Counters", stored.GetProperty("@metadata").GetProperty("@collection").GetString());
    }

    [Fact]
    public async Task Patch_StaleChangeVector_Answers409AndChangesNothing()
    {
        var (_, first) = await StoreAsync(Client, _db, "orders/1", Order);
        var (_, second) = await StoreAsync(Client, _db, "orders/1", Order.Replace("3.5", "4.5"));

        var header = await PatchAsync("orders/1", Script("this.Freight = 0"), ifMatch: $"\"{first}\"");
        var inBody = await PatchAsync("orders/1", JsonSerializer.Serialize(new { Script = "this.Freight = 0", ChangeVector = first }));
        var merge = await PatchAsync("orders/1", """{"Freight":0}""", "application/merge-patch+json", ifMatch: $"\"{first}\"");

        Assert.Equal(HttpStatusCode.Conflict, header.Status);
        Assert.Equal(HttpStatusCode.Conflict, inBody.Status);
        Assert.Equal(HttpStatusCode.Conflict, merge.Status);
        Assert.Equal(ProblemTypes.ConcurrencyConflict, header.Body.GetProperty("type").GetString());
        var stored = await DocumentAsync("orders/1");
        Assert.Equal(4.5, stored.GetProperty("Freight").GetDouble());
        Assert.Equal(second, stored.GetProperty("@metadata").GetProperty("@change-vector").GetString());

        var current = await PatchAsync("orders/1", JsonSerializer.Serialize(new { Script = "this.Freight = 0", IfMatch = second }));
        Assert.Equal(HttpStatusCode.OK, current.Status);
    }

    [Theory]
    [InlineData("this.Freight = ;", ProblemTypes.ScriptError, "line 1, column")]
    [InlineData("this.Freight = 1;\nthis.Missing.push(1);", ProblemTypes.ScriptError, "line 2, column")]
    [InlineData("while (true) {}", ProblemTypes.ScriptLimitExceeded, "limit")]
    [InlineData("function f(n) { return f(n + 1); } f(0);", ProblemTypes.ScriptLimitExceeded, "deeper")]
    [InlineData("var a = []; for (var i = 0; i < 100000000; i++) a.push('xxxxxxxxxxxxxxxxxxxx' + i);", ProblemTypes.ScriptLimitExceeded, "limit")]
    public async Task Patch_BadOrHostileScript_Answers400AndChangesNothing(string script, string type, string detailPart)
    {
        var (_, before) = await StoreAsync(Client, _db, "orders/1", Order);

        var (status, body, text) = await PatchAsync("orders/1", Script(script));

        Assert.True(status == HttpStatusCode.BadRequest, text);
        Assert.Equal(type, body.GetProperty("type").GetString());
        Assert.Contains(detailPart, body.GetProperty("detail").GetString(), StringComparison.OrdinalIgnoreCase);
        var stored = await DocumentAsync("orders/1");
        Assert.Equal(before, stored.GetProperty("@metadata").GetProperty("@change-vector").GetString());
        Assert.Equal(3.5, stored.GetProperty("Freight").GetDouble());
        await AssertServingAsync(Client);
    }

    [Theory]
    [InlineData("""{"Values":{}}""", "application/json")]
    [InlineData("""{"Script":42}""", "application/json")]
    [InlineData("""{"Script":"this.A = 1","Values":[1]}""", "application/json")]
    [InlineData("""[1,2]""", "application/merge-patch+json")]
    [InlineData("""{"Freight":""", "application/merge-patch+json")]
    public async Task Patch_MalformedBody_Answers400(string body, string contentType)
    {
        await StoreAsync(Client, _db, "orders/1", Order);

        var (status, _, text) = await PatchAsync("orders/1", body, contentType);

        Assert.True(status == HttpStatusCode.BadRequest, text);
        Assert.Equal(3.5, (await DocumentAsync("orders/1")).GetProperty("Freight").GetDouble());
    }

    [Fact]
    public async Task Patch_ConcurrentIncrements_LoseNoUpdate()
    {
        await StoreAsync(Client, _db, "counters/1", """{"Count":0}""");

        var patches = Enumerable.Range(0, 40).Select(_ => PatchAsync("counters/1", Script("this.Count += 1")));
        var results = await Task.WhenAll(patches);

        Assert.All(results, r => Assert.Equal(HttpStatusCode.OK, r.Status));
        Assert.Equal(40, (await DocumentAsync("counters/1")).GetProperty("Count").GetInt32());
    }

    [Fact]
    public async Task Patch_LimitsFromConfiguration_StopAShorterLoop()
    {
        await using var server = await RunningServer.StartAsync("--Scripting:MaxStatements=1000");
        var db = await CreateDatabaseAsync(server.Client);
        await StoreAsync(server.Client, db, "orders/1", Order);
        using var request = new HttpRequestMessage(HttpMethod.Patch, DocsUri(db, "orders/1")) { Content = FolioApi.Json(Script("for (var i = 0; i < 5000; i++) { this.Freight = i; }")) };

        using var response = await server.Client.SendAsync(request);

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Contains("1000 statements", await response.Content.ReadAsStringAsync(), StringComparison.Ordinal);
    }
}
