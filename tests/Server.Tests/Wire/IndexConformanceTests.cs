using System.Text.Json;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Wire;

/// <summary>The index routes answer as the wire contract says, for good and bad input.</summary>
public sealed class IndexConformanceTests(WireFixture fixture) : WireTests(fixture)
{
    private const string Indexes = "/databases/{db}/indexes";
    private const string Stats = "/databases/{db}/indexes/stats";
    private const string Reset = "/databases/{db}/indexes/reset";

    private const string Definition = """
        {"Indexes":[{"Name":"Products/Search","Collections":["Products"],"Fields":{
          "Name":{"Path":"Name","Search":true},"Code":{"CaseSensitive":true},"Price":{"Path":"PricePerUnit","Type":"Double"},
          "Stock":{"Path":"Stock","Type":"long"},"Tags":{"Path":"Tags[]","Type":"String"}}}]}
        """;

    [Fact]
    [Exercises("PUT /databases/{db}/indexes")]
    public async Task PutIndexes_AnswersAsDocumented_ForGoodAndBadInput()
    {
        string db = await FolioApi.CreateDatabaseAsync(Server.Client);
        string uri = $"/databases/{db}/indexes";

        WireAnswer created = await Wire.SendAsync(HttpMethod.Put, Indexes, uri, Definition);
        Assert.Equal("Products/Search", created.Body.GetProperty("Results")[0].GetProperty("Name").GetString());
        Assert.Equal(201, (await Wire.SendAsync(HttpMethod.Put, Indexes, uri, Definition)).Status);

        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Put, Indexes, uri, """{"Indexes":[]}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Put, Indexes, uri, """[{"Name":"A"}]""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Put, Indexes, uri, """{"Indexes":[{"Name":"A","Collections":["A"],"Fields":{"F":{"Type":"Date"}}}]}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Put, Indexes, uri, """{"Indexes":[{"Name":"A","Collections":["A"],"Reduce":{"GroupBy":["F"],"Aggregations":{"S":{"Op":"Sum"}}}}]}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Put, Indexes, uri, """{"Indexes":[{"Name":"A","Collections":["A"],"Fields":{"F":{}},"Reduce":{"GroupBy":["F"]}}]}""")).Status);
        Assert.Equal(201, (await Wire.SendAsync(HttpMethod.Put, Indexes, uri, MapReduceDefinition)).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Put, Indexes, uri, """{"Indexes":[{"Name":"A","Collections":[],"Fields":{"F":{}}}]}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Put, Indexes, uri, """{"Indexes":[""")).Status);
        Assert.Equal(413, (await Wire.SendAsync(HttpMethod.Put, Indexes, uri, LargeObject(WireFixture.MaxDocumentBytes + 1024))).Status);
        Assert.Equal(404, (await Wire.SendAsync(HttpMethod.Put, Indexes, "/databases/no-such-db/indexes", Definition)).Status);

        AssertExercised();
    }

    [Fact]
    [Exercises("GET /databases/{db}/indexes", "GET /databases/{db}/indexes/stats")]
    public async Task GetIndexesAndStats_AnswerAsDocumented_ForGoodAndBadInput()
    {
        string db = await SeedAsync();
        string uri = $"/databases/{db}/indexes";

        WireAnswer all = await Wire.GetAsync(Indexes, uri);
        Assert.Equal(3, all.Body.GetProperty("Results").GetArrayLength());
        Assert.Equal(200, (await Wire.GetAsync(Indexes, $"{uri}?name=products/search")).Status);
        WireAnswer stats = await Wire.GetAsync(Stats, $"{uri}/stats");
        Assert.Equal(3, stats.Body.GetProperty("Results").GetArrayLength());

        // What GET answers, a PUT takes back unchanged: the auto index's Auto fields and the map/reduce index's Reduce.
        foreach (JsonElement definition in all.Body.GetProperty("Results").EnumerateArray())
        {
            string copy = definition.GetRawText().Replace("\"Auto/", "\"Copy/", StringComparison.Ordinal);
            Assert.Equal(201, (await Wire.SendAsync(HttpMethod.Put, Indexes, uri, $$"""{"Indexes":[{{copy}}]}""")).Status);
        }

        Assert.Equal(404, (await Wire.GetAsync(Indexes, $"{uri}?name=Nope")).Status);
        Assert.Equal(400, (await Wire.GetAsync(Indexes, $"{uri}?name=a&name=b")).Status);
        Assert.Equal(404, (await Wire.GetAsync(Indexes, "/databases/no-such-db/indexes")).Status);
        Assert.Equal(404, (await Wire.GetAsync(Stats, "/databases/no-such-db/indexes/stats")).Status);
        Assert.Equal(400, (await Wire.GetAsync(Stats, "/databases/con/indexes/stats")).Status);

        AssertExercised();
    }

    [Fact]
    [Exercises("DELETE /databases/{db}/indexes", "POST /databases/{db}/indexes/reset")]
    public async Task DeleteAndResetIndex_AnswerAsDocumented_ForGoodAndBadInput()
    {
        string db = await SeedAsync();
        string uri = $"/databases/{db}/indexes";

        Assert.Equal(204, (await Wire.SendAsync(HttpMethod.Post, Reset, $"{uri}/reset?name=Products/Search")).Status);
        Assert.Equal(404, (await Wire.SendAsync(HttpMethod.Post, Reset, $"{uri}/reset?name=Nope")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, Reset, $"{uri}/reset")).Status);
        Assert.Equal(404, (await Wire.SendAsync(HttpMethod.Post, Reset, "/databases/no-such-db/indexes/reset?name=A")).Status);

        Assert.Equal(204, (await Wire.SendAsync(HttpMethod.Delete, Indexes, $"{uri}?name=products/search")).Status);
        Assert.Equal(404, (await Wire.SendAsync(HttpMethod.Delete, Indexes, $"{uri}?name=Products/Search")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Delete, Indexes, uri)).Status);
        Assert.Equal(404, (await Wire.SendAsync(HttpMethod.Delete, Indexes, "/databases/no-such-db/indexes?name=A")).Status);

        AssertExercised();
    }

    private const string MapReduceDefinition = """{"Indexes":[{"Name":"Products/ByTag","Collections":["Products"],"Reduce":{"GroupBy":["Tags"],"Aggregations":{"Count":{"Op":"Count"},"Stock":{"Op":"Sum","Path":"Stock"}}}}]}""";

    /// <summary>A database with products, the static index over them, a map/reduce index, and an auto index made by a query; all caught up.</summary>
    private async Task<string> SeedAsync()
    {
        string db = await FolioApi.CreateDatabaseAsync(Server.Client);
        for (int i = 1; i <= 5; i++)
            await FolioApi.StoreAsync(Server.Client, db, $"products/{i}", $$"""{"Name":"Chai {{i}}","Code":"C{{i}}","PricePerUnit":{{i}}.5,"Stock":{{i}},"Tags":["tea"]}""");
        using (HttpResponseMessage put = await Server.Client.PutAsync($"/databases/{db}/indexes", FolioApi.Json(Definition)))
            Assert.Equal(201, (int)put.StatusCode);
        using (HttpResponseMessage put = await Server.Client.PutAsync($"/databases/{db}/indexes", FolioApi.Json(MapReduceDefinition)))
            Assert.Equal(201, (int)put.StatusCode);
        foreach (string query in new[] { "from index 'Products/Search' where Price > 1", "from Products where Code = 'C1'", "from index 'Products/ByTag' where Count > 0" })
        {
            string body = System.Text.Json.JsonSerializer.Serialize(new { Query = query, WaitForNonStaleResults = true });
            using HttpResponseMessage answer = await Server.Client.PostAsync($"/databases/{db}/queries", FolioApi.Json(body));
            Assert.Equal(200, (int)answer.StatusCode);
        }

        return db;
    }
}
