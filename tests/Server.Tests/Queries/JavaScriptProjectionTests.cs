using System.Net;
using System.Text.Json;
using Folio.Server.Http;
using Folio.Server.Tests.Support;
using static Folio.Server.Tests.Support.FolioApi;

namespace Folio.Server.Tests.Queries;

public sealed class JavaScriptProjectionTests : IAsyncLifetime
{
    private RunningServer _server = null!;
    private string _db = "";

    private HttpClient Client => _server.Client;

    public async Task InitializeAsync()
    {
        _server = await RunningServer.StartAsync();
        _db = await CreateDatabaseAsync(Client);
        await StoreAsync(Client, _db, "companies/1", """{"Name":"Acme","@metadata":{"@collection":"Companies"}}""");
        await StoreAsync(Client, _db, "companies/2", """{"Name":"Globex","@metadata":{"@collection":"Companies"}}""");
        for (var i = 1; i <= 6; i++)
            await StoreAsync(Client, _db, $"orders/{i}", $$$"""{"Company":"companies/{{{1 + i % 2}}}","Freight":{{{i * 10}}},"Lines":[{"PricePerUnit":{{{i}}},"Quantity":2},{"PricePerUnit":1.5,"Quantity":{{{i}}}}],"@metadata":{"@collection":"Orders"}}""");
    }

    public async Task DisposeAsync() => await _server.DisposeAsync();

    private async Task<HttpResponseMessage> PostAsync(string query, object? parameters = null)
    {
        var body = JsonSerializer.Serialize(new { Query = query, QueryParameters = parameters, WaitForNonStaleResults = true });
        return await Client.PostAsync($"/databases/{_db}/queries", FolioApi.Json(body));
    }

    private async Task<JsonElement> QueryAsync(string query, object? parameters = null)
    {
        using var response = await PostAsync(query, parameters);
        var text = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == HttpStatusCode.OK, text);
        return JsonDocument.Parse(text).RootElement.Clone();
    }

    private static double ExpectedTotal(int i) => i * 2 + 1.5 * i;

    [Theory]
    [InlineData("from Orders as o select { Id: id(o), Total: o.Lines.map(l => l.PricePerUnit * l.Quantity).reduce((a, b) => a + b, 0) }")]
    [InlineData("from Orders as o where o.Freight >= 10 order by Freight as long select { Id: id(o), Total: o.Lines.map(l => l.PricePerUnit * l.Quantity).reduce((a, b) => a + b, 0) }")]
    [InlineData("declare function total(o) {\n  return o.Lines.map(l => l.PricePerUnit * l.Quantity)\n    .reduce((a, b) => a + b, 0);\n}\nfrom Orders as o select { Id: id(o), Total: total(o) }")]
    [InlineData("declare function output(o) {\n  var total = function (lines) { return lines.map(l => l.PricePerUnit * l.Quantity).reduce((a, b) => a + b, 0); };\n  return { Id: id(o), Total: total(o.Lines) };\n}\nfrom Orders as o select output(o)")]
    [InlineData("declare function output(o, factor) { return { Id: id(o), Total: o.Lines.reduce((a, l) => a + l.PricePerUnit * l.Quantity * factor, 0) }; }\nfrom Orders as o where o.Freight > 0 select output(o, (1)) limit 10")]
    public async Task Query_ObjectLiteralProjection_ComputesEachResult(string query)
    {
        var result = await QueryAsync(query);
        var rows = result.GetProperty("Results");
        Assert.Equal(6, rows.GetArrayLength());
        foreach (var row in rows.EnumerateArray())
        {
            var i = int.Parse(row.GetProperty("Id").GetString()!["orders/".Length..]);
            Assert.Equal(ExpectedTotal(i), row.GetProperty("Total").GetDouble(), 6);
            Assert.True(row.GetProperty("@metadata").GetProperty("@projection").GetBoolean());
        }
    }

    [Fact]
    public async Task Query_SelectOfADeclaredFunction_ProjectsWithTheLoadedDocument()
    {
        var result = await QueryAsync("declare function output(o, c) { return { Freight: o.Freight, Company: c.Name }; } from Orders as o where o.Freight = 30 load o.Company as c select output(o, c)");
        var row = Assert.Single(result.GetProperty("Results").EnumerateArray());
        Assert.Equal("Globex", row.GetProperty("Company").GetString());
        Assert.Equal(30, row.GetProperty("Freight").GetInt32());
    }

    [Fact]
    public async Task Query_LoadWithAPlainSelect_ProjectsFieldsOfBothDocuments()
    {
        var result = await QueryAsync("from Orders as o where o.Freight = 30 load o.Company as c select c.Name, c.Missing as Missing, o.Freight, Lines[].PricePerUnit as Prices, id() as Id");
        var row = Assert.Single(result.GetProperty("Results").EnumerateArray());
        Assert.Equal("Globex", row.GetProperty("Name").GetString());
        Assert.Equal(JsonValueKind.Null, row.GetProperty("Missing").ValueKind);
        Assert.Equal(30, row.GetProperty("Freight").GetInt32());
        Assert.Equal([3.0, 1.5], row.GetProperty("Prices").EnumerateArray().Select(p => p.GetDouble()));
        Assert.Equal("orders/3", row.GetProperty("Id").GetString());
        Assert.True(result.GetProperty("Includes").TryGetProperty("companies/2", out _));

        // The same fields as a plain projection gives them, read from the queried document alone.
        var plain = await QueryAsync("from Orders where Freight = 30 select Freight, Lines[].PricePerUnit as Prices");
        var expected = Assert.Single(plain.GetProperty("Results").EnumerateArray());
        Assert.Equal(expected.GetProperty("Prices").GetRawText(), row.GetProperty("Prices").GetRawText());

        // Sizes, and [] that keeps an array of items, read as the plain projection reads them.
        var loadedSizes = Assert.Single((await QueryAsync("from Orders as o where o.Freight = 30 load o.Company as c select c.Name, Lines.Count as N, Lines[].Count as PerLine")).GetProperty("Results").EnumerateArray());
        var plainSizes = Assert.Single((await QueryAsync("from Orders where Freight = 30 select Lines.Count as N, Lines[].Count as PerLine")).GetProperty("Results").EnumerateArray());
        Assert.Equal(2, loadedSizes.GetProperty("N").GetInt32());
        Assert.Equal(plainSizes.GetProperty("N").GetRawText(), loadedSizes.GetProperty("N").GetRawText());
        Assert.Equal(plainSizes.GetProperty("PerLine").GetRawText(), loadedSizes.GetProperty("PerLine").GetRawText());
    }

    [Fact]
    public async Task Query_SelectOfTheAlias_AnswersTheWholeDocuments()
    {
        var whole = Assert.Single((await QueryAsync("from Orders as o where o.Freight = 30 select o")).GetProperty("Results").EnumerateArray());
        Assert.Equal("companies/2", whole.GetProperty("Company").GetString());
        Assert.Equal("orders/3", whole.GetProperty("@metadata").GetProperty("@id").GetString());

        var pair = Assert.Single((await QueryAsync("from Orders as o where o.Freight = 30 load o.Company as c select o, c")).GetProperty("Results").EnumerateArray());
        Assert.Equal(30, pair.GetProperty("o").GetProperty("Freight").GetInt32());
        Assert.Equal("Globex", pair.GetProperty("c").GetProperty("Name").GetString());
    }

    [Fact]
    public async Task Query_Load_ReadsTheRelatedDocumentAndIncludesIt()
    {
        var result = await QueryAsync("from Orders as o where o.Freight = $f load o.Company as c select { Freight: o.Freight, Company: c.Name, Upper: c.Name.toUpperCase() }", new { f = 30 });
        var row = Assert.Single(result.GetProperty("Results").EnumerateArray());
        Assert.Equal("Globex", row.GetProperty("Company").GetString());
        Assert.Equal("GLOBEX", row.GetProperty("Upper").GetString());
        Assert.True(result.GetProperty("Includes").TryGetProperty("companies/2", out _));
    }

    [Fact]
    public async Task Query_ParametersAndLoadFunction_AreReachableFromTheScript()
    {
        var result = await QueryAsync("from Orders as o where id() = 'orders/1' select { Scaled: o.Freight * $factor, Other: load('companies/1').Name }", new { factor = 3 });
        var row = Assert.Single(result.GetProperty("Results").EnumerateArray());
        Assert.Equal(30, row.GetProperty("Scaled").GetInt32());
        Assert.Equal("Acme", row.GetProperty("Other").GetString());
    }

    [Fact]
    public async Task Query_GetMetadata_GivesTheDocumentsMetadata()
    {
        var result = await QueryAsync("from Orders as o where id() = 'orders/1' select { Id: id(o), Cv: getMetadata(o)['@change-vector'], Collection: getMetadata(o)['@collection'] }", new { });
        var row = Assert.Single(result.GetProperty("Results").EnumerateArray());
        Assert.Equal("orders/1", row.GetProperty("Id").GetString());
        Assert.False(string.IsNullOrEmpty(row.GetProperty("Cv").GetString()));
        Assert.Equal("Orders", row.GetProperty("Collection").GetString());
    }

    [Fact]
    public async Task Query_ScriptSyntaxError_Is400NamingTheQueryLine()
    {
        using var response = await PostAsync("from Orders as o\nselect {\n  Total: o.Freight +\n}");
        var problem = await ProblemAssert.IsProblemAsync(response, HttpStatusCode.BadRequest, ProblemTypes.ScriptError);
        Assert.Contains("line 4", problem.GetProperty("detail").GetString());
    }

    [Fact]
    public async Task Query_ScriptRuntimeError_Is400NamingTheQueryLine()
    {
        using var response = await PostAsync("declare function bad(o) {\n  return o.Missing.Deeper;\n}\nfrom Orders as o select { X: bad(o) }");
        var problem = await ProblemAssert.IsProblemAsync(response, HttpStatusCode.BadRequest, ProblemTypes.ScriptError);
        Assert.Contains("line 2", problem.GetProperty("detail").GetString());
    }

    [Theory]
    [InlineData("declare function spin() { while (true) {} }\nfrom Orders as o select { X: spin() }")]
    [InlineData("declare function down(n) { return down(n + 1); }\nfrom Orders as o select { X: down(0) }")]
    [InlineData("declare function big() { var a = []; while (true) a.push('xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' + a.length); }\nfrom Orders as o select { X: big() }")]
    public async Task Query_HostileScript_StopsWithinItsLimits_AndTheServerKeepsServing(string query)
    {
        using var response = await PostAsync(query);
        await ProblemAssert.IsProblemAsync(response, HttpStatusCode.BadRequest, ProblemTypes.ScriptLimitExceeded);
        await AssertServingAsync(Client);
        var after = await QueryAsync("from Orders as o select { F: o.Freight }");
        Assert.Equal(6, after.GetProperty("Results").GetArrayLength());
    }

    [Theory]
    [InlineData("Folio")]
    [InlineData("Lucene")]
    public async Task Query_StaticIndexOnEitherEngine_ProjectsWithJavaScript(string engine)
    {
        var name = "Orders/ByFreight" + engine;
        var definition = "{\"Indexes\":[{\"Name\":\"" + name + "\",\"Collections\":[\"Orders\"],\"SearchEngine\":\"" + engine + "\",\"Fields\":{\"Freight\":{\"Path\":\"Freight\",\"Type\":\"Double\"}}}]}";
        using (var put = await Client.PutAsync($"/databases/{_db}/indexes", FolioApi.Json(definition)))
            Assert.True(put.IsSuccessStatusCode, await put.Content.ReadAsStringAsync());
        var result = await QueryAsync($"from index '{name}' as o where o.Freight >= 40 load o.Company as c select {{ Id: id(o), Company: c.Name }}");
        var rows = result.GetProperty("Results");
        Assert.Equal(3, rows.GetArrayLength());
        foreach (var row in rows.EnumerateArray())
        {
            var i = int.Parse(row.GetProperty("Id").GetString()!["orders/".Length..]);
            Assert.Equal(i % 2 == 0 ? "Acme" : "Globex", row.GetProperty("Company").GetString());
        }
    }

    [Fact]
    public async Task Query_ClrIsNotReachable()
    {
        using var response = await PostAsync("from Orders as o select { X: System.IO.File.ReadAllText('/etc/passwd') }");
        await ProblemAssert.IsProblemAsync(response, HttpStatusCode.BadRequest, ProblemTypes.ScriptError);
    }
}
