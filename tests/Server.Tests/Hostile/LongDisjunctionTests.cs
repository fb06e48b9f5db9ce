using System.Net;
using System.Text.Json;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Hostile;

/// <summary>
/// A generated chain of thousands of <c>or</c>s answers every match on both engines within a modest memory limit.
/// Regression: nested two at a time, a chain of 20,000 names made Lucene allocate a scorer's buffers per link and
/// segment (1.4 GB), past the default 1 GiB limit on a loaded machine.
/// </summary>
public sealed class LongDisjunctionTests(LongDisjunctionFixture fixture) : IClassFixture<LongDisjunctionFixture>
{
    [Theory]
    [InlineData("People/Folio")]
    [InlineData("People/Lucene")]
    public async Task Query_ChainOf20000OrsOverTwoFields_AnswersEveryMatchWithin64MB(string index)
    {
        // Names every 7th person, and tags (person i has tag t{i % 100}) of which 2 exist among 3,000 asked.
        var links = Enumerable.Range(0, 17_000).Select(i => $"Name = 'person-{i * 7}'")
            .Concat(Enumerable.Range(0, 3_000).Select(i => $"Tag = 't{i * 50}'"));
        var rql = $"from index '{index}' where {string.Join(" or ", links)} limit 0";

        using var response = await fixture.Server.Client.PostAsync($"/databases/{fixture.Database}/queries", FolioApi.Json(JsonSerializer.Serialize(new { Query = rql })));

        var body = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == HttpStatusCode.OK, $"{(int)response.StatusCode}: {body[..Math.Min(body.Length, 500)]}");
        using var answer = JsonDocument.Parse(body);
        var expected = Enumerable.Range(0, LongDisjunctionFixture.Count).Count(i => i % 7 == 0 || i % 100 is 0 or 50);
        Assert.Equal(expected, answer.RootElement.GetProperty("TotalResults").GetInt64());
    }
}

/// <summary>The people fixture on a server whose queries may allocate 64 MB each.</summary>
public sealed class LongDisjunctionFixture : PeopleFixture
{
    public const int Count = 20_000;

    protected override int DocumentCount => Count;

    protected override string[] ServerArguments => ["--Queries:MaxMemory=67108864"];
}
