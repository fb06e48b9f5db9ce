using System.Text.Json;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Wire;

/// <summary>The routes the seeds' system's clients use answer as the wire contract says, for good and bad input.</summary>
public sealed class SeedsClientsConformanceTests(WireFixture fixture) : WireTests(fixture)
{
    [Fact]
    [Exercises("GET /topology", "GET /cluster/topology", "GET /cluster/node-info", "GET /build/version", "GET /databases/{db}/operations/next-operation-id")]
    public async Task TopologyRoutes_AnswerAsDocumented_ForGoodAndBadInput()
    {
        string db = await FolioApi.CreateDatabaseAsync(Server.Client);

        WireAnswer topology = await Wire.GetAsync("/topology", $"/topology?name={db}&applicationIdentifier=x");
        Assert.Equal(200, topology.Status);
        Assert.Equal(db, topology.Body.GetProperty("Nodes")[0].GetProperty("Database").GetString());
        Assert.Equal(404, (await Wire.GetAsync("/topology", "/topology?name=no-such-db")).Status);
        Assert.Equal(400, (await Wire.GetAsync("/topology", "/topology")).Status);
        Assert.Equal(400, (await Wire.GetAsync("/topology", "/topology?name=a..b")).Status);

        Assert.Equal(200, (await Wire.GetAsync("/cluster/topology", "/cluster/topology")).Status);
        Assert.Equal(200, (await Wire.GetAsync("/cluster/node-info", "/cluster/node-info")).Status);
        Assert.Equal(200, (await Wire.GetAsync("/build/version", "/build/version")).Status);

        const string NextId = "/databases/{db}/operations/next-operation-id";
        long first = (await Wire.GetAsync(NextId, $"/databases/{db}/operations/next-operation-id")).Body.GetProperty("Id").GetInt64();
        long second = (await Wire.GetAsync(NextId, $"/databases/{db}/operations/next-operation-id")).Body.GetProperty("Id").GetInt64();
        Assert.True(second > first);
        Assert.Equal(404, (await Wire.GetAsync(NextId, "/databases/no-such-db/operations/next-operation-id")).Status);
        Assert.Equal(400, (await Wire.GetAsync(NextId, "/databases/a..b/operations/next-operation-id")).Status);

        AssertExercised();
    }

    [Fact]
    [Exercises("GET /databases/{db}/hilo/next", "PUT /databases/{db}/hilo/return")]
    public async Task HiLoRoutes_AnswerAsDocumented_ForGoodAndBadInput()
    {
        const string Next = "/databases/{db}/hilo/next";
        const string Return = "/databases/{db}/hilo/return";
        string db = await FolioApi.CreateDatabaseAsync(Server.Client);

        WireAnswer range = await Wire.GetAsync(Next, $"/databases/{db}/hilo/next?tag=users&lastBatchSize=0&lastRangeAt=&identityPartsSeparator=/&lastMax=0");
        Assert.Equal(200, range.Status);
        Assert.Equal("users/", range.Body.GetProperty("Prefix").GetString());
        Assert.Equal(1, range.Body.GetProperty("Low").GetInt64());
        Assert.Equal(32, range.Body.GetProperty("High").GetInt64());
        Assert.Equal(400, (await Wire.GetAsync(Next, $"/databases/{db}/hilo/next")).Status);
        Assert.Equal(400, (await Wire.GetAsync(Next, $"/databases/{db}/hilo/next?tag=users&lastBatchSize=lots")).Status);
        Assert.Equal(400, (await Wire.GetAsync(Next, $"/databases/{db}/hilo/next?tag=users&lastRangeAt=yesterday")).Status);
        Assert.Equal(400, (await Wire.GetAsync(Next, $"/databases/{db}/hilo/next?tag=users&identityPartsSeparator=ab")).Status);
        Assert.Equal(404, (await Wire.GetAsync(Next, "/databases/no-such-db/hilo/next?tag=users")).Status);

        Assert.Equal(204, (await Wire.SendAsync(HttpMethod.Put, Return, $"/databases/{db}/hilo/return?tag=users&end=32&last=5")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Put, Return, $"/databases/{db}/hilo/return?tag=users&end=5&last=32")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Put, Return, $"/databases/{db}/hilo/return?tag=users&end=x&last=1")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Put, Return, $"/databases/{db}/hilo/return?end=3&last=1")).Status);
        Assert.Equal(404, (await Wire.SendAsync(HttpMethod.Put, Return, "/databases/no-such-db/hilo/return?tag=users&end=3&last=1")).Status);

        AssertExercised();
    }

    [Fact]
    [Exercises("PUT /databases/{db}/admin/indexes")]
    public async Task SeedsIndexes_AnswerAsDocumented_ForGoodAndBadInput()
    {
        const string Path = "/databases/{db}/admin/indexes";
        string db = await FolioApi.CreateDatabaseAsync(Server.Client);
        string uri = $"/databases/{db}/admin/indexes";

        WireAnswer created = await Wire.SendAsync(HttpMethod.Put, Path, uri,
            """{"Indexes":[{"Name":"Users/ByName","Maps":["from u in docs.Users select new { u.Name, City = u.Address.City }"],"Reduce":null,"Fields":{"Name":{"Indexing":"Search","Storage":"Yes"}},"Priority":"Normal","LockMode":"Unlock","Configuration":{}}]}""");
        Assert.Equal(201, created.Status);
        Assert.Equal("Users/ByName", created.Body.GetProperty("Results")[0].GetProperty("Index").GetString());

        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Put, Path, uri, """{"Indexes":[{"Name":"Bad","Maps":["from u in docs.Users where u.Age > 3 select new { u.Name }"]}]}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Put, Path, uri, """{"Indexes":[{"Name":"NoMaps"}]}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Put, Path, uri, """{"Indexes":[]}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Put, Path, uri, """{"Indexes":""")).Status);
        Assert.Equal(404, (await Wire.SendAsync(HttpMethod.Put, Path, "/databases/no-such-db/admin/indexes", """{"Indexes":[{"Name":"X","Maps":["docs.Users.Select(u => new { u.Name })"]}]}""")).Status);

        AssertExercised();
    }

    [Fact]
    [Exercises("PUT /admin/databases", "DELETE /admin/databases", "POST /databases/{db}/bulk_insert")]
    public async Task DatabaseRecordAndOperationIds_AnswerAsDocumented_ForGoodAndBadInput()
    {
        const string Databases = "/admin/databases";
        string first = FolioApi.NewDatabaseName();
        string second = FolioApi.NewDatabaseName();
        WireAnswer created = await Wire.SendAsync(HttpMethod.Put, Databases, $"{Databases}?name={first}&replicationFactor=1",
            $$"""{"DatabaseName":"{{first}}","Settings":{"Indexing.Static.SearchEngineType":"Lucene"},"Disabled":false,"Encrypted":false}""");
        Assert.Equal(201, created.Status);
        Assert.Equal("A", created.Body.GetProperty("NodesAddedTo")[0].GetString());
        Assert.Equal(201, (await Wire.SendAsync(HttpMethod.Put, Databases, Databases, $$"""{"DatabaseName":"{{second}}"}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Put, Databases, Databases, """{"DatabaseName":7}""")).Status);

        WireAnswer inserted = await Wire.SendAsync(HttpMethod.Post, "/databases/{db}/bulk_insert", $"/databases/{first}/bulk_insert?id=7&skipOverwriteIfUnchanged=false",
            """[{"Id":"users/1","Type":"PUT","Document":{"Name":"Ann","@metadata":{"@collection":"Users"}}}]""");
        Assert.Equal(204, inserted.Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, "/databases/{db}/bulk_insert", $"/databases/{first}/bulk_insert?id=seven", "[]")).Status);

        Assert.Equal(404, (await Wire.SendAsync(HttpMethod.Delete, Databases, Databases, $$"""{"DatabaseNames":["{{first}}","no-such-db"],"HardDelete":true}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Delete, Databases, Databases, """{"DatabaseNames":[]}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Delete, Databases, Databases, """{"DatabaseNames":["a..b"]}""")).Status);
        WireAnswer deleted = await Wire.SendAsync(HttpMethod.Delete, Databases, Databases, $$"""{"DatabaseNames":["{{first}}","{{second}}"],"HardDelete":true}""");
        Assert.Equal(200, deleted.Status);
        Assert.Equal(0, deleted.Body.GetProperty("PendingDeletes").GetArrayLength());

        AssertExercised();
    }

    [Fact]
    [Exercises("GET /admin/databases", "POST /databases/{db}/multi_get")]
    public async Task RecordAndMultiGet_AnswerAsDocumented_ForGoodAndBadInput()
    {
        const string MultiGet = "/databases/{db}/multi_get";
        string db = await FolioApi.CreateDatabaseAsync(Server.Client);
        await FolioApi.StoreAsync(Server.Client, db, "users/1", """{"Name":"Ann","@metadata":{"@collection":"Users"}}""");

        WireAnswer record = await Wire.GetAsync("/admin/databases", $"/admin/databases?name={db}");
        Assert.Equal(200, record.Status);
        Assert.Equal(db, record.Body.GetProperty("DatabaseName").GetString());
        Assert.Equal(404, (await Wire.GetAsync("/admin/databases", "/admin/databases?name=no-such-db")).Status);
        Assert.Equal(400, (await Wire.GetAsync("/admin/databases", "/admin/databases")).Status);

        string uri = $"/databases/{db}/multi_get";
        WireAnswer answer = await Wire.SendAsync(HttpMethod.Post, MultiGet, uri, $$$"""
            {"Requests":[
              {"Url":"/databases/{{{db}}}/docs","Query":"?&id=users/1","Method":"GET","Headers":{}},
              {"Url":"/databases/{{{db}}}/docs","Query":"?&id=users/404","Method":"GET","Headers":{}},
              {"Url":"/databases/{{{db}}}/queries","Query":"?queryHash=1","Method":"POST","Headers":{},"Content":{"Query":"from 'Users' where Name = 'Ann'"}}]}
            """);
        Assert.Equal(200, answer.Status);
        JsonElement results = answer.Body.GetProperty("Results");
        Assert.Equal("Ann", results[0].GetProperty("Result").GetProperty("Results")[0].GetProperty("Name").GetString());
        Assert.Equal(404, results[1].GetProperty("StatusCode").GetInt32());
        Assert.Equal(JsonValueKind.Null, results[1].GetProperty("Result").GetProperty("Results")[0].ValueKind);
        Assert.Equal(1, results[2].GetProperty("Result").GetProperty("TotalResults").GetInt32());

        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, MultiGet, uri, $$$"""{"Requests":[{"Url":"/databases/{{{db}}}/bulk_docs","Method":"POST","Content":{"Commands":[]}}]}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, MultiGet, uri, """{"Requests":[{"Url":"/admin/databases","Query":"?name=x","Method":"GET"}]}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, MultiGet, uri, """{"Requests":[{"Query":"?id=x"}]}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, MultiGet, uri, """{"Requests":""")).Status);
        Assert.Equal(404, (await Wire.SendAsync(HttpMethod.Post, MultiGet, "/databases/no-such-db/multi_get", """{"Requests":[]}""")).Status);
        Assert.Equal(1, (await FolioApi.StatsAsync(Server.Client, db)).CountOfDocuments);

        AssertExercised();
    }
}
