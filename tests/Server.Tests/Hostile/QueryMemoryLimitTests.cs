using System.Net;
using System.Text.Json;
using Folio.Server.Http;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Hostile;

/// <summary>
/// A query that allocates past <c>Queries:MaxMemory</c> is stopped with a 422 naming the limit, on both engines,
/// changes nothing, and the server goes on answering ordinary queries (issue 24, query governance).
/// </summary>
public sealed class QueryMemoryLimitTests(QueryMemoryLimitFixture fixture) : IClassFixture<QueryMemoryLimitFixture>
{
    private HttpClient Client => fixture.Server.Client;

    private Task<HttpResponseMessage> QueryAsync(string rql) =>
        Client.PostAsync($"/databases/{fixture.Database}/queries", FolioApi.Json(JsonSerializer.Serialize(new { Query = rql })));

    [Theory]
    [InlineData("from index 'People/Folio' select distinct Name")]
    [InlineData("from index 'People/Lucene' select distinct Name")]
    [InlineData("from index 'People/Folio' select facet(Name), facet(N)")]
    [InlineData("from index 'People/Lucene' select facet(Name), facet(N)")]
    public async Task Query_AllocatingPastMaxMemory_Is422NamingTheLimit(string rql)
    {
        using var response = await QueryAsync(rql);

        var problem = await ProblemAssert.IsProblemAsync(response, (HttpStatusCode)422, ProblemTypes.QueryMemoryLimit);
        Assert.Contains("memory limit of 1 MB", problem.GetProperty("detail").GetString(), StringComparison.Ordinal);
        using var small = await QueryAsync("from index 'People/Folio' where Name = 'person-7'");
        Assert.Equal(HttpStatusCode.OK, small.StatusCode);
        using var answer = JsonDocument.Parse(await small.Content.ReadAsStringAsync());
        Assert.Equal(1, answer.RootElement.GetProperty("TotalResults").GetInt64());
    }
}

/// <summary>The people fixture on a server whose queries may allocate 1 MB each.</summary>
public sealed class QueryMemoryLimitFixture : PeopleFixture
{
    protected override int DocumentCount => 20_000;

    protected override string[] ServerArguments => ["--Queries:MaxMemory=1048576"];
}
