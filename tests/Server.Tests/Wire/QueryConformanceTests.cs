using System.Text;
using System.Text.Json;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Wire;

/// <summary>The query routes answer as the wire contract says, for good and bad input, facets included.</summary>
public sealed class QueryConformanceTests(WireFixture fixture) : WireTests(fixture)
{
    private const string Queries = "/databases/{db}/queries";
    private const string Streams = "/databases/{db}/streams/queries";

    [Fact]
    [Exercises("POST /databases/{db}/queries")]
    public async Task PostQuery_AnswersAsDocumented_ForGoodAndBadInput()
    {
        string db = await SeedAsync(60);
        string uri = $"/databases/{db}/queries";

        Assert.Equal(50, (await QueryAsync(uri, "from Orders")).Body.GetProperty("Results").GetArrayLength());
        WireAnswer filtered = await QueryAsync(uri, "from Orders where Company = $c and Total > 100 order by Total as long desc limit 3 include Company", new { c = "companies/1" });
        Assert.True(filtered.Body.GetProperty("Includes").TryGetProperty("companies/1", out _));
        Assert.Equal(200, (await QueryAsync(uri, "from Orders where Total >= 100 select Company, Total as Amount, id() as Key, Lines[].Product")).Status);
        Assert.Equal(200, (await QueryAsync(uri, "from Orders where id() in ('orders/1', 'orders/2')")).Status);
        Assert.Equal(200, (await QueryAsync(uri, "from Orders where search(Notes, 'late')")).Status);
        WireAnswer highlighted = await QueryAsync(uri, "from Orders where search(Notes, 'lat~1') or proximity(search(Notes, 'late delivery'), 1) include highlight(Notes, 64, 1)");
        Assert.Equal("<b>late</b> <b>delivery</b>", highlighted.Body.GetProperty("Highlightings").GetProperty("Notes").GetProperty("orders/2")[0].GetString());
        Assert.Equal(200, (await QueryAsync(uri, "from Orders where boost(Total > 100, 2) or fuzzy(Company = 'companiez/1', 1) order by score()")).Status);
        WireAnswer diagnosed = await QueryAsync(uri, "from Orders where search(Notes, 'late delivery', and) or exact(Company = 'companies/1') select distinct Company include timings(), explanations()");
        Assert.True(diagnosed.Body.GetProperty("Timings").GetProperty("Timings").GetProperty("Query").GetProperty("DurationInMs").GetDouble() >= 0);
        Assert.NotEmpty(diagnosed.Body.GetProperty("Explanations").EnumerateObject());
        Assert.Equal(200, (await QueryAsync(uri, "from Orders where true and not exists(Discount) and regex(Company, '^companies/[12]$') order by Company as alphanumeric")).Status);
        Assert.Equal(200, (await QueryAsync(uri, "from Orders where Company all in ('companies/1') order by random('x')")).Status);
        WireAnswer capped = await QueryAsync(uri, "from Orders where Total > 0 limit 1000");
        Assert.Equal(WireFixture.MaxPageSize, capped.Body.GetProperty("PageSize").GetInt32());
        Assert.Equal(200, (await Wire.SendAsync(HttpMethod.Post, Queries, uri, """{"Query":"from Orders where Total > 5","QueryParameters":null,"WaitForNonStaleResultsTimeout":"00:00:15","Other":1}""")).Status);

        JsonElement terms = (await QueryAsync(uri, "from Orders select facet(Company)")).Body.GetProperty("Results");
        Assert.Equal("Company", terms[0].GetProperty("Name").GetString());
        Assert.Equal(3, terms[0].GetProperty("Values").GetArrayLength());
        JsonElement ranges = (await QueryAsync(uri, "from Orders where Total > 0 select facet(Total < 100, Total between 100 and 500, Total > 500), facet(Company)")).Body.GetProperty("Results");
        Assert.Equal(2, ranges.GetArrayLength());
        Assert.Equal([9L, 41L, 10L], ranges[0].GetProperty("Values").EnumerateArray().Select(v => v.GetProperty("Count").GetInt64()));
        JsonElement paged = (await QueryAsync(uri, "from Orders where Company = 'companies/1' select facet(Company, sum(Total), min(Total), max(Total), avg(Total), $o), facet(Total < 100, Total >= 100, max(Total) as Largest, $s)",
            new { o = new { PageSize = 1, Start = 0, TermSortMode = "ValueAsc", IncludeRemainingTerms = true, Sideways = true }, s = new { Sideways = true } })).Body.GetProperty("Results");
        Assert.Equal(2, paged[0].GetProperty("RemainingTermsCount").GetInt64());
        Assert.Equal(2, paged[0].GetProperty("RemainingTerms").GetArrayLength());
        // Sideways: the Company facet counts every company's 20 orders as if Company = 'companies/1' were absent.
        Assert.Equal(40, paged[0].GetProperty("RemainingHits").GetInt64());
        Assert.Equal(0, paged[0].GetProperty("MissingCount").GetInt64());
        Assert.Equal(6300, paged[0].GetProperty("Values")[0].GetProperty("Sum").GetInt64());
        Assert.Equal("Largest", paged[1].GetProperty("Values")[1].GetProperty("Name").GetString());
        using (HttpResponseMessage put = await FolioApi.PutAsync(Server.Client, db, "things/1", """{"Kind":null,"Size":null}"""))
            Assert.Equal(201, (int)put.StatusCode);
        JsonElement nulls = (await QueryAsync(uri, "from Things select facet(Kind, min(Size))")).Body.GetProperty("Results");
        Assert.Equal(JsonValueKind.Null, nulls[0].GetProperty("Values")[0].GetProperty("Range").ValueKind);
        Assert.Equal(JsonValueKind.Null, nulls[0].GetProperty("Values")[0].GetProperty("Min").ValueKind);
        using (HttpResponseMessage put = await FolioApi.PutAsync(Server.Client, db, "facets/orders", """{"Facets":[{"FieldName":"Company","Aggregations":{"Sum":"Total"}}],"RangeFacets":[{"Ranges":["Total < 100"]}]}"""))
            Assert.Equal(201, (int)put.StatusCode);
        Assert.Equal(2, (await QueryAsync(uri, "from Orders select facet(id('facets/orders'))")).Body.GetProperty("Results").GetArrayLength());

        Assert.Equal(404, (await QueryAsync(uri, "from index 'No/Such/Index'")).Status);
        Assert.Equal(404, (await QueryAsync("/databases/no-such-db/queries", "from Orders")).Status);
        Assert.Equal(400, (await QueryAsync(uri, "from Orders where")).Status);
        Assert.Equal(400, (await QueryAsync(uri, "from Orders where Company = $missing")).Status);
        Assert.Equal(400, (await QueryAsync(uri, "from Orders where search(Notes, 'late~9')")).Status);
        Assert.Equal(400, (await QueryAsync(uri, "from Orders where search(Notes, 'late') include highlight(Notes, 0, 1)")).Status);
        Assert.Equal(400, (await QueryAsync(uri, "from Orders select facet(Company, $o)", new { o = new { TermSortMode = "Sideways" } })).Status);
        Assert.Equal(400, (await QueryAsync(uri, "from Orders select facet(id('facets/none'))")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, Queries, uri, """{"query":"from Orders"}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, Queries, uri, """{"Query":"from Orders","QueryParameters":[1]}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, Queries, uri, """{"Query":"from Orders","WaitForNonStaleResultsTimeout":true}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, Queries, uri, """{"Query":""")).Status);
        Assert.Equal(413, (await Wire.SendAsync(HttpMethod.Post, Queries, uri, LargeObject(WireFixture.MaxDocumentBytes + 1024))).Status);

        AssertExercised();
    }

    [Fact]
    [Exercises("GET /databases/{db}/queries")]
    public async Task GetQuery_AnswersAsDocumented_ForGoodAndBadInput()
    {
        string db = await SeedAsync(10);
        string uri = $"/databases/{db}/queries";

        WireAnswer answer = await Wire.GetAsync(Queries, $"{uri}?query={Escape("from Orders where Company = 'companies/1'")}&waitForNonStaleResults=true&waitForNonStaleResultsTimeout=15000");
        Assert.False(answer.Body.GetProperty("IsStale").GetBoolean());
        Assert.Equal(200, (await Wire.GetAsync(Queries, $"{uri}?query={Escape("from Orders select facet(Company)")}&waitForNonStaleResults=true")).Status);

        Assert.Equal(400, (await Wire.GetAsync(Queries, uri)).Status);
        Assert.Equal(400, (await Wire.GetAsync(Queries, $"{uri}?query={Escape("from Orders")}&waitForNonStaleResultsTimeout=later")).Status);
        Assert.Equal(400, (await Wire.GetAsync(Queries, $"{uri}?query={Escape("select Orders")}")).Status);
        Assert.Equal(404, (await Wire.GetAsync(Queries, $"{uri}?query={Escape("from index 'Nope'")}")).Status);

        AssertExercised();
    }

    [Fact]
    [Exercises("GET /databases/{db}/streams/queries")]
    public async Task StreamQuery_AnswersAsDocumented_ForGoodAndBadInput()
    {
        string db = await SeedAsync(70);
        string uri = $"/databases/{db}/streams/queries";

        // More results than a page holds: a stream has no page cap.
        Assert.Equal(70, (await Wire.GetAsync(Streams, $"{uri}?query={Escape("from Orders")}")).Body.GetProperty("Results").GetArrayLength());
        Assert.Equal(200, (await Wire.GetAsync(Streams, $"{uri}?query={Escape("from Orders where Total > 100 order by Total as long")}")).Status);
        Assert.Equal(200, (await Wire.GetAsync(Streams, $"{uri}?query={Escape("from Orders select Company")}")).Status);

        Assert.Equal(400, (await Wire.GetAsync(Streams, uri)).Status);
        Assert.Equal(400, (await Wire.GetAsync(Streams, $"{uri}?query={Escape("from Orders select facet(Company)")}")).Status);
        Assert.Equal(404, (await Wire.GetAsync(Streams, $"{uri}?query={Escape("from index 'Nope'")}")).Status);
        Assert.Equal(404, (await Wire.GetAsync(Streams, $"/databases/no-such-db/streams/queries?query={Escape("from Orders")}")).Status);

        AssertExercised();
    }

    private Task<WireAnswer> QueryAsync(string uri, string query, object? parameters = null)
    {
        string body = JsonSerializer.Serialize(new { Query = query, QueryParameters = parameters, WaitForNonStaleResults = true });
        return Wire.SendAsync(HttpMethod.Post, Queries, uri, body);
    }

    private static string Escape(string query) => Uri.EscapeDataString(query);

    /// <summary>
    /// A database with <paramref name="count"/> orders (order i: company i % 3, total 10 i, lines, notes) and
    /// the companies, written in one batch.
    /// </summary>
    private async Task<string> SeedAsync(int count)
    {
        string db = await FolioApi.CreateDatabaseAsync(Server.Client);
        var commands = new StringBuilder("""{"Commands":[{"Type":"PUT","Id":"companies/1","Document":{"Name":"Acme"}}""");
        for (int i = 1; i <= count; i++)
        {
            string notes = i % 2 == 0 ? "late delivery" : "on time";
            commands.Append($$$$""",{"Type":"PUT","Id":"orders/{{{{i}}}}","Document":{"Company":"companies/{{{{i % 3}}}}","Total":{{{{i * 10}}}},"Notes":"{{{{notes}}}}","Lines":[{"Product":"products/{{{{i % 5}}}}"}],"@metadata":{"@collection":"Orders"}}}""");
        }

        commands.Append("]}");
        using HttpResponseMessage response = await Server.Client.PostAsync($"/databases/{db}/bulk_docs", FolioApi.Json(commands.ToString()));
        Assert.Equal(201, (int)response.StatusCode);
        return db;
    }
}
