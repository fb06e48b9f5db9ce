using System.Diagnostics;
using System.Text;
using System.Text.Json;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Wire;

/// <summary>Patches and tracked operations answer as the wire contract says, for good and bad input.</summary>
public sealed class OperationConformanceTests(WireFixture fixture) : WireTests(fixture)
{
    private const string Docs = "/databases/{db}/docs";
    private const string Queries = "/databases/{db}/queries";
    private const string State = "/databases/{db}/operations/state";
    private const string Kill = "/databases/{db}/operations/kill";

    [Fact]
    [Exercises("PATCH /databases/{db}/docs")]
    public async Task PatchDocument_AnswersAsDocumented_ForGoodAndBadInput()
    {
        string db = await FolioApi.CreateDatabaseAsync(Server.Client);
        var (_, changeVector) = await FolioApi.StoreAsync(Server.Client, db, "orders/1", """{"Freight":1,"Tags":[]}""");
        string uri = $"/databases/{db}/docs";

        WireAnswer patched = await Wire.SendAsync(HttpMethod.Patch, Docs, $"{uri}?id=orders/1", """{"Script":"this.Freight = args.f; this.Tags.push('x')","Values":{"f":10}}""");
        Assert.Equal(200, patched.Status);
        Assert.Equal(10, patched.Body.GetProperty("Document").GetProperty("Freight").GetInt32());
        var merge = new StringContent("""{"Freight":null,"Note":"n"}""", Encoding.UTF8, "application/merge-patch+json");
        Assert.Equal(200, (await Wire.SendAsync(HttpMethod.Patch, Docs, $"{uri}?id=orders/1", merge)).Status);

        Assert.Equal(409, (await Wire.SendAsync(HttpMethod.Patch, Docs, $"{uri}?id=orders/1", """{"Script":"this.A = 1"}""", ("If-Match", $"\"{changeVector}\""))).Status);
        Assert.Equal(404, (await Wire.SendAsync(HttpMethod.Patch, Docs, $"{uri}?id=orders/404", """{"Script":"this.A = 1"}""")).Status);
        Assert.Equal(404, (await Wire.SendAsync(HttpMethod.Patch, Docs, "/databases/no-such-db/docs?id=orders/1", """{"Script":"this.A = 1"}""")).Status);
        WireAnswer syntax = await Wire.SendAsync(HttpMethod.Patch, Docs, $"{uri}?id=orders/1", """{"Script":"this.A = ;"}""");
        Assert.Equal("urn:folio:problem:script-error", syntax.Body.GetProperty("type").GetString());
        WireAnswer loop = await Wire.SendAsync(HttpMethod.Patch, Docs, $"{uri}?id=orders/1", """{"Script":"while (true) {}"}""");
        Assert.Equal("urn:folio:problem:script-limit-exceeded", loop.Body.GetProperty("type").GetString());
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Patch, Docs, $"{uri}?id=orders/1", """{"Values":{}}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Patch, Docs, uri, """{"Script":"this.A = 1"}""")).Status);

        AssertExercised();
    }

    [Fact]
    [Exercises("PATCH /databases/{db}/queries", "DELETE /databases/{db}/queries", "GET /databases/{db}/operations/state", "POST /databases/{db}/operations/kill")]
    public async Task QueryOperations_AnswerAsDocumented_ForGoodAndBadInput()
    {
        string db = await FolioApi.CreateDatabaseAsync(Server.Client);
        for (int i = 1; i <= 5; i++)
            await FolioApi.StoreAsync(Server.Client, db, $"orders/{i}", $$$"""{"Freight":{{{i * 10}}},"@metadata":{"@collection":"Orders"}}""");
        string uri = $"/databases/{db}/queries";

        WireAnswer patch = await Wire.SendAsync(HttpMethod.Patch, Queries, uri, """{"Query":"from Orders where Freight > $min update { this.Freight = 0; }","QueryParameters":{"min":20}}""");
        Assert.Equal(202, patch.Status);
        JsonElement patched = await EndedAsync(db, patch.Body.GetProperty("OperationId").GetInt64());
        Assert.Equal("Completed", patched.GetProperty("Status").GetString());
        Assert.Equal(3, patched.GetProperty("Processed").GetInt64());
        WireAnswer delete = await Wire.SendAsync(HttpMethod.Delete, Queries, uri, """{"Query":"from Orders where Freight = 0"}""");
        Assert.Equal(202, delete.Status);
        long deleteId = delete.Body.GetProperty("OperationId").GetInt64();
        Assert.Equal(3, (await EndedAsync(db, deleteId)).GetProperty("Processed").GetInt64());
        Assert.Equal(204, (await Wire.SendAsync(HttpMethod.Post, Kill, $"/databases/{db}/operations/kill?id={deleteId}")).Status);

        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Patch, Queries, uri, """{"Query":"from Orders"}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Patch, Queries, uri, """{"Query":"from Orders update { this.A = ; }"}""")).Status);
        Assert.Equal(404, (await Wire.SendAsync(HttpMethod.Patch, Queries, "/databases/no-such-db/queries", """{"Query":"from Orders update { this.A = 1; }"}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Delete, Queries, uri, """{"Query":"from Orders update { this.A = 1; }"}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Delete, Queries, uri, """{"Nope":1}""")).Status);
        Assert.Equal(404, (await Wire.GetAsync(State, $"/databases/{db}/operations/state?id=999")).Status);
        Assert.Equal(400, (await Wire.GetAsync(State, $"/databases/{db}/operations/state?id=x")).Status);
        Assert.Equal(404, (await Wire.SendAsync(HttpMethod.Post, Kill, $"/databases/{db}/operations/kill?id=999")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, Kill, $"/databases/{db}/operations/kill")).Status);

        AssertExercised();
    }

    private async Task<JsonElement> EndedAsync(string db, long id)
    {
        var clock = Stopwatch.StartNew();
        while (true)
        {
            WireAnswer state = await Wire.GetAsync(State, $"/databases/{db}/operations/state?id={id}");
            Assert.Equal(200, state.Status);
            if (state.Body.GetProperty("Status").GetString() != "InProgress")
                return state.Body;
            Assert.True(clock.Elapsed < TestTimeouts.Default, $"Operation {id} did not end: {state.Body}");
            await Task.Delay(50);
        }
    }
}
