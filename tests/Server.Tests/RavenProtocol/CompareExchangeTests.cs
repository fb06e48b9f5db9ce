using System.Net;
using System.Text.Json;
using Folio.Server.Tests.Support;
using static Folio.Server.Tests.Support.FolioApi;

namespace Folio.Server.Tests.RavenProtocol;

/// <summary>
/// Compare exchange as the seeds' system's clients use it: <c>/cmpxchg</c> entries with an index per write, kept in the
/// database's storage; cluster-wide <c>bulk_docs</c> batches with compare-exchange commands and atomic guards, all or
/// nothing; and <c>cmpxchg()</c> in RQL.
/// </summary>
public sealed class CompareExchangeTests
{
    private static string Uri(string db, string key, long index) => $"/databases/{db}/cmpxchg?key={System.Uri.EscapeDataString(key)}&index={index}";

    private static async Task<JsonElement> SendAsync(HttpClient client, HttpMethod method, string uri, string? body = null, HttpStatusCode expected = HttpStatusCode.OK)
    {
        using var request = new HttpRequestMessage(method, uri) { Content = body is null ? null : FolioApi.Json(body) };
        using HttpResponseMessage response = await client.SendAsync(request);
        string text = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == expected, $"{method} {uri} answered {(int)response.StatusCode}, expected {(int)expected}: {text}");
        return JsonDocument.Parse(text).RootElement.Clone();
    }

    [Fact]
    public async Task PutGetDelete_FollowTheIndex_AndSurviveRestart()
    {
        string dataDir = RunningServer.NewDataDir();
        try
        {
            string db;
            long index;
            await using (RunningServer server = await RunningServer.StartOnAsync(dataDir))
            {
                db = await CreateDatabaseAsync(server.Client);
                JsonElement created = await SendAsync(server.Client, HttpMethod.Put, Uri(db, "emails/ann", 0), """{"Object":"users/1"}""");
                Assert.True(created.GetProperty("Successful").GetBoolean());
                index = created.GetProperty("Index").GetInt64();

                JsonElement refused = await SendAsync(server.Client, HttpMethod.Put, Uri(db, "Emails/Ann", 0), """{"Object":"users/2"}""");
                Assert.False(refused.GetProperty("Successful").GetBoolean());
                Assert.Equal(index, refused.GetProperty("Index").GetInt64());
                Assert.Equal("users/1", refused.GetProperty("Value").GetProperty("Object").GetString());

                JsonElement replaced = await SendAsync(server.Client, HttpMethod.Put, Uri(db, "emails/ann", index), """{"Object":"users/3","@metadata":{"Note":"moved"}}""");
                Assert.True(replaced.GetProperty("Successful").GetBoolean());
                Assert.True(replaced.GetProperty("Index").GetInt64() > index);
                index = replaced.GetProperty("Index").GetInt64();
                await SendAsync(server.Client, HttpMethod.Put, Uri(db, "emails/bo", 0), """{"Object":"users/4"}""");
            }

            await using (RunningServer restarted = await RunningServer.StartOnAsync(dataDir))
            {
                JsonElement one = await GetJsonAsync(restarted.Client, $"/databases/{db}/cmpxchg?key=emails%2Fann");
                JsonElement entry = one.GetProperty("Results")[0];
                Assert.Equal(index, entry.GetProperty("Index").GetInt64());
                Assert.Equal("users/3", entry.GetProperty("Value").GetProperty("Object").GetString());
                Assert.Equal("moved", entry.GetProperty("Value").GetProperty("@metadata").GetProperty("Note").GetString());

                JsonElement several = await GetJsonAsync(restarted.Client, $"/databases/{db}/cmpxchg?key=emails%2Fbo&key=emails%2Fnobody");
                Assert.Equal("users/4", several.GetProperty("Results")[0].GetProperty("Value").GetProperty("Object").GetString());
                Assert.Equal(-1, several.GetProperty("Results")[1].GetProperty("Index").GetInt64());
                Assert.Equal(JsonValueKind.Null, several.GetProperty("Results")[1].GetProperty("Value").ValueKind);

                JsonElement listed = await GetJsonAsync(restarted.Client, $"/databases/{db}/cmpxchg?startsWith=emails%2F&start=1&pageSize=5");
                Assert.Equal("emails/bo", Assert.Single(listed.GetProperty("Results").EnumerateArray()).GetProperty("Key").GetString());

                JsonElement stale = await SendAsync(restarted.Client, HttpMethod.Delete, Uri(db, "emails/ann", index - 1));
                Assert.False(stale.GetProperty("Successful").GetBoolean());
                JsonElement deleted = await SendAsync(restarted.Client, HttpMethod.Delete, Uri(db, "emails/ann", index));
                Assert.True(deleted.GetProperty("Successful").GetBoolean());
                await GetJsonAsync(restarted.Client, $"/databases/{db}/cmpxchg?key=emails%2Fann", HttpStatusCode.NotFound);
            }
        }
        finally
        {
            RunningServer.DeleteDirectory(dataDir);
        }
    }

    [Theory]
    [InlineData("PUT", "cmpxchg?index=0", """{"Object":1}""")]
    [InlineData("PUT", "cmpxchg?key=&index=0", """{"Object":1}""")]
    [InlineData("PUT", "cmpxchg?key=k", """{"Object":1}""")]
    [InlineData("PUT", "cmpxchg?key=k&index=-1", """{"Object":1}""")]
    [InlineData("PUT", "cmpxchg?key=k&index=one", """{"Object":1}""")]
    [InlineData("PUT", "cmpxchg?key=k&index=0", """{"Object":""")]
    [InlineData("PUT", "cmpxchg?key=k&index=0", """[1]""")]
    [InlineData("PUT", "cmpxchg?key=k&index=0", """{"Object":1} {}""")]
    [InlineData("PUT", "cmpxchg?key=a%01b&index=0", """{"Object":1}""")]
    [InlineData("DELETE", "cmpxchg?key=k", null)]
    [InlineData("GET", "cmpxchg?key=", null)]
    [InlineData("GET", "cmpxchg?startsWith=k&pageSize=-1", null)]
    public async Task Routes_BadInput_AnswerProblemAndChangeNothing(string method, string query, string? body)
    {
        await using RunningServer server = await RunningServer.StartAsync();
        string db = await CreateDatabaseAsync(server.Client);
        await SendAsync(server.Client, HttpMethod.Put, Uri(db, "k", 0), """{"Object":"kept"}""");

        using var request = new HttpRequestMessage(new HttpMethod(method), $"/databases/{db}/{query}") { Content = body is null ? null : FolioApi.Json(body) };
        using HttpResponseMessage response = await server.Client.SendAsync(request);

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
        JsonElement all = await GetJsonAsync(server.Client, $"/databases/{db}/cmpxchg?startsWith=");
        JsonElement only = Assert.Single(all.GetProperty("Results").EnumerateArray());
        Assert.Equal("kept", only.GetProperty("Value").GetProperty("Object").GetString());
        Assert.Equal(1, only.GetProperty("Index").GetInt64());
    }

    [Fact]
    public async Task ClusterWideBatch_WritesDocumentsAndEntriesTogether_OrNothing()
    {
        await using RunningServer server = await RunningServer.StartAsync();
        string db = await CreateDatabaseAsync(server.Client);

        JsonElement committed = await SendAsync(server.Client, HttpMethod.Post, $"/databases/{db}/bulk_docs", """
            {"TransactionMode":"ClusterWide","Commands":[
              {"Type":"PUT","Id":"users/1","Document":{"Name":"Ann","@metadata":{"@collection":"Users"}}},
              {"Type":"CompareExchangePUT","Id":"emails/ann","Index":0,"Document":{"Object":"users/1"}}]}
            """, HttpStatusCode.Created);
        long transaction = committed.GetProperty("TransactionIndex").GetInt64();
        JsonElement entryResult = committed.GetProperty("Results")[1];
        Assert.Equal("CompareExchangePUT", entryResult.GetProperty("Type").GetString());
        Assert.Equal("emails/ann", entryResult.GetProperty("Key").GetString());
        Assert.Equal(transaction, entryResult.GetProperty("Index").GetInt64());
        JsonElement guard = await GetJsonAsync(server.Client, $"/databases/{db}/cmpxchg?key=rvn-atomic%2Fusers%2F1");
        Assert.Equal(transaction, guard.GetProperty("Results")[0].GetProperty("Index").GetInt64());

        // The entry exists already: the whole batch fails, the document included.
        using var request = new HttpRequestMessage(HttpMethod.Post, $"/databases/{db}/bulk_docs")
        {
            Content = FolioApi.Json("""
                {"TransactionMode":"ClusterWide","Commands":[
                  {"Type":"PUT","Id":"users/2","Document":{"Name":"Ann Two"}},
                  {"Type":"CompareExchangePUT","Id":"emails/ann","Index":0,"Document":{"Object":"users/2"}}]}
                """),
        };
        request.Headers.Add("Raven-Client-Version", "5.4.0");
        using HttpResponseMessage conflict = await server.Client.SendAsync(request);
        Assert.Equal(HttpStatusCode.Conflict, conflict.StatusCode);
        Assert.Equal("5.4.0", conflict.Headers.GetValues("Raven-Server-Version").Single());
        JsonElement problem = JsonDocument.Parse(await conflict.Content.ReadAsStringAsync()).RootElement;
        Assert.Equal("urn:folio:problem:cluster-transaction-conflict", problem.GetProperty("type").GetString());
        Assert.Equal("Raven.Client.Exceptions.ClusterTransactionConcurrencyException", problem.GetProperty("Type").GetString());
        Assert.Null(await LoadAsync(server.Client, db, "users/2"));
        JsonElement kept = await GetJsonAsync(server.Client, $"/databases/{db}/cmpxchg?key=emails%2Fann");
        Assert.Equal("users/1", kept.GetProperty("Results")[0].GetProperty("Value").GetProperty("Object").GetString());
    }

    [Fact]
    public async Task ClusterWideBatch_DocumentChangedSinceLoaded_Conflicts()
    {
        await using RunningServer server = await RunningServer.StartAsync();
        string db = await CreateDatabaseAsync(server.Client);
        await SendAsync(server.Client, HttpMethod.Post, $"/databases/{db}/bulk_docs", """{"TransactionMode":"ClusterWide","Commands":[{"Type":"PUT","Id":"users/1","Document":{"Name":"Ann"}}]}""", HttpStatusCode.Created);
        string loaded = (await LoadAsync(server.Client, db, "users/1"))!.Value.GetProperty("@metadata").GetProperty("@change-vector").GetString()!;
        await SendAsync(server.Client, HttpMethod.Post, $"/databases/{db}/bulk_docs", $$$"""{"TransactionMode":"ClusterWide","Commands":[{"Type":"PUT","Id":"users/1","OriginalChangeVector":"{{{loaded}}}","Document":{"Name":"Bo"}}]}""", HttpStatusCode.Created);

        await SendAsync(server.Client, HttpMethod.Post, $"/databases/{db}/bulk_docs", $$$"""{"TransactionMode":"ClusterWide","Commands":[{"Type":"DELETE","Id":"users/1","OriginalChangeVector":"{{{loaded}}}"}]}""", HttpStatusCode.Conflict);
        await SendAsync(server.Client, HttpMethod.Post, $"/databases/{db}/bulk_docs", """{"TransactionMode":"ClusterWide","Commands":[{"Type":"PUT","Id":"users/1","Document":{"Name":"Cy"}}]}""", HttpStatusCode.Conflict);
        // Without atomic guards the write is the client's own business.
        await SendAsync(server.Client, HttpMethod.Post, $"/databases/{db}/bulk_docs?disableAtomicDocumentWrites=true", """{"TransactionMode":"ClusterWide","Commands":[{"Type":"PUT","Id":"users/1","Document":{"Name":"Di"}}]}""", HttpStatusCode.Created);

        Assert.Equal("Di", (await LoadAsync(server.Client, db, "users/1"))!.Value.GetProperty("Name").GetString());
    }

    [Theory]
    [InlineData("""{"Commands":[{"Type":"CompareExchangePUT","Id":"k","Index":0,"Document":{"Object":1}}]}""")]
    [InlineData("""{"TransactionMode":"ClusterWide","Commands":[{"Type":"CompareExchangePUT","Id":"k","Document":{"Object":1}}]}""")]
    [InlineData("""{"TransactionMode":"ClusterWide","Commands":[{"Type":"CompareExchangePUT","Id":"k","Index":-2,"Document":{"Object":1}}]}""")]
    [InlineData("""{"TransactionMode":"ClusterWide","Commands":[{"Type":"CompareExchangePUT","Id":"k","Index":0}]}""")]
    [InlineData("""{"TransactionMode":"ClusterWide","Commands":[{"Type":"CompareExchangeDELETE","Index":0}]}""")]
    [InlineData("""{"TransactionMode":"ClusterWide","Commands":[{"Type":"PUT","Id":"users/9","Document":{}},{"Type":"PATCH","Id":"users/9","Patch":{"Script":"this.A = 1"}}]}""")]
    [InlineData("""{"TransactionMode":"Sometimes","Commands":[]}""")]
    public async Task CompareExchangeCommands_BadBatch_AnswersProblemAndWritesNothing(string body)
    {
        await using RunningServer server = await RunningServer.StartAsync();
        string db = await CreateDatabaseAsync(server.Client);

        JsonElement problem = await SendAsync(server.Client, HttpMethod.Post, $"/databases/{db}/bulk_docs", body, HttpStatusCode.BadRequest);

        Assert.False(string.IsNullOrEmpty(problem.GetProperty("detail").GetString()));
        Assert.Empty((await GetJsonAsync(server.Client, $"/databases/{db}/cmpxchg?startsWith=")).GetProperty("Results").EnumerateArray());
        Assert.Null(await LoadAsync(server.Client, db, "users/9"));
    }

    [Fact]
    public async Task Query_CompareExchangeInWhere_AndInclude_ReadTheEntries()
    {
        await using RunningServer server = await RunningServer.StartAsync();
        string db = await CreateDatabaseAsync(server.Client);
        await SendAsync(server.Client, HttpMethod.Put, Uri(db, "Hera", 0), """{"Object":"Zeus"}""");
        await SendAsync(server.Client, HttpMethod.Put, Uri(db, "zeus@example.com", 0), """{"Object":"users/1"}""");
        await StoreAsync(server.Client, db, "users/1", """{"Name":"Zeus","Email":"zeus@example.com","@metadata":{"@collection":"Users"}}""");
        await StoreAsync(server.Client, db, "users/2", """{"Name":"Jerry","Email":"nobody@example.com","@metadata":{"@collection":"Users"}}""");

        JsonElement byLiteral = await QueryAsync(server.Client, db, "from Users where Name = cmpxchg('Hera') include cmpxchg('Email')", null);
        JsonElement byParameter = await QueryAsync(server.Client, db, "from Users where Name != cmpxchg($k)", new { k = "Hera" });
        JsonElement missing = await QueryAsync(server.Client, db, "from Users where Name = cmpxchg('nobody')", null);

        Assert.Equal("Zeus", Assert.Single(byLiteral.GetProperty("Results").EnumerateArray()).GetProperty("Name").GetString());
        JsonElement included = byLiteral.GetProperty("CompareExchangeValueIncludes").GetProperty("zeus@example.com");
        Assert.Equal("users/1", included.GetProperty("Value").GetProperty("Object").GetString());
        Assert.Equal("Jerry", Assert.Single(byParameter.GetProperty("Results").EnumerateArray()).GetProperty("Name").GetString());
        Assert.Empty(missing.GetProperty("Results").EnumerateArray());
        JsonElement problem = await SendAsync(server.Client, HttpMethod.Post, $"/databases/{db}/queries", """{"Query":"from Users where Name = cmpxchg(42)"}""", HttpStatusCode.BadRequest);
        Assert.Equal("urn:folio:problem:invalid-query", problem.GetProperty("type").GetString());
    }

    private static Task<JsonElement> QueryAsync(HttpClient client, string db, string rql, object? parameters) =>
        SendAsync(client, HttpMethod.Post, $"/databases/{db}/queries", JsonSerializer.Serialize(new { Query = rql, QueryParameters = parameters, WaitForNonStaleResults = true }));
}
