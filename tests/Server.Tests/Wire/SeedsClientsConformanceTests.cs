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

    [Fact]
    [Exercises("POST /databases/{db}/streams/queries", "GET /databases/{db}/streams/docs")]
    public async Task Streams_AnswerJsonAndJsonLines_WithStatisticsAndFilters()
    {
        const string Queries = "/databases/{db}/streams/queries";
        const string Docs = "/databases/{db}/streams/docs";
        string db = await FolioApi.CreateDatabaseAsync(Server.Client);
        foreach (string id in new[] { "users/1", "users/2", "users/10", "orders/1" })
            await FolioApi.StoreAsync(Server.Client, db, id, JsonSerializer.Serialize(new Dictionary<string, object> { ["Name"] = id, ["@metadata"] = new Dictionary<string, string> { ["@collection"] = id.StartsWith("users", StringComparison.Ordinal) ? "Users" : "Orders" } }));
        // The stream does not wait for indexing; a query that does makes the auto index current first.
        const string Query = """{"Query":"from Users where Name != $n","QueryParameters":{"n":"users/2"}}""";
        Assert.Equal(200, (await Wire.SendAsync(HttpMethod.Post, "/databases/{db}/queries", $"/databases/{db}/queries",
            """{"Query":"from Users where Name != $n","QueryParameters":{"n":"users/2"},"WaitForNonStaleResults":true}""")).Status);

        WireAnswer lines = await Wire.SendAsync(HttpMethod.Post, Queries, $"/databases/{db}/streams/queries?format=jsonl", Query);
        Assert.Equal(200, lines.Status);
        JsonElement stats = lines.Body[0].GetProperty("Stats");
        Assert.Equal(2, stats.GetProperty("TotalResults").GetInt64());
        Assert.StartsWith("Auto/Users", stats.GetProperty("IndexName").GetString(), StringComparison.Ordinal);
        Assert.Equal(["users/1", "users/10"], lines.Body.EnumerateArray().Skip(1).Select(l => l.GetProperty("Item").GetProperty("Name").GetString()).Order(StringComparer.Ordinal));

        WireAnswer json = await Wire.SendAsync(HttpMethod.Post, Queries, $"/databases/{db}/streams/queries?format=json", Query);
        Assert.Equal(2, json.Body.GetProperty("Results").GetArrayLength());
        Assert.Equal(2, json.Body.GetProperty("TotalResults").GetInt64());
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, Queries, $"/databases/{db}/streams/queries?format=xml", Query)).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, Queries, $"/databases/{db}/streams/queries", """{"Query":"from Users where"}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, Queries, $"/databases/{db}/streams/queries", """{"Query":"from Users","QueryParameters":[1]}""")).Status);
        Assert.Equal(404, (await Wire.SendAsync(HttpMethod.Post, Queries, "/databases/no-such-db/streams/queries", Query)).Status);

        WireAnswer prefixed = await Wire.GetAsync(Docs, $"/databases/{db}/streams/docs?format=jsonl&startsWith=users/");
        Assert.Equal(3, prefixed.Body.GetArrayLength());
        WireAnswer matched = await Wire.GetAsync(Docs, $"/databases/{db}/streams/docs?format=json&startsWith=users/&matches=1*&exclude=10");
        Assert.Equal("users/1", Assert.Single(matched.Body.GetProperty("Results").EnumerateArray()).GetProperty("Name").GetString());
        WireAnswer paged = await Wire.GetAsync(Docs, $"/databases/{db}/streams/docs?startsWith=users/&start=1&pageSize=1");
        Assert.Single(paged.Body.GetProperty("Results").EnumerateArray());
        WireAnswer all = await Wire.GetAsync(Docs, $"/databases/{db}/streams/docs?format=json&startAfter=orders/1");
        Assert.Equal(3, all.Body.GetProperty("Results").GetArrayLength());
        Assert.Equal(400, (await Wire.GetAsync(Docs, $"/databases/{db}/streams/docs?format=csv")).Status);
        Assert.Equal(400, (await Wire.GetAsync(Docs, $"/databases/{db}/streams/docs?pageSize=-1")).Status);
        Assert.Equal(404, (await Wire.GetAsync(Docs, "/databases/no-such-db/streams/docs")).Status);

        AssertExercised();
    }

    [Fact]
    [Exercises("GET /databases", "GET /databases/{db}/indexes")]
    public async Task NamesOnlyListings_AnswerNames_AndRefuseBadFlags()
    {
        string db = await FolioApi.CreateDatabaseAsync(Server.Client);
        Assert.Equal(201, (await Wire.SendAsync(HttpMethod.Put, "/databases/{db}/admin/indexes", $"/databases/{db}/admin/indexes",
            """{"Indexes":[{"Name":"B","Maps":["map('Users', u => ({ name: u.name }))"]},{"Name":"A","Maps":["map('Users', u => ({ age: u.age }))"]}]}""")).Status);

        WireAnswer databases = await Wire.GetAsync("/databases", "/databases?start=0&pageSize=2147483647&namesOnly=true");
        Assert.Contains(db, databases.Body.GetProperty("Databases").EnumerateArray().Select(d => d.GetString()));
        Assert.Equal(400, (await Wire.GetAsync("/databases", "/databases?namesOnly=maybe")).Status);

        WireAnswer names = await Wire.GetAsync("/databases/{db}/indexes", $"/databases/{db}/indexes?start=0&pageSize=1&namesOnly=true");
        Assert.Single(names.Body.GetProperty("Results").EnumerateArray());
        WireAnswer both = await Wire.GetAsync("/databases/{db}/indexes", $"/databases/{db}/indexes?namesOnly=true");
        Assert.Equal(2, both.Body.GetProperty("Results").GetArrayLength());
        Assert.Equal(400, (await Wire.GetAsync("/databases/{db}/indexes", $"/databases/{db}/indexes?namesOnly=1")).Status);

        AssertExercised();
    }

    [Fact]
    [Exercises("PUT /databases/{db}/admin/indexes")]
    public async Task SeedsMapReduce_IsTranslated_AndAnswersGroupCounts()
    {
        string db = await FolioApi.CreateDatabaseAsync(Server.Client);
        foreach ((string id, string name) in new[] { ("users/1", "John"), ("users/2", "John"), ("users/3", "Tarzan") })
            await FolioApi.StoreAsync(Server.Client, db, id, JsonSerializer.Serialize(new Dictionary<string, object> { ["name"] = name, ["@metadata"] = new Dictionary<string, string> { ["@collection"] = "Users" } }));
        string index = JsonSerializer.Serialize(new
        {
            Indexes = new[]
            {
                new
                {
                    Name = "UsersByName",
                    Maps = new[] { "map('Users', function (c) {\n return {\n name: c.name,\n count: 1\n }\n})" },
                    Reduce = "groupBy(x => x.name).aggregate(g => {\n return {\n name: g.key,\n count: g.values.reduce((a, b) => a + b.count, 0)\n }\n })",
                },
            },
        });
        Assert.Equal(201, (await Wire.SendAsync(HttpMethod.Put, "/databases/{db}/admin/indexes", $"/databases/{db}/admin/indexes", index)).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Put, "/databases/{db}/admin/indexes", $"/databases/{db}/admin/indexes",
            """{"Indexes":[{"Name":"Avg","Maps":["map('Users', u => ({ name: u.name, age: u.age }))"],"Reduce":"groupBy(x => x.name).aggregate(g => ({ name: g.key, age: g.values.reduce((a, b) => a + b.age, 0) / g.values.length }))"}]}""")).Status);

        // Sent past the contract check: a map/reduce row has no @metadata, which the document's Projection requires.
        using HttpResponseMessage answer = await Server.Client.PostAsync($"/databases/{db}/queries",
            FolioApi.Json("""{"Query":"from index 'UsersByName' where name = $n","QueryParameters":{"n":"John"},"WaitForNonStaleResults":true}"""));
        Assert.Equal(System.Net.HttpStatusCode.OK, answer.StatusCode);
        using JsonDocument john = JsonDocument.Parse(await answer.Content.ReadAsStringAsync());
        JsonElement row = Assert.Single(john.RootElement.GetProperty("Results").EnumerateArray());
        Assert.Equal(2, row.GetProperty("count").GetInt64());

        AssertExercised();
    }

    [Fact]
    [Exercises("POST /databases/{db}/bulk_docs")]
    public async Task BulkDocsPut_WithoutAnId_StoresUnderANewGuid()
    {
        const string Path = "/databases/{db}/bulk_docs";
        string db = await FolioApi.CreateDatabaseAsync(Server.Client);
        WireAnswer stored = await Wire.SendAsync(HttpMethod.Post, Path, $"/databases/{db}/bulk_docs",
            """{"Commands":[{"Type":"PUT","Id":null,"Document":{"Name":"a","@metadata":{"@collection":"@empty"}}},{"Type":"PUT","Id":"","Document":{"Name":"b"}}]}""");
        Assert.Equal(201, stored.Status);
        string[] ids = stored.Body.GetProperty("Results").EnumerateArray().Select(r => r.GetProperty("@id").GetString()!).ToArray();
        Assert.All(ids, id => Assert.True(Guid.TryParse(id, out _), id));
        Assert.NotEqual(ids[0], ids[1]);
        Assert.Equal("a", (await FolioApi.LoadAsync(Server.Client, db, ids[0]))?.GetProperty("Name").GetString());

        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, Path, $"/databases/{db}/bulk_docs", """{"Commands":[{"Type":"DELETE","Id":null}]}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, Path, $"/databases/{db}/bulk_docs", """{"Commands":[{"Type":"PUT","Id":5,"Document":{}}]}""")).Status);
        Assert.Equal(2, (await FolioApi.StatsAsync(Server.Client, db)).CountOfDocuments);

        AssertExercised();
    }

    [Fact]
    [Exercises("POST /databases/{db}/queries")]
    public async Task InWithAnArrayParameter_MatchesEachItem_AsTheClientsSendIt()
    {
        const string Path = "/databases/{db}/queries";
        string db = await FolioApi.CreateDatabaseAsync(Server.Client);
        foreach ((string id, string name, string tag) in new[] { ("users/1", "Ann", "a"), ("users/2", "Bob", "b"), ("users/3", "Cid", "c") })
            await FolioApi.StoreAsync(Server.Client, db, id, JsonSerializer.Serialize(new Dictionary<string, object> { ["Name"] = name, ["Tags"] = new[] { tag, "x" }, ["@metadata"] = new Dictionary<string, string> { ["@collection"] = "Users" } }));
        string uri = $"/databases/{db}/queries";

        WireAnswer named = await Wire.SendAsync(HttpMethod.Post, Path, uri, """{"Query":"from Users where Name in ($p0) order by Name","QueryParameters":{"p0":["Ann","Cid"]},"WaitForNonStaleResults":true}""");
        Assert.Equal(["Ann", "Cid"], named.Body.GetProperty("Results").EnumerateArray().Select(r => r.GetProperty("Name").GetString()));
        WireAnswer byId = await Wire.SendAsync(HttpMethod.Post, Path, uri, """{"Query":"from Users where id() in ($ids)","QueryParameters":{"ids":["users/2","users/3"]}}""");
        Assert.Equal(2, byId.Body.GetProperty("Results").GetArrayLength());
        WireAnswer every = await Wire.SendAsync(HttpMethod.Post, Path, uri, """{"Query":"from Users where Tags all in ($t)","QueryParameters":{"t":["b","x"]},"WaitForNonStaleResults":true}""");
        Assert.Equal("Bob", Assert.Single(every.Body.GetProperty("Results").EnumerateArray()).GetProperty("Name").GetString());

        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, Path, uri, """{"Query":"from Users where Name in ($p0)","QueryParameters":{"p0":[["Ann"]]}}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, Path, uri, """{"Query":"from Users where Name = $p0","QueryParameters":{"p0":["Ann"]}}""")).Status);

        AssertExercised();
    }

    [Fact]
    [Exercises("GET /info/tcp", "GET /databases/{db}/info/tcp", "GET /info/remote-task/tcp")]
    public async Task TcpInfoRoutes_AnswerAsDocumented_ForGoodAndBadInput()
    {
        const string DatabaseTcp = "/databases/{db}/info/tcp";
        const string RemoteTask = "/info/remote-task/tcp";
        string db = await FolioApi.CreateDatabaseAsync(Server.Client);
        string expected = $"tcp://127.0.0.1:{Server.Server.TcpEndPoint.Port}";

        WireAnswer info = await Wire.GetAsync("/info/tcp", "/info/tcp?tcp=test");
        Assert.Equal(200, info.Status);
        Assert.Equal(expected, info.Body.GetProperty("Url").GetString());
        Assert.Equal(expected, (await Wire.GetAsync(DatabaseTcp, $"/databases/{db}/info/tcp?tcp=test")).Body.GetProperty("Url").GetString());
        Assert.Equal(404, (await Wire.GetAsync(DatabaseTcp, "/databases/no-such-db/info/tcp")).Status);
        Assert.Equal(400, (await Wire.GetAsync(DatabaseTcp, "/databases/a..b/info/tcp")).Status);

        Assert.Equal(expected, (await Wire.GetAsync(RemoteTask, $"/info/remote-task/tcp?database={db}&remote-task=orders&tag=Subscription/{db}&verify-database=true")).Body.GetProperty("Url").GetString());
        Assert.Equal(404, (await Wire.GetAsync(RemoteTask, "/info/remote-task/tcp?database=no-such-db&remote-task=orders&verify-database=true")).Status);
        Assert.Equal(400, (await Wire.GetAsync(RemoteTask, $"/info/remote-task/tcp?database={db}")).Status);
        Assert.Equal(400, (await Wire.GetAsync(RemoteTask, "/info/remote-task/tcp?remote-task=orders")).Status);

        AssertExercised();
    }

    [Fact]
    [Exercises("GET /databases/{db}/task", "POST /databases/{db}/admin/tasks/state")]
    public async Task SubscriptionTaskRoutes_AnswerAsDocumented_ForGoodAndBadInput()
    {
        const string Task = "/databases/{db}/task";
        const string TaskState = "/databases/{db}/admin/tasks/state";
        string db = await FolioApi.CreateDatabaseAsync(Server.Client);
        using (HttpResponseMessage created = await Server.Client.PutAsync($"/databases/{db}/subscriptions", new StringContent("""{"Name":"orders","Query":"from Orders"}""")))
            Assert.Equal(System.Net.HttpStatusCode.Created, created.StatusCode);

        WireAnswer task = await Wire.GetAsync(Task, $"/databases/{db}/task?taskName=orders&type=Subscription");
        Assert.Equal(200, task.Status);
        Assert.False(task.Body.GetProperty("Disabled").GetBoolean());
        long key = task.Body.GetProperty("TaskId").GetInt64();
        Assert.Equal(404, (await Wire.GetAsync(Task, $"/databases/{db}/task?taskName=nobody&type=Subscription")).Status);
        Assert.Equal(400, (await Wire.GetAsync(Task, $"/databases/{db}/task?taskName=orders&type=Backup")).Status);
        Assert.Equal(400, (await Wire.GetAsync(Task, $"/databases/{db}/task?key=x&type=Subscription")).Status);

        Assert.Equal(200, (await Wire.SendAsync(HttpMethod.Post, TaskState, $"/databases/{db}/admin/tasks/state?key={key}&type=Subscription&disable=true")).Status);
        Assert.True((await Wire.GetAsync(Task, $"/databases/{db}/task?key={key}&type=Subscription")).Body.GetProperty("Disabled").GetBoolean());
        Assert.Equal(200, (await Wire.SendAsync(HttpMethod.Post, TaskState, $"/databases/{db}/admin/tasks/state?key=0&taskName=orders&type=Subscription&disable=false")).Status);
        Assert.Equal("Enabled", (await Wire.GetAsync(Task, $"/databases/{db}/task?taskName=orders&type=Subscription")).Body.GetProperty("TaskState").GetString());
        Assert.Equal(404, (await Wire.SendAsync(HttpMethod.Post, TaskState, $"/databases/{db}/admin/tasks/state?key=999&type=Subscription&disable=true")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, TaskState, $"/databases/{db}/admin/tasks/state?key={key}&type=Subscription&disable=maybe")).Status);

        AssertExercised();
    }
}
