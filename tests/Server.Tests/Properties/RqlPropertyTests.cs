using System.Net;
using System.Text.Json;
using CsCheck;
using Folio.Server.Tests.Hostile;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Properties;

/// <summary>The people fixture of the property tier: a few hundred, so every generated query runs in milliseconds.</summary>
public sealed class PropertyFixture : PeopleFixture
{
    protected override int DocumentCount => 300;
}

/// <summary>
/// The property tier (issue 24): generated and mutated RQL (<see cref="RqlGenerators"/>) sent to a real server on
/// both engines is answered 2xx, or 4xx with a problem+json; never a 500, never a hang, and nothing is written.
/// CsCheck shrinks a failing query to a small one and prints it with its seed.
/// </summary>
public sealed class RqlPropertyTests(PropertyFixture fixture) : IClassFixture<PropertyFixture>
{
    private static readonly TimeSpan Hang = TimeSpan.FromSeconds(20);

    [Fact]
    public Task Query_GeneratedFromTheGrammar_IsAnsweredOrRefusedCleanly() => CheckAsync(RqlGenerators.Query, 150);

    [Fact]
    public Task Query_Mutated_IsAnsweredOrRefusedCleanly() => CheckAsync(RqlGenerators.Mutated, 150);

    /// <summary>Queries the properties found answered 500, each kept once fixed.</summary>
    [Theory]
    [InlineData("from 'People' where (boost(Tag all in ('609\"', '3?b', 898, '**'), 7260)) order by Missing as double asc, Tag as long, score() select distinct Name, @metadata.@collection as alias")]
    public Task Query_FoundByTheProperties_IsAnsweredOrRefusedCleanly(string rql) => AnsweredOrRefusedAsync(rql);

    [Fact]
    [Trait("Category", "Slow")]
    public Task Query_GeneratedOrMutated_LongRun_IsAnsweredOrRefusedCleanly() => CheckAsync(Gen.OneOf(RqlGenerators.Query, RqlGenerators.Mutated), 5_000);

    private async Task CheckAsync(Gen<string> queries, long iterations)
    {
        var before = await WrittenAsync();
        await queries.SampleAsync(AnsweredOrRefusedAsync, iter: iterations, threads: 1, print: q => q);
        Assert.Equal(before, await WrittenAsync());
    }

    private async Task AnsweredOrRefusedAsync(string rql)
    {
        foreach (var get in new[] { false, true })
        {
            using var timeout = new CancellationTokenSource(Hang);
            var db = fixture.Database;
            using var response = get
                ? await fixture.Server.Client.GetAsync($"/databases/{db}/queries?query={Uri.EscapeDataString(rql)}", timeout.Token)
                : await fixture.Server.Client.PostAsync($"/databases/{db}/queries", FolioApi.Json(JsonSerializer.Serialize(new { Query = rql })), timeout.Token);
            var status = (int)response.StatusCode;
            var body = await response.Content.ReadAsStringAsync(timeout.Token);
            if (status is >= 200 and < 300)
            {
                using var _ = JsonDocument.Parse(body);
                continue;
            }
            if (status is < 400 or >= 500)
                throw new Xunit.Sdk.XunitException($"{(get ? "GET" : "POST")} answered {status}: {body}\n{LoggedExceptions()}");
            if (response.Content.Headers.ContentType?.MediaType != "application/problem+json")
                throw new Xunit.Sdk.XunitException($"{status} without problem+json: {body}");
            using var problem = JsonDocument.Parse(body);
            if (!problem.RootElement.TryGetProperty("detail", out var detail) || string.IsNullOrEmpty(detail.GetString()))
                throw new Xunit.Sdk.XunitException($"{status} problem without a detail: {body}");
        }
    }

    private string LoggedExceptions() =>
        string.Join("\n", fixture.Server.Log.Events.Where(e => e.Exception is not null).TakeLast(2).Select(e => e.Exception!.ToString()));

    /// <summary>What a query must not change: the database's documents and its last write.</summary>
    private async Task<(long Documents, long LastEtag)> WrittenAsync()
    {
        var stats = await FolioApi.GetJsonAsync(fixture.Server.Client, $"/databases/{fixture.Database}/stats");
        return (stats.GetProperty("CountOfDocuments").GetInt64(), stats.GetProperty("LastDocEtag").GetInt64());
    }
}
