using System.Text.Json;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Wire;

/// <summary>The identity and index administration routes the seeds' system's clients use answer as the wire contract says, for good and bad input.</summary>
public sealed class SeedsAdminConformanceTests(WireFixture fixture) : WireTests(fixture)
{
    private const string Index = """{"Indexes":[{"Name":"Users/ByName","Collections":["Users"],"Fields":{"Name":{"Path":"Name"}}}]}""";

    [Fact]
    [Exercises("POST /databases/{db}/identity/next", "POST /databases/{db}/identity/seed", "GET /databases/{db}/debug/identities")]
    public async Task IdentityRoutes_AnswerAsDocumented_ForGoodAndBadInput()
    {
        const string Next = "/databases/{db}/identity/next";
        const string Seed = "/databases/{db}/identity/seed";
        const string List = "/databases/{db}/debug/identities";
        string db = await FolioApi.CreateDatabaseAsync(Server.Client);

        WireAnswer next = await Wire.SendAsync(HttpMethod.Post, Next, $"/databases/{db}/identity/next?name=users");
        Assert.Equal(1, next.Body.GetProperty("NewIdentityValue").GetInt64());
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, Next, $"/databases/{db}/identity/next")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, Next, $"/databases/{db}/identity/next?name=%7C")).Status);
        Assert.Equal(404, (await Wire.SendAsync(HttpMethod.Post, Next, "/databases/no-such-db/identity/next?name=users")).Status);

        WireAnswer seeded = await Wire.SendAsync(HttpMethod.Post, Seed, $"/databases/{db}/identity/seed?name=users&value=7");
        Assert.Equal(7, seeded.Body.GetProperty("NewSeedValue").GetInt64());
        Assert.Equal(7, (await Wire.SendAsync(HttpMethod.Post, Seed, $"/databases/{db}/identity/seed?name=users&value=3")).Body.GetProperty("NewSeedValue").GetInt64());
        Assert.Equal(3, (await Wire.SendAsync(HttpMethod.Post, Seed, $"/databases/{db}/identity/seed?name=users&value=3&force=true")).Body.GetProperty("NewSeedValue").GetInt64());
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, Seed, $"/databases/{db}/identity/seed?name=users&value=-3")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, Seed, $"/databases/{db}/identity/seed?name=users&value=3&force=yes")).Status);
        Assert.Equal(404, (await Wire.SendAsync(HttpMethod.Post, Seed, "/databases/no-such-db/identity/seed?name=users&value=3")).Status);

        WireAnswer listed = await Wire.GetAsync(List, $"/databases/{db}/debug/identities");
        Assert.Equal(3, listed.Body.GetProperty("users|").GetInt64());
        Assert.Equal(400, (await Wire.GetAsync(List, "/databases/a..b/debug/identities")).Status);
        Assert.Equal(404, (await Wire.GetAsync(List, "/databases/no-such-db/debug/identities")).Status);

        AssertExercised();
    }

    [Fact]
    [Exercises("GET /databases/{db}/cmpxchg", "PUT /databases/{db}/cmpxchg", "DELETE /databases/{db}/cmpxchg")]
    public async Task CompareExchangeRoutes_AnswerAsDocumented_ForGoodAndBadInput()
    {
        const string Route = "/databases/{db}/cmpxchg";
        string db = await FolioApi.CreateDatabaseAsync(Server.Client);

        WireAnswer created = await Wire.SendAsync(HttpMethod.Put, Route, $"/databases/{db}/cmpxchg?key=emails%2Fann&index=0", """{"Object":"users/1","@metadata":{"Note":"n"}}""");
        long index = created.Body.GetProperty("Index").GetInt64();
        Assert.True(created.Body.GetProperty("Successful").GetBoolean());
        Assert.False((await Wire.SendAsync(HttpMethod.Put, Route, $"/databases/{db}/cmpxchg?key=emails%2Fann&index=0", """{"Object":"users/2"}""")).Body.GetProperty("Successful").GetBoolean());
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Put, Route, $"/databases/{db}/cmpxchg?key=k&index=x", """{"Object":1}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Put, Route, $"/databases/{db}/cmpxchg?key=k&index=0", "[]")).Status);
        Assert.Equal(404, (await Wire.SendAsync(HttpMethod.Put, Route, "/databases/no-such-db/cmpxchg?key=k&index=0", """{"Object":1}""")).Status);

        Assert.Equal(index, (await Wire.GetAsync(Route, $"/databases/{db}/cmpxchg?key=emails%2Fann")).Body.GetProperty("Results")[0].GetProperty("Index").GetInt64());
        Assert.Equal(-1, (await Wire.GetAsync(Route, $"/databases/{db}/cmpxchg?key=emails%2Fann&key=nobody")).Body.GetProperty("Results")[1].GetProperty("Index").GetInt64());
        Assert.Single((await Wire.GetAsync(Route, $"/databases/{db}/cmpxchg?startsWith=emails&pageSize=10")).Body.GetProperty("Results").EnumerateArray());
        Assert.Equal(404, (await Wire.GetAsync(Route, $"/databases/{db}/cmpxchg?key=nobody")).Status);
        Assert.Equal(400, (await Wire.GetAsync(Route, $"/databases/{db}/cmpxchg?start=x")).Status);

        Assert.False((await Wire.SendAsync(HttpMethod.Delete, Route, $"/databases/{db}/cmpxchg?key=emails%2Fann&index={index + 5}")).Body.GetProperty("Successful").GetBoolean());
        Assert.True((await Wire.SendAsync(HttpMethod.Delete, Route, $"/databases/{db}/cmpxchg?key=emails%2Fann&index={index}")).Body.GetProperty("Successful").GetBoolean());
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Delete, Route, $"/databases/{db}/cmpxchg?key=emails%2Fann")).Status);

        AssertExercised();
    }

    [Fact]
    [Exercises("GET /databases/{db}/indexes/status", "POST /databases/{db}/admin/indexes/stop", "POST /databases/{db}/admin/indexes/start",
        "POST /databases/{db}/admin/indexes/disable", "POST /databases/{db}/admin/indexes/enable")]
    public async Task IndexingStatusRoutes_AnswerAsDocumented_ForGoodAndBadInput()
    {
        const string Status = "/databases/{db}/indexes/status";
        const string Stop = "/databases/{db}/admin/indexes/stop";
        const string Start = "/databases/{db}/admin/indexes/start";
        const string Disable = "/databases/{db}/admin/indexes/disable";
        const string Enable = "/databases/{db}/admin/indexes/enable";
        string db = await FolioApi.CreateDatabaseAsync(Server.Client);
        using (HttpResponseMessage put = await Server.Client.PutAsync($"/databases/{db}/indexes", FolioApi.Json(Index)))
            put.EnsureSuccessStatusCode();

        Assert.Equal(204, (await Wire.SendAsync(HttpMethod.Post, Stop, $"/databases/{db}/admin/indexes/stop")).Status);
        WireAnswer status = await Wire.GetAsync(Status, $"/databases/{db}/indexes/status");
        Assert.Equal("Paused", status.Body.GetProperty("Status").GetString());
        Assert.Equal(204, (await Wire.SendAsync(HttpMethod.Post, Start, $"/databases/{db}/admin/indexes/start")).Status);
        Assert.Equal(204, (await Wire.SendAsync(HttpMethod.Post, Stop, $"/databases/{db}/admin/indexes/stop?name=Users/ByName")).Status);
        Assert.Equal(204, (await Wire.SendAsync(HttpMethod.Post, Start, $"/databases/{db}/admin/indexes/start?name=Users/ByName")).Status);
        Assert.Equal(404, (await Wire.SendAsync(HttpMethod.Post, Stop, $"/databases/{db}/admin/indexes/stop?name=Nope")).Status);
        Assert.Equal(404, (await Wire.SendAsync(HttpMethod.Post, Start, $"/databases/{db}/admin/indexes/start?name=Nope")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, Stop, "/databases/a..b/admin/indexes/stop")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, Start, "/databases/a..b/admin/indexes/start")).Status);
        Assert.Equal(400, (await Wire.GetAsync(Status, "/databases/a..b/indexes/status")).Status);
        Assert.Equal(404, (await Wire.GetAsync(Status, "/databases/no-such-db/indexes/status")).Status);

        Assert.Equal(204, (await Wire.SendAsync(HttpMethod.Post, Disable, $"/databases/{db}/admin/indexes/disable?name=Users/ByName&clusterWide=false")).Status);
        status = await Wire.GetAsync(Status, $"/databases/{db}/indexes/status");
        Assert.Equal("Disabled", status.Body.GetProperty("Indexes")[0].GetProperty("Status").GetString());
        Assert.Equal(204, (await Wire.SendAsync(HttpMethod.Post, Enable, $"/databases/{db}/admin/indexes/enable?name=Users/ByName")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, Disable, $"/databases/{db}/admin/indexes/disable")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, Enable, $"/databases/{db}/admin/indexes/enable")).Status);
        Assert.Equal(404, (await Wire.SendAsync(HttpMethod.Post, Disable, $"/databases/{db}/admin/indexes/disable?name=Nope")).Status);
        Assert.Equal(404, (await Wire.SendAsync(HttpMethod.Post, Enable, $"/databases/{db}/admin/indexes/enable?name=Nope")).Status);

        AssertExercised();
    }

    [Fact]
    [Exercises("POST /databases/{db}/indexes/set-lock", "POST /databases/{db}/indexes/set-priority", "GET /databases/{db}/indexes/errors",
        "DELETE /databases/{db}/indexes/errors", "POST /databases/{db}/indexes/has-changed")]
    public async Task IndexSettingsAndErrorsRoutes_AnswerAsDocumented_ForGoodAndBadInput()
    {
        const string SetLock = "/databases/{db}/indexes/set-lock";
        const string SetPriority = "/databases/{db}/indexes/set-priority";
        const string Errors = "/databases/{db}/indexes/errors";
        const string HasChanged = "/databases/{db}/indexes/has-changed";
        string db = await FolioApi.CreateDatabaseAsync(Server.Client);
        using (HttpResponseMessage put = await Server.Client.PutAsync($"/databases/{db}/admin/indexes",
            FolioApi.Json("""{"Indexes":[{"Name":"Users/ByName","Maps":["from u in docs.Users select new { u.Name }"]}]}""")))
            put.EnsureSuccessStatusCode();

        Assert.Equal(204, (await Wire.SendAsync(HttpMethod.Post, SetLock, $"/databases/{db}/indexes/set-lock", """{"IndexNames":["Users/ByName"],"Mode":"LockedIgnore"}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, SetLock, $"/databases/{db}/indexes/set-lock", """{"IndexNames":["Users/ByName"],"Mode":"Locked"}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, SetLock, $"/databases/{db}/indexes/set-lock", """{"IndexNames":[],"Mode":"Unlock"}""")).Status);
        Assert.Equal(404, (await Wire.SendAsync(HttpMethod.Post, SetLock, $"/databases/{db}/indexes/set-lock", """{"IndexNames":["Nope"],"Mode":"Unlock"}""")).Status);
        Assert.Equal(204, (await Wire.SendAsync(HttpMethod.Post, SetPriority, $"/databases/{db}/indexes/set-priority", """{"IndexNames":["Users/ByName"],"Priority":"Low"}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, SetPriority, $"/databases/{db}/indexes/set-priority", """{"IndexNames":["Users/ByName"],"Priority":"2"}""")).Status);
        Assert.Equal(404, (await Wire.SendAsync(HttpMethod.Post, SetPriority, $"/databases/{db}/indexes/set-priority", """{"IndexNames":["Nope"],"Priority":"Low"}""")).Status);

        WireAnswer errors = await Wire.GetAsync(Errors, $"/databases/{db}/indexes/errors");
        Assert.Equal("Users/ByName", errors.Body.GetProperty("Results")[0].GetProperty("Name").GetString());
        Assert.Equal(0, errors.Body.GetProperty("Results")[0].GetProperty("Errors").GetArrayLength());
        Assert.Equal(200, (await Wire.GetAsync(Errors, $"/databases/{db}/indexes/errors?name=Users/ByName")).Status);
        Assert.Equal(404, (await Wire.GetAsync(Errors, $"/databases/{db}/indexes/errors?name=Nope")).Status);
        Assert.Equal(400, (await Wire.GetAsync(Errors, "/databases/a..b/indexes/errors")).Status);
        Assert.Equal(204, (await Wire.SendAsync(HttpMethod.Delete, Errors, $"/databases/{db}/indexes/errors?name=Users/ByName")).Status);
        Assert.Equal(204, (await Wire.SendAsync(HttpMethod.Delete, Errors, $"/databases/{db}/indexes/errors")).Status);
        Assert.Equal(404, (await Wire.SendAsync(HttpMethod.Delete, Errors, $"/databases/{db}/indexes/errors?name=Users/ByName&name=Nope")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Delete, Errors, "/databases/a..b/indexes/errors")).Status);

        WireAnswer same = await Wire.SendAsync(HttpMethod.Post, HasChanged, $"/databases/{db}/indexes/has-changed", """{"Name":"Users/ByName","Maps":["from u in docs.Users select new { u.Name }"]}""");
        Assert.False(same.Body.GetProperty("Changed").GetBoolean());
        WireAnswer changed = await Wire.SendAsync(HttpMethod.Post, HasChanged, $"/databases/{db}/indexes/has-changed", """{"Name":"Users/ByName","Maps":["from u in docs.Users select new { u.Age }"]}""");
        Assert.True(changed.Body.GetProperty("Changed").GetBoolean());
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, HasChanged, $"/databases/{db}/indexes/has-changed", """{"Name":"X"}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, HasChanged, $"/databases/{db}/indexes/has-changed", """{"Name":""")).Status);

        AssertExercised();
    }
    [Fact]
    [Exercises("POST /databases/{db}/docs")]
    public async Task LoadByIdsInBody_AnswersAsDocumented_ForGoodAndBadInput()
    {
        const string Docs = "/databases/{db}/docs";
        string db = await FolioApi.CreateDatabaseAsync(Server.Client);
        await FolioApi.StoreAsync(Server.Client, db, "users/1", """{"Name":"Ann","Friend":"users/2"}""");
        await FolioApi.StoreAsync(Server.Client, db, "users/2", """{"Name":"Bob"}""");
        string ids = string.Join(",", Enumerable.Range(0, 1500).Select(i => $"\"users/{i}\""));

        WireAnswer loaded = await Wire.SendAsync(HttpMethod.Post, Docs, $"/databases/{db}/docs?include=Friend", $$"""{"Ids":[{{ids}}]}""");
        Assert.Equal(200, loaded.Status);
        JsonElement results = loaded.Body.GetProperty("Results");
        Assert.Equal(1500, results.GetArrayLength());
        Assert.Equal(JsonValueKind.Null, results[0].ValueKind);
        Assert.Equal("Ann", results[1].GetProperty("Name").GetString());
        Assert.Equal("Bob", loaded.Body.GetProperty("Includes").GetProperty("users/2").GetProperty("Name").GetString());

        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, Docs, $"/databases/{db}/docs", """{"Ids":[]}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, Docs, $"/databases/{db}/docs", """{"Ids":[7]}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, Docs, $"/databases/{db}/docs", """{"Ids":[""]}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, Docs, $"/databases/{db}/docs", """{"Ids":""")).Status);
        Assert.Equal(404, (await Wire.SendAsync(HttpMethod.Post, Docs, "/databases/no-such-db/docs", """{"Ids":["users/1","users/2"]}""")).Status);

        AssertExercised();
    }
    [Fact]
    [Exercises("POST /admin/databases/set-lock")]
    public async Task SetDatabasesLock_AnswersAsDocumented_ForGoodAndBadInput()
    {
        const string SetLock = "/admin/databases/set-lock";
        string db = await FolioApi.CreateDatabaseAsync(Server.Client);

        Assert.Equal(204, (await Wire.SendAsync(HttpMethod.Post, SetLock, SetLock, $$"""{"DatabaseNames":["{{db}}"],"Mode":"PreventDeletesIgnore"}""")).Status);
        Assert.Equal("PreventDeletesIgnore", (await Wire.GetAsync("/admin/databases", $"/admin/databases?name={db}")).Body.GetProperty("LockMode").GetString());
        Assert.Equal(204, (await Wire.SendAsync(HttpMethod.Post, SetLock, SetLock, $$"""{"DatabaseNames":["{{db}}"],"Mode":"Unlock"}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, SetLock, SetLock, $$"""{"DatabaseNames":["{{db}}"],"Mode":"Locked"}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, SetLock, SetLock, """{"DatabaseNames":[],"Mode":"Unlock"}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, SetLock, SetLock, """{"DatabaseNames":["a..b"],"Mode":"Unlock"}""")).Status);
        Assert.Equal(404, (await Wire.SendAsync(HttpMethod.Post, SetLock, SetLock, """{"DatabaseNames":["no-such-db"],"Mode":"Unlock"}""")).Status);

        AssertExercised();
    }
}
