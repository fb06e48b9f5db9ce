using System.Net;
using System.Text.Json;
using Folio.Server.Http;
using Folio.Server.Tests.Support;
using static Folio.Server.Tests.Support.FolioApi;

namespace Folio.Server.Tests.Engines;

/// <summary>
/// Fuzzy words, phrases within a slop, boosts and highlighting over HTTP, on one index per engine over the same
/// documents: each engine answers as expected and both answer alike, highlightings included; bad input is a 400
/// problem naming the position in the query.
/// </summary>
public sealed class SearchFeaturesOverHttpTests
{
    private const string Definition = """{"Name":"Notes/ENGINE","Collections":["Notes"],"SearchEngine":"ENGINE","Fields":{"Name":{},"Body":{"Search":true}}}""";

    [Fact]
    public async Task Query_AnswersFuzzyPhraseBoostAndHighlight_AlikeOnBothEngines()
    {
        await using var server = await RunningServer.StartAsync();
        var db = await CreateDatabaseAsync(server.Client);
        await StoreAsync(server.Client, db, "notes/1", """{"Name":"Ernst Handel","Body":"She speaks fluent French and some German","@metadata":{"@collection":"Notes"}}""");
        await StoreAsync(server.Client, db, "notes/2", """{"Name":"Anna Handle","Body":"Bonjour: a french greeting, fluent","@metadata":{"@collection":"Notes"}}""");
        await StoreAsync(server.Client, db, "notes/3", """{"Name":"Bob","Body":"He reads technical German and writes French","@metadata":{"@collection":"Notes"}}""");
        var definitions = string.Join(',', new[] { "Folio", "Lucene" }.Select(e => Definition.Replace("ENGINE", e, StringComparison.Ordinal)));
        using (var put = await server.Client.PutAsync($"/databases/{db}/indexes", FolioApi.Json($$"""{"Indexes":[{{definitions}}]}""")))
            Assert.Equal(HttpStatusCode.Created, put.StatusCode);

        string[] queries =
        [
            "where search(Body, 'frnech~1') order by id()",
            "where fuzzy(Name = 'Ernts Hnadel', 0.5)",
            "where search(Body, '\"fluent french\"~3') order by id()",
            "where proximity(search(Body, 'fluent french'), 0)",
            "where boost(search(Body, 'technical'), 20) or search(Body, 'fluent') order by score()",
            "where boost(Name = 'Bob', 100) or search(Body, 'fluent') order by score()",
            "where search(Body, 'french germn~') order by id() include highlight(Body, 24, 2)",
        ];
        var answers = new Dictionary<string, string>();
        foreach (var query in queries)
        {
            var folio = await QueryAsync(server.Client, db, $"from index 'Notes/Folio' {query}");
            var lucene = await QueryAsync(server.Client, db, $"from index 'Notes/Lucene' {query}");
            // Ranked: the boosted first, the rest as a set (the two BM25s may order near-ties differently).
            if (query.EndsWith("score()", StringComparison.Ordinal))
                (folio, lucene) = (FirstThenSorted(folio), FirstThenSorted(lucene));
            Assert.Equal(folio, lucene);
            answers[query] = folio;
        }
        Assert.StartsWith("notes/1 notes/2 notes/3 |", answers[queries[0]], StringComparison.Ordinal);
        Assert.StartsWith("notes/1 |", answers[queries[1]], StringComparison.Ordinal);
        Assert.StartsWith("notes/1 notes/2 |", answers[queries[2]], StringComparison.Ordinal);
        Assert.StartsWith("notes/1 |", answers[queries[3]], StringComparison.Ordinal);
        Assert.StartsWith("notes/3 ", answers[queries[4]], StringComparison.Ordinal);
        Assert.StartsWith("notes/3 ", answers[queries[5]], StringComparison.Ordinal);
        // Fragments of at most 24 characters, cut at tokens: the one with two terms first, equals in text order.
        Assert.Equal(
            """notes/1 notes/2 notes/3 | {"Body":{"notes/1":["She speaks fluent <b>French</b>","some <b>German</b>"],"notes/2":["Bonjour: a <b>french</b>"],"notes/3":["<b>German</b> and writes <b>French</b>"]}}""",
            answers[queries[6]]);
    }

    [Theory]
    [InlineData("from Notes where search(Body, 'frnech~9')", 38)]
    [InlineData("from Notes where search(Body, '\"fluent french\"~-1')", 47)]
    [InlineData("from Notes where proximity(search(Body, 'fluent french'), -2)", 58)]
    [InlineData("from Notes where boost(search(Body, 'french'), -1)", 47)]
    [InlineData("from Notes where search(Body, 'french') include highlight(Body, 0, 1)", 64)]
    public async Task Query_WithOutOfRangeFeatureArguments_Is400NamingThePosition(string rql, int position)
    {
        await using var server = await RunningServer.StartAsync();
        var db = await CreateDatabaseAsync(server.Client);
        await StoreAsync(server.Client, db, "notes/1", """{"Body":"fluent French","@metadata":{"@collection":"Notes"}}""");
        using var response = await server.Client.PostAsync($"/databases/{db}/queries", FolioApi.Json(JsonSerializer.Serialize(new { Query = rql })));
        var problem = await ProblemAssert.IsProblemAsync(response, HttpStatusCode.BadRequest, ProblemTypes.InvalidQuery);
        Assert.EndsWith($"(at position {position})", problem.GetProperty("detail").GetString(), StringComparison.Ordinal);
    }

    private static string FirstThenSorted(string answer)
    {
        var (ids, rest) = (answer[..answer.IndexOf(" |", StringComparison.Ordinal)].Split(' '), answer[answer.IndexOf(" |", StringComparison.Ordinal)..]);
        return ids[0] + " " + string.Join(' ', ids.Skip(1).Order(StringComparer.Ordinal)) + rest;
    }

    /// <summary>The ids in order, then the highlightings as the server wrote them.</summary>
    private static async Task<string> QueryAsync(HttpClient client, string db, string rql)
    {
        using var response = await client.PostAsync($"/databases/{db}/queries", FolioApi.Json(JsonSerializer.Serialize(new { Query = rql, WaitForNonStaleResults = true })));
        var body = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == HttpStatusCode.OK, body);
        using var json = JsonDocument.Parse(body);
        var ids = string.Join(' ', json.RootElement.GetProperty("Results").EnumerateArray().Select(r => r.GetProperty("@metadata").GetProperty("@id").GetString()));
        var highlightings = json.RootElement.TryGetProperty("Highlightings", out var h) ? h.GetRawText() : "";
        return $"{ids} | {highlightings}";
    }
}
