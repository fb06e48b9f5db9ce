using System.Diagnostics;
using System.Net;
using System.Text.Json;
using Folio.Server.Tests.Support;
using static Folio.Server.Tests.Support.FolioApi;

namespace Folio.Server.Tests.Queries;

/// <summary>
/// Projections whose results fight back, found by the JavaScript property tier (<c>ScriptPropertyTests</c>): getters and
/// proxy traps that throw, loop or recurse while the result is written (they answered 500), dates past .NET's range (500),
/// results sharing one subtree so often that writing them never ends (a hang); and projections that outlive the query's
/// budget (they ran to the script's own limit, or answered as if the client had gone).
/// </summary>
public sealed class JavaScriptProjectionHostileTests : IAsyncLifetime
{
    private RunningServer _server = null!;
    private string _db = "";

    private HttpClient Client => _server.Client;

    public async Task InitializeAsync()
    {
        // A script limit far beyond the budgets the tests ask for: only the budget can stop them in time.
        _server = await RunningServer.StartAsync(["--Scripting:TimeoutMs=60000", "--Scripting:MaxStatements=2000000000"]);
        _db = await CreateDatabaseAsync(Client);
        for (var i = 1; i <= 3; i++)
            await StoreAsync(Client, _db, $"orders/{i}", $$$"""{"Freight":{{{i * 10}}},"@metadata":{"@collection":"Orders"}}""");
    }

    public async Task DisposeAsync() => await _server.DisposeAsync();

    private async Task<(HttpStatusCode Status, JsonElement Body, TimeSpan Took)> PostAsync(string query, string? timeout = null)
    {
        var clock = Stopwatch.StartNew();
        var body = JsonSerializer.Serialize(new { Query = query, WaitForNonStaleResults = true });
        using var response = await Client.PostAsync($"/databases/{_db}/queries{(timeout is null ? "" : "?timeout=" + timeout)}", FolioApi.Json(body));
        var text = await response.Content.ReadAsStringAsync();
        using var document = JsonDocument.Parse(text);
        return (response.StatusCode, document.RootElement.Clone(), clock.Elapsed);
    }

    [Theory]
    [InlineData("({ get boom() { throw new Error('getter'); } })", "getter")]
    [InlineData("({ get deep() { return (function f(n) { return f(n + 1); })(0); } })", "deeper")]
    [InlineData("new Proxy({}, { ownKeys() { throw new Error('keys'); } })", "keys")]
    [InlineData("new Proxy({}, { getOwnPropertyDescriptor() { throw 1; }, ownKeys() { return ['x']; } })", "Script error")]
    public async Task Query_ResultGetterOrProxyFails_AnswersScriptProblem(string expression, string detail)
    {
        var (status, body, _) = await PostAsync($"from Orders as o select {{ V: {expression} }}");
        Assert.Equal(HttpStatusCode.BadRequest, status);
        Assert.Contains(detail, body.GetProperty("detail").GetString());
    }

    [Fact]
    public async Task Query_ResultGetterLoopsForever_StopsAtTheBudget()
    {
        var (status, body, took) = await PostAsync("from Orders as o select { V: ({ get spin() { while (true) {} } }) }", timeout: "500");
        Assert.Equal(HttpStatusCode.RequestTimeout, status);
        Assert.Equal("urn:folio:problem:query-timeout", body.GetProperty("type").GetString());
        Assert.True(took < TimeSpan.FromSeconds(20), $"took {took}");
    }

    [Theory]
    [InlineData("new Date(8.64e15)")]
    [InlineData("new Date(-8.64e15)")]
    public async Task Query_DatePastDotNetRange_AnswersNull(string expression)
    {
        var (status, body, _) = await PostAsync($"from Orders as o where id() = 'orders/1' select {{ V: {expression} }}");
        Assert.Equal(HttpStatusCode.OK, status);
        Assert.Equal(JsonValueKind.Null, body.GetProperty("Results")[0].GetProperty("V").ValueKind);
    }

    [Theory]
    [InlineData("(function () { var a = [1]; for (var i = 0; i < 60; i++) a = [a, a]; return a; })()")]
    [InlineData("(function () { var o = {}; for (var i = 0; i < 60; i++) o = { l: o, r: o }; return o; })()")]
    public async Task Query_ResultSharesSubtreesExponentially_IsRefusedQuickly(string expression)
    {
        var (status, body, took) = await PostAsync($"from Orders as o where id() = 'orders/1' select {{ V: {expression} }}");
        Assert.Equal(HttpStatusCode.BadRequest, status);
        Assert.Contains("larger than", body.GetProperty("detail").GetString());
        Assert.True(took < TimeSpan.FromSeconds(20), $"took {took}");
    }

    [Theory]
    [InlineData("from Orders as o select { V: (function () { while (true) {} })() }")]
    [InlineData("from Orders as o where id() = 'orders/2' select { V: (function () { while (true) {} })() }")]
    [InlineData("from Orders as o where o.Freight > 0 select { V: (function () { while (true) {} })() }")]
    public async Task Query_ProjectionOutlivesTheBudget_Answers408(string query)
    {
        var (status, body, took) = await PostAsync(query, timeout: "500");
        Assert.Equal(HttpStatusCode.RequestTimeout, status);
        Assert.Equal("urn:folio:problem:query-timeout", body.GetProperty("type").GetString());
        Assert.True(took < TimeSpan.FromSeconds(20), $"took {took}");
        var (after, _, _) = await PostAsync("from Orders as o where id() = 'orders/1' select { F: o.Freight }");
        Assert.Equal(HttpStatusCode.OK, after);
    }
}
