using System.Net;
using System.Text.Json;
using System.Text.RegularExpressions;
using Folio.Server.Http;
using Folio.Server.Tests.MapReduce;
using Folio.Server.Tests.Support;
using static Folio.Server.Tests.Support.FolioApi;

namespace Folio.Server.Tests.Queries;

/// <summary>
/// The seeds' operators and clauses (<c>exact</c>, <c>regex</c>, <c>all in</c>, <c>search(…, and|or)</c>, a bare
/// <c>true</c>, <c>select distinct</c>, <c>order by random()</c> and <c>as alphanumeric</c>, <c>include timings()</c> and
/// <c>explanations()</c>) over HTTP, on each search engine, through the collection's auto index and a static index: every
/// answer is checked against one computed here with plain C# over the generated companies.
/// </summary>
public sealed class RqlOperatorsTests
{
    private const int Count = 240;
    private const string Static = """{"Name":"Companies/Static","Collections":["Companies"],"SearchEngine":"ENGINE","Fields":{"Name":{"CaseSensitive":true},"Folded":{"Path":"Name"},"Country":{},"City":{},"Tags":{"Path":"Tags[]"},"Notes":{"Search":true},"Code":{},"Fax":{}}}""";
    private static readonly string[] Names = ["Ernst Handel", "ernst handel", "ERNST HANDEL", "Nord-Ost-Fisch", "nord-ost", "Alfreds Futterkiste", "Around the Horn", "around the horn", "Blondel père et fils", "Bólido Comidas", "North/South", "Antonio Moreno"];
    private static readonly string[] Countries = ["France", "france", "Germany", "Spain", "UK", "Mexico"];
    private static readonly string[] Cities = ["Paris", "Lyon", "Berlin", "London"];
    private static readonly string[] TagValues = ["a", "b", "c", "A", "B", "d"];
    private static readonly string[] Words = ["fluent", "french", "german", "english", "polite", "quick"];

    [Theory]
    [InlineData("Folio")]
    [InlineData("Lucene")]
    public async Task Operators_AnswerAsTheOracle_OnAutoAndStaticIndexes(string engine)
    {
        await using var server = await RunningServer.StartAsync($"--Indexing:SearchEngine={engine}");
        var db = await CreateDatabaseAsync(server.Client);
        var companies = Generate(seed: 29);
        await MapReduceOracleTests.LoadAsync(server.Client, db, [.. companies.Select(c => (c.Id, (string?)c.Json))]);
        using (var put = await server.Client.PutAsync($"/databases/{db}/indexes", FolioApi.Json($$"""{"Indexes":[{{Static.Replace("ENGINE", engine, StringComparison.Ordinal)}}]}""")))
            Assert.Equal(HttpStatusCode.Created, put.StatusCode);

        var nameRegex = new Regex("^[NA]", RegexOptions.CultureInvariant);
        (string Where, Func<Company, bool> Oracle)[] conditions =
        [
            ("exact(Name = 'Ernst Handel')", c => c.Name == "Ernst Handel"),
            ("exact(Name in ('Ernst Handel', 'around the horn'))", c => c.Name is "Ernst Handel" or "around the horn"),
            ("exact(Name != 'Ernst Handel') and Country = 'FRANCE'", c => c.Name != "Ernst Handel" && c.Country.Equals("france", StringComparison.OrdinalIgnoreCase)),
            ("exact(startsWith(Name, 'Nord'))", c => c.Name.StartsWith("Nord", StringComparison.Ordinal)),
            // Regression: exact() around intersect() asked an auto index for a case-sensitive twin it had not made (500).
            ("exact(intersect(Name >= 'N', Name < 'O'))", c => string.CompareOrdinal(c.Name, "N") >= 0 && string.CompareOrdinal(c.Name, "O") < 0),
            ("regex(Name, '^[NA]')", c => nameRegex.IsMatch(c.Name)),
            ("Tags all in ('a', 'b')", c => c.Tags.Contains("a", StringComparer.OrdinalIgnoreCase) && c.Tags.Contains("b", StringComparer.OrdinalIgnoreCase)),
            ("Tags all in ('c')", c => c.Tags.Contains("c", StringComparer.OrdinalIgnoreCase)),
            ("search(Notes, 'fluent french', and)", c => c.Words.Contains("fluent") && c.Words.Contains("french")),
            ("search(Notes, 'fluent french', or)", c => c.Words.Contains("fluent") || c.Words.Contains("french")),
            ("true and not exists(Fax)", c => c.Fax is null),
            ("true", _ => true),
        ];
        foreach (var source in new[] { "from Companies", "from index 'Companies/Static'" })
        {
            foreach (var (where, oracle) in conditions)
            {
                var answer = await QueryAsync(server.Client, db, $"{source} where {where} limit 1000");
                var expected = companies.Where(oracle).Select(c => c.Id).Order(StringComparer.Ordinal).ToList();
                Assert.True(expected.Count > 0, $"the oracle expects nothing of {where}: the data set does not test it");
                var actual = Ids(answer).Order(StringComparer.Ordinal).ToList();
                Assert.True(expected.SequenceEqual(actual), $"{source} where {where}: expected {expected.Count} [{string.Join(", ", expected.Except(actual).Take(5))} missing], got {actual.Count} [{string.Join(", ", actual.Except(expected).Take(5))} unexpected]");
                Assert.Equal(expected.Count, answer.GetProperty("TotalResults").GetInt64());
            }
            await CheckDistinctAsync(server.Client, db, source, companies);
            await CheckOrdersAsync(server.Client, db, source, companies);
            await CheckDiagnosticsAsync(server.Client, db, source);
        }
        // A static field that folds case matches a regex ignoring case.
        var folded = await QueryAsync(server.Client, db, "from index 'Companies/Static' where regex(Folded, '^[NA]') limit 1000");
        Assert.Equal(companies.Where(c => char.ToUpperInvariant(c.Name[0]) is 'N' or 'A').Select(c => c.Id).Order(StringComparer.Ordinal), Ids(folded).Order(StringComparer.Ordinal));
    }

    [Theory]
    [InlineData("from Companies where regex(Name, '(')", 33, "not a valid regular expression")]
    [InlineData("from Companies where regex(Name, '(a)\\\\1')", 33, "without backtracking")]
    [InlineData("from Companies order by Code as natural", 32, "alphanumeric")]
    [InlineData("from Companies group by Country select distinct Country", 39, "group by")]
    [InlineData("from Companies order by Name, random()", 30, "only key")]
    [InlineData("from index 'Companies/Static' where exact(Folded = 'x')", 36, "CaseSensitive")]
    [InlineData("from Companies where search(Notes, 'x', xor)", 40, "and or or")]
    public async Task Query_WithABadOperator_Is400NamingThePosition_AndTheServerKeepsServing(string rql, int position, string says)
    {
        await using var server = await RunningServer.StartAsync();
        var db = await CreateDatabaseAsync(server.Client);
        await StoreAsync(server.Client, db, "companies/1", """{"Name":"Ernst Handel","Code":"a1","Notes":"x","@metadata":{"@collection":"Companies"}}""");
        using (var put = await server.Client.PutAsync($"/databases/{db}/indexes", FolioApi.Json($$"""{"Indexes":[{{Static.Replace("ENGINE", "Folio", StringComparison.Ordinal)}}]}""")))
            Assert.Equal(HttpStatusCode.Created, put.StatusCode);

        using var response = await server.Client.PostAsync($"/databases/{db}/queries", FolioApi.Json(JsonSerializer.Serialize(new { Query = rql })));
        var problem = await ProblemAssert.IsProblemAsync(response, HttpStatusCode.BadRequest, ProblemTypes.InvalidQuery);
        var detail = problem.GetProperty("detail").GetString()!;
        Assert.Contains(says, detail, StringComparison.Ordinal);
        Assert.EndsWith($"(at position {position})", detail, StringComparison.Ordinal);
        await AssertServingAsync(server.Client);
        Assert.Single(Ids(await QueryAsync(server.Client, db, "from Companies where exact(Name = 'Ernst Handel')")));
    }

    /// <summary><c>select distinct</c> of one field and of two, whole and a page at a time (paging counts distinct rows).</summary>
    private static async Task CheckDistinctAsync(HttpClient client, string db, string source, List<Company> companies)
    {
        var countries = companies.Where(c => c.Fax is not null).Select(c => c.Country).Distinct(StringComparer.Ordinal).Order(StringComparer.Ordinal).ToList();
        var all = await QueryAsync(client, db, $"{source} where exists(Fax) select distinct Country limit 1000");
        Assert.Equal(countries, Rows(all, "Country").Order(StringComparer.Ordinal));
        Assert.Equal(countries.Count, all.GetProperty("TotalResults").GetInt64());
        var paged = new List<string>();
        for (var offset = 0; offset < countries.Count + 2; offset += 2)
        {
            var page = await QueryAsync(client, db, $"{source} where exists(Fax) select distinct Country limit 2 offset {offset}");
            Assert.Equal(countries.Count, page.GetProperty("TotalResults").GetInt64());
            paged.AddRange(Rows(page, "Country"));
        }
        Assert.Equal(Rows(all, "Country"), paged);

        var pairs = companies.Select(c => $"{c.Country}|{c.City}").Distinct(StringComparer.Ordinal).Order(StringComparer.Ordinal).ToList();
        var two = await QueryAsync(client, db, $"{source} where true select distinct Country, City as Town limit 1000");
        Assert.Equal(pairs, two.GetProperty("Results").EnumerateArray().Select(r => $"{r.GetProperty("Country").GetString()}|{r.GetProperty("Town").GetString()}").Order(StringComparer.Ordinal));
    }

    /// <summary><c>order by F as alphanumeric</c> against a natural sort written here, and <c>random('seed')</c> as a repeatable permutation.</summary>
    private static async Task CheckOrdersAsync(HttpClient client, string db, string source, List<Company> companies)
    {
        var natural = companies.OrderBy(c => c.Code.ToLowerInvariant(), Comparer<string>.Create(NaturalCompare)).Select(c => c.Id).ToList();
        Assert.Equal(natural, Ids(await QueryAsync(client, db, $"{source} where true order by Code as alphanumeric limit 1000")));
        natural.Reverse();
        Assert.Equal(natural[..10], Ids(await QueryAsync(client, db, $"{source} where true order by Code as alphanumeric desc limit 10")));

        var all = companies.Select(c => c.Id).Order(StringComparer.Ordinal).ToList();
        var first = Ids(await QueryAsync(client, db, $"{source} where true order by random('north') limit 1000"));
        Assert.Equal(all, first.Order(StringComparer.Ordinal));
        Assert.Equal(first, Ids(await QueryAsync(client, db, $"{source} where true order by random('north') limit 1000")));
        Assert.Equal(first[5..15], Ids(await QueryAsync(client, db, $"{source} where true order by random('north') limit 10 offset 5")));
        Assert.NotEqual(first, Ids(await QueryAsync(client, db, $"{source} where true order by random('south') limit 1000")));
        Assert.NotEqual(all, first);
        Assert.NotEqual(Ids(await QueryAsync(client, db, $"{source} where true order by random() limit 1000")), Ids(await QueryAsync(client, db, $"{source} where true order by random() limit 1000")));
    }

    /// <summary><c>include timings()</c> has every stage; <c>include explanations()</c> explains every result of the page.</summary>
    private static async Task CheckDiagnosticsAsync(HttpClient client, string db, string source)
    {
        var answer = await QueryAsync(client, db, $"{source} where search(Notes, 'fluent french') order by score() limit 5 include timings(), explanations()");
        var timings = answer.GetProperty("Timings");
        var total = timings.GetProperty("DurationInMs").GetDouble();
        var stages = timings.GetProperty("Timings").EnumerateObject().ToDictionary(p => p.Name, p => p.Value.GetProperty("DurationInMs").GetDouble());
        Assert.Equal(["Load", "Parse", "Plan", "Projection", "Query"], stages.Keys.Order(StringComparer.Ordinal));
        Assert.All(stages.Values, ms => Assert.InRange(ms, 0, total + 0.01));
        Assert.InRange(stages.Values.Sum(), 0, total + 0.01);
        var explanations = answer.GetProperty("Explanations");
        var ids = Ids(answer);
        Assert.Equal(5, ids.Count);
        foreach (var id in ids)
        {
            var text = Assert.Single(explanations.GetProperty(id).EnumerateArray()).GetString()!;
            // The first number is the score, and some part of it names a searched word.
            Assert.Matches(@"^\d", text);
            Assert.True(text.Contains("fluent", StringComparison.Ordinal) || text.Contains("french", StringComparison.Ordinal), text);
        }
        Assert.False((await QueryAsync(client, db, $"{source} where true limit 1")).TryGetProperty("Timings", out _));
    }

    /// <summary>Natural order as people read it: chunks of digits compare as numbers, other chunks as text.</summary>
    private static int NaturalCompare(string a, string b)
    {
        var x = Regex.Split(a, "([0-9]+)");
        var y = Regex.Split(b, "([0-9]+)");
        for (var i = 0; i < Math.Min(x.Length, y.Length); i++)
        {
            var compared = i % 2 == 1 ? decimal.Parse(x[i], System.Globalization.CultureInfo.InvariantCulture).CompareTo(decimal.Parse(y[i], System.Globalization.CultureInfo.InvariantCulture)) : string.CompareOrdinal(x[i], y[i]);
            if (compared != 0)
                return compared;
        }
        return x.Length.CompareTo(y.Length);
    }

    private static List<Company> Generate(int seed)
    {
        var random = new Random(seed);
        var codes = Enumerable.Range(1, Count).Select(n => (random.Next(3) switch { 0 => "a", 1 => "B", _ => "x-y" }) + n.ToString(System.Globalization.CultureInfo.InvariantCulture)).OrderBy(_ => random.Next()).ToList();
        var companies = new List<Company>(Count);
        for (var i = 0; i < Count; i++)
        {
            var name = Names[random.Next(Names.Length)];
            var tags = TagValues.Where(_ => random.Next(3) == 0).ToArray();
            var words = Enumerable.Range(0, 2 + random.Next(4)).Select(_ => Words[random.Next(Words.Length)]).ToArray();
            var fax = random.Next(3) == 0 ? null : $"030-{i:D4}";
            var company = new Company($"companies/{i + 1}", name, Countries[random.Next(Countries.Length)], Cities[random.Next(Cities.Length)], tags, words, codes[i], fax);
            companies.Add(company);
        }
        return companies;
    }

    private static List<string> Ids(JsonElement answer) =>
        [.. answer.GetProperty("Results").EnumerateArray().Select(r => r.GetProperty("@metadata").GetProperty("@id").GetString()!)];

    private static List<string> Rows(JsonElement answer, string property) =>
        [.. answer.GetProperty("Results").EnumerateArray().Select(r => r.GetProperty(property).GetString()!)];

    private static async Task<JsonElement> QueryAsync(HttpClient client, string db, string rql)
    {
        using var response = await client.PostAsync($"/databases/{db}/queries", FolioApi.Json(JsonSerializer.Serialize(new { Query = rql, WaitForNonStaleResults = true })));
        var body = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == HttpStatusCode.OK, $"{rql}: {body}");
        return JsonDocument.Parse(body).RootElement.Clone();
    }

    private sealed record Company(string Id, string Name, string Country, string City, string[] Tags, string[] Words, string Code, string? Fax)
    {
        public string Json => JsonSerializer.Serialize(new Dictionary<string, object?>
        {
            ["Name"] = Name,
            ["Country"] = Country,
            ["City"] = City,
            ["Tags"] = Tags,
            ["Notes"] = string.Join(' ', Words.Select((w, i) => i % 2 == 0 ? char.ToUpperInvariant(w[0]) + w[1..] : w)),
            ["Code"] = Code,
            ["@metadata"] = new Dictionary<string, string> { ["@collection"] = "Companies" },
        }.Concat(Fax is null ? [] : [new KeyValuePair<string, object?>("Fax", Fax)]).ToDictionary());
    }
}
