using System.Net;
using System.Text.Json;
using Folio.Server.Http;
using Folio.Server.Tests.Support;
using static Folio.Server.Tests.Support.FolioApi;

namespace Folio.Server.Tests.Rql;

/// <summary>
/// <c>morelikethis()</c> on a static index per engine over a small corpus whose expected answers are worked out by hand
/// below (tf-idf with idf = 1 + ln(N / (df + 1)), N = 7 articles), the source document left out.
/// </summary>
/// <remarks>
/// Body terms (the analyzer lower-cases and stems; these words are their own stems): articles/1 has raven ×3, database ×2,
/// index, query. Document frequencies: raven 3 (1, 2, 5), database 3 (1, 2, 3), index 2 (1, 3), query 1. Scores: raven
/// 3 × 1.560 = 4.68, database 2 × 1.560 = 3.12, query 1 × 2.253 = 2.25, index 1 × 1.847 = 1.85. Unboosted, the query is a
/// plain disjunction of the chosen terms, so the engines rank entries by their own scoring: those with as many terms
/// and the same length may come in either order.
/// </remarks>
public sealed class MoreLikeThisTests
{
    private const string Definition = """{"Name":"Articles/ENGINE","Collections":["Articles"],"SearchEngine":"ENGINE","Fields":{"Name":{},"Topic":{},"Body":{"Search":true}}}""";

    private static readonly (string Id, string Body, string Topic)[] Corpus =
    [
        ("articles/1", "raven database raven index query raven database", "Databases"),
        ("articles/2", "raven database replication cluster", "databases"),
        ("articles/3", "database index storage engine", "Storage"),
        ("articles/4", "cooking pasta tomato sauce", "Food"),
        ("articles/5", "raven bird black wing", "Birds"),
        ("articles/6", "cluster replication consensus", "Databases"),
        ("articles/7", "tomato garden summer", "Food"),
    ];

    private const string AllTerms = """'{"MinimumTermFrequency":1,"MinimumDocumentFrequency":1}'""";

    public static TheoryData<string, string> Cases => new()
    {
        // The defaults (a term twice in the source, in 5 entries at least): no term of this small corpus qualifies.
        { "where morelikethis(id() = 'articles/1')", "" },
        // Every term: raven, database, query, index, unboosted: articles/2 and 3 have two each, articles/5 one.
        { $"where morelikethis(id() = 'articles/1', {AllTerms})", "{articles/2 articles/3} articles/5" },
        // Boosted by tf-idf, raven and database outweigh database and index.
        { """where morelikethis(id() = 'articles/1', '{"MinimumTermFrequency":1,"MinimumDocumentFrequency":1,"Boost":true}')""", "articles/2 articles/3 articles/5" },
        // The best term alone.
        { """where morelikethis(id() = 'articles/1', '{"Fields":["Body"],"MinimumTermFrequency":1,"MinimumDocumentFrequency":1,"MaximumQueryTerms":1}')""", "{articles/2 articles/5}" },
        // Terms at least twice in the source: raven and database.
        { """where morelikethis(id() = 'Articles/1', '{"MinimumTermFrequency":2,"MinimumDocumentFrequency":1}')""", "articles/2 {articles/3 articles/5}" },
        // Terms in at most 2 entries: index and query, which only articles/3 shares.
        { """where morelikethis(id() = 'articles/1', '{"MinimumTermFrequency":1,"MinimumDocumentFrequency":1,"MaximumDocumentFrequency":2}')""", "articles/3" },
        // Words of at least 6 letters: database alone.
        { """where morelikethis(id() = 'articles/1', '{"MinimumTermFrequency":1,"MinimumDocumentFrequency":1,"MinimumWordLength":6}')""", "{articles/2 articles/3}" },
        // Combined with another condition.
        { $"where morelikethis(id() = 'articles/1', {AllTerms}) and Name != 'five'", "{articles/2 articles/3}" },
        // An artificial document: tomato twice and sauce; nothing is left out.
        { """where morelikethis('{"Body":"tomato sauce tomato"}', '{"MinimumTermFrequency":1,"MinimumDocumentFrequency":1}')""", "articles/4 articles/7" },
        // An exact field compares whole values (case-folded): the source's topic, databases, is articles/2's and 6's.
        { """where morelikethis(id() = 'articles/1', '{"Fields":["Topic"],"MinimumTermFrequency":1,"MinimumDocumentFrequency":1}')""", "{articles/2 articles/6}" },
        // Both kinds at once: articles/6 shares only the topic, so it comes after articles/2 (terms and topic) but still comes.
        { """where morelikethis(id() = 'articles/1', '{"Fields":["Topic","Body"],"MinimumTermFrequency":1,"MinimumDocumentFrequency":1}')""", "articles/2 {articles/3 articles/6 articles/5}" },
        // Parameters for the id and the options (an object).
        { "where morelikethis(id() = $id, $options)", "{articles/2 articles/3} articles/5" },
    };

    [Theory]
    [MemberData(nameof(Cases))]
    public async Task MoreLikeThis_AnswersTheHandBuiltList_OnBothEngines(string where, string expected)
    {
        await using var server = await RunningServer.StartAsync();
        var db = await SeedAsync(server.Client);
        foreach (var engine in new[] { "Folio", "Lucene" })
        {
            var ids = await QueryIdsAsync(server.Client, db, $"from index 'Articles/{engine}' {where}");
            Assert.True(Matches(expected, ids), $"{engine}: expected {expected}, got {string.Join(' ', ids)}");
        }
    }

    [Theory]
    [InlineData("from Articles where morelikethis(id() = 'articles/1')", 20)]
    [InlineData("from index 'Articles/Folio' where morelikethis(id() = 'articles/1', '{\"Fields\":[\"Missing\"]}')", -1)]
    [InlineData("from index 'Articles/Folio' where morelikethis(id() = 'articles/1', '{\"MinimumTermFrequency\":-1}')", -1)]
    [InlineData("from index 'Articles/Folio' where morelikethis(id() = 'articles/1', '{\"Colour\":1}')", -1)]
    [InlineData("from index 'Articles/Folio' where morelikethis(id() = 'articles/1', '{not json')", 68)]
    [InlineData("from index 'Articles/Folio' where morelikethis(id() = 'articles/1'", -1)]
    public async Task MoreLikeThis_WithBadInput_Is400AndMakesNoIndex(string rql, int position)
    {
        await using var server = await RunningServer.StartAsync();
        var db = await SeedAsync(server.Client);
        using var response = await server.Client.PostAsync($"/databases/{db}/queries", FolioApi.Json(JsonSerializer.Serialize(new { Query = rql })));
        var problem = await ProblemAssert.IsProblemAsync(response, HttpStatusCode.BadRequest, ProblemTypes.InvalidQuery);
        if (position >= 0)
            Assert.EndsWith($"(at position {position})", problem.GetProperty("detail").GetString(), StringComparison.Ordinal);
        var indexes = await GetJsonAsync(server.Client, $"/databases/{db}/indexes");
        Assert.DoesNotContain("Auto/", indexes.GetRawText(), StringComparison.Ordinal);
    }

    private static async Task<string> SeedAsync(HttpClient client)
    {
        var db = await CreateDatabaseAsync(client);
        var names = new[] { "one", "two", "three", "four", "five", "six", "seven" };
        for (var i = 0; i < Corpus.Length; i++)
        {
            var json = JsonSerializer.Serialize(new Dictionary<string, object> { ["Name"] = names[i], ["Body"] = Corpus[i].Body, ["Topic"] = Corpus[i].Topic, ["@metadata"] = new Dictionary<string, string> { ["@collection"] = "Articles" } });
            await StoreAsync(client, db, Corpus[i].Id, json);
        }
        var definitions = string.Join(',', new[] { "Folio", "Lucene" }.Select(e => Definition.Replace("ENGINE", e, StringComparison.Ordinal)));
        using var put = await client.PutAsync($"/databases/{db}/indexes", FolioApi.Json($$"""{"Indexes":[{{definitions}}]}"""));
        Assert.Equal(HttpStatusCode.Created, put.StatusCode);
        return db;
    }

    private static async Task<List<string>> QueryIdsAsync(HttpClient client, string db, string rql)
    {
        var body = JsonSerializer.Serialize(new
        {
            Query = rql,
            QueryParameters = new { id = "articles/1", options = new { MinimumTermFrequency = 1, MinimumDocumentFrequency = 1 } },
            WaitForNonStaleResults = true,
        });
        using var response = await client.PostAsync($"/databases/{db}/queries", FolioApi.Json(body));
        var text = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == HttpStatusCode.OK, text);
        using var json = JsonDocument.Parse(text);
        return [.. json.RootElement.GetProperty("Results").EnumerateArray().Select(r => r.GetProperty("@metadata").GetProperty("@id").GetString()!)];
    }

    /// <summary>Whether <paramref name="ids"/> follow <paramref name="expected"/>: ids in order, a group in braces in any order among itself.</summary>
    private static bool Matches(string expected, List<string> ids)
    {
        var position = 0;
        foreach (var group in expected.Split(['{', '}'], StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            var members = group.Split(' ', StringSplitOptions.RemoveEmptyEntries);
            var inBraces = expected.Contains('{' + group + '}', StringComparison.Ordinal);
            if (position + members.Length > ids.Count)
                return false;
            var actual = ids.GetRange(position, members.Length);
            if (inBraces ? !actual.Order(StringComparer.Ordinal).SequenceEqual(members.Order(StringComparer.Ordinal)) : !actual.SequenceEqual(members))
                return false;
            position += members.Length;
        }
        return position == ids.Count;
    }
}
