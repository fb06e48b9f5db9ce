using System.Diagnostics;
using System.Net;
using System.Text;
using System.Text.Json;
using Folio.Server.Http;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Hostile;

/// <summary>
/// Queries that would eat the server (issue 24): each is answered within a bound or refused with a 4xx
/// problem, on both engines, and the server answers a small query meanwhile.
/// </summary>
public sealed class HostileQueryTests(HostileQueryFixture fixture) : IClassFixture<HostileQueryFixture>
{
    private HttpClient Client => fixture.Server.Client;

    private Task<HttpResponseMessage> QueryAsync(string rql, string? queryString = null) =>
        Client.PostAsync($"/databases/{fixture.Database}/queries{queryString}", FolioApi.Json(JsonSerializer.Serialize(new { Query = rql })));

    private async Task<JsonElement> OkAsync(string rql)
    {
        using var response = await QueryAsync(rql);
        var body = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == HttpStatusCode.OK, $"{(int)response.StatusCode}: {body[..Math.Min(body.Length, 500)]}");
        return JsonDocument.Parse(body).RootElement.Clone();
    }

    private static string InList(int count, Func<int, string> value)
    {
        var list = new StringBuilder(count * 16);
        for (var i = 0; i < count; i++)
        {
            if (i > 0)
                list.Append(',');
            list.Append(value(i));
        }
        return list.ToString();
    }

    [Fact]
    public async Task Query_TenThousandNestedParentheses_Is400NamingTheNestingLimit()
    {
        var rql = "from People where " + new string('(', 10_000) + "Name = 'x'" + new string(')', 10_000);
        using var response = await QueryAsync(rql);
        var problem = await ProblemAssert.IsProblemAsync(response, HttpStatusCode.BadRequest, ProblemTypes.InvalidQuery);
        Assert.Contains("128 levels", problem.GetProperty("detail").GetString(), StringComparison.Ordinal);
        await OkAsync("from index 'People/Folio' where Name = 'person-1'");
    }

    [Theory]
    [InlineData("not ")]
    [InlineData("fuzzy(")]
    public async Task Query_TenThousandNestedOperators_Is400(string opener)
    {
        var rql = "from People where " + string.Concat(Enumerable.Repeat(opener, 10_000)) + "Name = 'x'";
        using var response = await QueryAsync(rql);
        await ProblemAssert.IsProblemAsync(response, HttpStatusCode.BadRequest, ProblemTypes.InvalidQuery);
    }

    [Theory]
    [InlineData("People/Folio")]
    [InlineData("People/Lucene")]
    public async Task Query_ChainOf20000Ors_AnswersEveryMatch(string index)
    {
        var chain = string.Join(" or ", Enumerable.Range(0, 20_000).Select(i => $"Name = 'person-{i * 7}'"));
        var answer = await OkAsync($"from index '{index}' where {chain} limit 0");
        Assert.Equal((HostileQueryFixture.Count + 6) / 7, answer.GetProperty("TotalResults").GetInt64());
    }

    [Theory]
    [InlineData("People/Folio")]
    [InlineData("People/Lucene")]
    public async Task Query_InListOf100000Values_AnswersTheMatchesWithinBound(string index)
    {
        // Every third name exists; the rest are missing terms the set must look up and skip.
        var names = InList(100_000, i => $"'person-{i * 3}'");
        var watch = Stopwatch.StartNew();
        var answer = await OkAsync($"from index '{index}' where Name in ({names}) or Tag in ('none') order by N as long desc limit 3");
        watch.Stop();
        Assert.Equal((HostileQueryFixture.Count + 2) / 3, answer.GetProperty("TotalResults").GetInt64());
        var top = answer.GetProperty("Results").EnumerateArray().Select(r => r.GetProperty("N").GetInt64()).ToArray();
        Assert.Equal([19_998, 19_995, 19_992], top);
        // A loose bound for a shared machine (it took over 30 s before); the benchmark measures it.
        Assert.True(watch.Elapsed < TimeSpan.FromSeconds(20), $"took {watch.Elapsed}");
    }

    [Theory]
    [InlineData("People/Folio")]
    [InlineData("People/Lucene")]
    public async Task Query_InListOf100000Numbers_AnswersTheMatches(string index)
    {
        var numbers = InList(100_000, i => (i * 2).ToString(System.Globalization.CultureInfo.InvariantCulture));
        var answer = await OkAsync($"from index '{index}' where N in ({numbers}) limit 0");
        Assert.Equal(HostileQueryFixture.Count / 2, answer.GetProperty("TotalResults").GetInt64());
    }

    [Theory]
    [InlineData("from People")]
    [InlineData("from index 'People/Folio'")]
    [InlineData("from index 'People/Lucene'")]
    public async Task Query_IdInListOf100000Ids_AnswersTheMatches(string source)
    {
        var ids = InList(100_000, i => $"'people/{i * 5}'");
        var answer = await OkAsync($"{source} where id() in ({ids}) limit 2");
        Assert.Equal(HostileQueryFixture.Count / 5, answer.GetProperty("TotalResults").GetInt64());
        Assert.Equal(2, answer.GetProperty("Results").GetArrayLength());
    }

    [Fact]
    public async Task Query_InListWithOneMillisecondBudget_Is408NamingTheBudget()
    {
        var names = InList(100_000, i => $"'person-{i}'");
        using var response = await QueryAsync($"from index 'People/Folio' where Name in ({names})", "?timeout=1");
        var problem = await ProblemAssert.IsProblemAsync(response, HttpStatusCode.RequestTimeout, ProblemTypes.QueryTimeout);
        Assert.Contains("time budget of 1 ms", problem.GetProperty("detail").GetString(), StringComparison.Ordinal);
        await OkAsync("from index 'People/Folio' where Name = 'person-1'");
    }

    [Theory]
    [InlineData("?timeout=0")]
    [InlineData("?timeout=00:10:00")]
    [InlineData("?timeout=soon")]
    public async Task Query_TimeoutOutOfRange_Is400(string queryString)
    {
        using var response = await QueryAsync("from People", queryString);
        await ProblemAssert.IsProblemAsync(response, HttpStatusCode.BadRequest, ProblemTypes.InvalidParameter);
    }

    [Theory]
    [InlineData("People/Folio")]
    [InlineData("People/Lucene")]
    public async Task Query_LeadingAndTrailingWildcard_AnswersOnTheWholeTermList(string index)
    {
        var answer = await OkAsync($"from index '{index}' where endsWith(Name, '999') limit 1");
        Assert.Equal(20, answer.GetProperty("TotalResults").GetInt64());
    }

    [Theory]
    [InlineData("People/Folio")]
    [InlineData("People/Lucene")]
    public async Task Query_LeadingWildcardsOverEveryTermWithOneMillisecondBudget_Is408(string index)
    {
        // 300 leading wildcards matching nothing: the whole cost is walking the 20,000 names 300 times, which only a
        // budget checked during the walk itself can stop.
        var wildcards = string.Join(" or ", Enumerable.Range(0, 300).Select(i => $"endsWith(Name, 'zq{i}')"));
        using var response = await QueryAsync($"from index '{index}' where {wildcards}", "?timeout=1");
        var problem = await ProblemAssert.IsProblemAsync(response, HttpStatusCode.RequestTimeout, ProblemTypes.QueryTimeout);
        Assert.Contains("time budget of 1 ms", problem.GetProperty("detail").GetString(), StringComparison.Ordinal);
        await OkAsync($"from index '{index}' where Name = 'person-1'");
    }

    [Fact]
    public async Task Query_WildcardWithInnerStars_Is400()
    {
        using var response = await QueryAsync("from People where search(Name, '*a*a*a*a*')");
        await ProblemAssert.IsProblemAsync(response, HttpStatusCode.BadRequest, ProblemTypes.InvalidQuery);
    }

    [Theory]
    [InlineData("People/Folio")]
    [InlineData("People/Lucene")]
    public async Task Query_LimitOfIntMax_IsCappedToThePageSize(string index)
    {
        using var response = await QueryAsync($"from index '{index}' limit 2147483647");
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("1024", Assert.Single(response.Headers.GetValues("Folio-Page-Size-Capped")));
        var answer = JsonDocument.Parse(await response.Content.ReadAsStringAsync()).RootElement;
        Assert.Equal(1024, answer.GetProperty("Results").GetArrayLength());
        Assert.Equal(HostileQueryFixture.Count, answer.GetProperty("TotalResults").GetInt64());
    }

    [Theory]
    [InlineData("People/Folio")]
    [InlineData("People/Lucene")]
    public async Task Query_OrderByOnEveryEntry_KeepsOnlyThePage(string index)
    {
        var answer = await OkAsync($"from index '{index}' order by Name desc limit 2 offset 1");
        Assert.Equal(HostileQueryFixture.Count, answer.GetProperty("TotalResults").GetInt64());
        Assert.Equal(["person-9998", "person-9997"], answer.GetProperty("Results").EnumerateArray().Select(r => r.GetProperty("Name").GetString()));
    }

    [Theory]
    [InlineData("People/Folio")]
    [InlineData("People/Lucene")]
    public async Task Query_FacetOverEveryUniqueName_Answers(string index)
    {
        var answer = await OkAsync($"from index '{index}' select facet(Name)");
        var facet = Assert.Single(answer.GetProperty("Results").EnumerateArray());
        var values = facet.GetProperty("Values").GetArrayLength();
        Assert.Equal(HostileQueryFixture.Count, values + facet.GetProperty("RemainingTermsCount").GetInt32());
    }

    [Fact]
    public async Task Query_WhileAHostileQueryRuns_OtherClientsAreAnswered()
    {
        var names = InList(100_000, i => $"'person-{i}'");
        var hostile = Task.Run(async () =>
        {
            for (var i = 0; i < 3; i++)
            {
                using var response = await QueryAsync($"from index 'People/Folio' where Name in ({names}) order by Name limit 5");
                Assert.Equal(HttpStatusCode.OK, response.StatusCode);
            }
        });
        var small = Stopwatch.StartNew();
        var answered = 0;
        while (!hostile.IsCompleted)
        {
            await OkAsync("from index 'People/Folio' where Name = 'person-42'");
            answered++;
        }
        await hostile;
        Assert.True(answered > 0, $"no small query answered in {small.Elapsed}");
    }
}
