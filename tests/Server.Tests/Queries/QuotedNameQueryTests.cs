using System.Net;
using System.Text.Json;
using Folio.Server.Http;
using Folio.Server.Tests.Support;
using static Folio.Server.Tests.Support.FolioApi;

namespace Folio.Server.Tests.Queries;

/// <summary>
/// Quoted property names in every clause of a query over HTTP, on auto and static indexes: a quoted name
/// in field position is the property of that name, a quoted text in value position is a string.
/// </summary>
public sealed class QuotedNameQueryTests : IAsyncLifetime
{
    private RunningServer _server = null!;
    private string _db = "";

    private HttpClient Client => _server.Client;

    public async Task InitializeAsync()
    {
        _server = await RunningServer.StartAsync();
        _db = await CreateDatabaseAsync(Client);
        await StoreAsync(Client, _db, "movies/1", """{"Title":"Alien","Original Title":"Alien","Major Genre":"Horror","IMDB Rating":8.5,"US Gross":80931801,"Plot Summary":"a crew meets a creature","e-mail":"alien@fox.com","a.b":"dotted","a":{"b":"nested"},"Director Id":"people/1","Sales Lines":[{"Product Id":"products/1","Unit Price":12.5}],"Address":{"e-mail":"x@y.org"}}""");
        await StoreAsync(Client, _db, "movies/2", """{"Title":"Major Genre","Original Title":"Le Genre","Major Genre":"Drama","IMDB Rating":7.2,"US Gross":1000,"Plot Summary":"a late train","Director Id":"people/2","Sales Lines":[{"Product Id":"products/2","Unit Price":5}]}""");
        await StoreAsync(Client, _db, "movies/3", """{"Title":"Amélie","Original Title":"Le Fabuleux Destin","Major Genre":"Comedy","IMDB Rating":8.4,"US Gross":33225499,"Plot Summary":"a shy waitress","e-mail":"amelie@example.org"}""");
        await StoreAsync(Client, _db, "movies/4", """{"Title":"Heat","Major Genre":"Drama","IMDB Rating":8.3,"US Gross":67436818,"Plot Summary":"a train robbery goes wrong"}""");
        await StoreAsync(Client, _db, "people/1", """{"Name":"Ridley Scott"}""");
        await StoreAsync(Client, _db, "products/1", """{"Name":"Poster"}""");
    }

    public async Task DisposeAsync() => await _server.DisposeAsync();

    [Theory]
    [InlineData("from Movies where 'Major Genre' = 'Drama'", "movies/2,movies/4")]
    [InlineData("from Movies where \"Major Genre\" = \"Drama\"", "movies/2,movies/4")]
    [InlineData("from Movies where Title = 'Major Genre'", "movies/2")]
    [InlineData("from Movies where 'IMDB Rating' > 8", "movies/1,movies/3,movies/4")]
    [InlineData("from Movies where 'IMDB Rating' between 7 and 8.35", "movies/2,movies/4")]
    [InlineData("from Movies where 'Major Genre' in ('Comedy', 'Horror')", "movies/1,movies/3")]
    [InlineData("from Movies where search('Plot Summary', 'train')", "movies/2,movies/4")]
    [InlineData("from Movies where startsWith('Original Title', 'Le')", "movies/2,movies/3")]
    [InlineData("from Movies where endsWith('e-mail', '.org')", "movies/3")]
    [InlineData("from Movies where exists('e-mail')", "movies/1,movies/3")]
    [InlineData("from Movies where not 'Major Genre' = 'Drama'", "movies/1,movies/3")]
    [InlineData("from Movies where 'Sales Lines'[].'Unit Price' > 10", "movies/1")]
    [InlineData("from Movies where Address.'e-mail' = 'x@y.org'", "movies/1")]
    [InlineData("from Movies where 'a.b' = 'dotted'", "movies/1")]
    [InlineData("from Movies where a.b = 'nested'", "movies/1")]
    [InlineData("from Movies where a.b = 'dotted'", "")]
    [InlineData("from index 'Movies/ByGenre' where Genre = 'Drama'", "movies/2,movies/4")]
    [InlineData("from index 'Movies/ByGenre' where 'Major Genre' = 'Drama'", "movies/2,movies/4")]
    [InlineData("from index 'Movies/ByGenre' where search(Plot, 'train')", "movies/2,movies/4")]
    [InlineData("from index 'Movies/ByGenre' where 'Unit Price' > 10", "movies/1")]
    public async Task Query_QuotedNamesInConditions_FindTheDocumentsThatHoldThem(string rql, string expected)
    {
        await PutStaticIndexAsync();

        var answer = await QueryAsync(rql);

        Assert.Equal(expected, string.Join(",", Ids(answer).Order(StringComparer.Ordinal)));
    }

    [Fact]
    public async Task Query_OrderByAndSelectOfQuotedNames_SortsAndProjectsUnderTheDocumentsNames()
    {
        var answer = await QueryAsync("from Movies where 'IMDB Rating' > 0 order by 'IMDB Rating' as double desc select Title, 'US Gross' as Gross, 'a.b', Address.'e-mail'");

        var results = answer.GetProperty("Results");
        Assert.Equal(["Alien", "Amélie", "Heat", "Major Genre"], results.EnumerateArray().Select(r => r.GetProperty("Title").GetString()));
        Assert.Equal(80931801, results[0].GetProperty("Gross").GetInt64());
        Assert.Equal("dotted", results[0].GetProperty("a.b").GetString());
        Assert.Equal("x@y.org", results[0].GetProperty("Address.e-mail").GetString());
        Assert.Equal(JsonValueKind.Null, results[1].GetProperty("a.b").ValueKind);
    }

    [Fact]
    public async Task Query_StaticIndexFieldsOverQuotedPaths_SortByTheirNames()
    {
        await PutStaticIndexAsync();

        var answer = await QueryAsync("from index 'Movies/ByGenre' where Rating > 8 order by Rating as double desc");

        Assert.Equal(["movies/1", "movies/3", "movies/4"], Ids(answer));
    }

    [Theory]
    [InlineData("from Movies")]
    [InlineData("from index 'Movies/ByGenre'")]
    public async Task Query_FacetsOnQuotedNames_CountUnderTheDocumentsName(string from)
    {
        await PutStaticIndexAsync();

        var facets = (await QueryAsync($"{from} select facet('Major Genre'), facet('IMDB Rating' < 8, 'IMDB Rating' >= 8)")).GetProperty("Results");

        Assert.Equal("Major Genre", facets[0].GetProperty("Name").GetString());
        Assert.Equal(
            ["comedy:1", "drama:2", "horror:1"],
            facets[0].GetProperty("Values").EnumerateArray().Select(v => $"{v.GetProperty("Range").GetString()!.ToLowerInvariant()}:{v.GetProperty("Count").GetInt64()}").Order(StringComparer.Ordinal));
        Assert.Equal("IMDB Rating", facets[1].GetProperty("Name").GetString());
        Assert.Equal(["'IMDB Rating' < 8:1", "'IMDB Rating' >= 8:3"], facets[1].GetProperty("Values").EnumerateArray().Select(v => $"{v.GetProperty("Range").GetString()}:{v.GetProperty("Count").GetInt64()}"));
    }

    [Fact]
    public async Task Query_IncludesOfQuotedNames_LoadTheReferencedDocuments()
    {
        var answer = await QueryAsync("from Movies where 'Major Genre' = 'Horror' include 'Director Id', 'Sales Lines'[].'Product Id'");

        var includes = answer.GetProperty("Includes");
        Assert.Equal("Ridley Scott", includes.GetProperty("people/1").GetProperty("Name").GetString());
        Assert.Equal("Poster", includes.GetProperty("products/1").GetProperty("Name").GetString());
    }

    [Fact]
    public async Task Query_QuotedNamesWithoutAnOperator_Answers400WithThePosition()
    {
        const string rql = "from Movies where 'Major Genre' 'Drama'";

        using var response = await Client.PostAsync($"/databases/{_db}/queries", FolioApi.Json(JsonSerializer.Serialize(new { Query = rql })));

        var problem = await ProblemAssert.IsProblemAsync(response, HttpStatusCode.BadRequest, ProblemTypes.InvalidQuery);
        Assert.Contains($"after 'Major Genre' but found the string 'Drama' (at position {rql.IndexOf("'Drama'", StringComparison.Ordinal)})", problem.GetProperty("detail").GetString(), StringComparison.Ordinal);
    }

    private async Task PutStaticIndexAsync()
    {
        const string definition = """
            {"Indexes":[{"Name":"Movies/ByGenre","Collections":["Movies"],"Fields":{
              "Genre":{"Path":"'Major Genre'"},"Major Genre":{"Path":"'Major Genre'"},
              "IMDB Rating":{"Path":"'IMDB Rating'","Type":"Double"},"Rating":{"Path":"'IMDB Rating'","Type":"Double"},
              "Plot":{"Path":"'Plot Summary'","Search":true},"Unit Price":{"Path":"'Sales Lines'[].'Unit Price'","Type":"Double"}}}]}
            """;
        using var put = await Client.PutAsync($"/databases/{_db}/indexes", FolioApi.Json(definition));
        Assert.True(put.StatusCode is HttpStatusCode.Created or HttpStatusCode.OK, $"PUT index answered {(int)put.StatusCode}");
    }

    private static List<string> Ids(JsonElement answer) =>
        [.. answer.GetProperty("Results").EnumerateArray().Select(r => r.GetProperty("@metadata").GetProperty("@id").GetString()!)];

    private async Task<JsonElement> QueryAsync(string rql)
    {
        using var response = await Client.PostAsync($"/databases/{_db}/queries", FolioApi.Json(JsonSerializer.Serialize(new { Query = rql, WaitForNonStaleResults = true })));
        var body = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == HttpStatusCode.OK, $"{rql} answered {(int)response.StatusCode}: {body}");
        return JsonDocument.Parse(body).RootElement.Clone();
    }
}
