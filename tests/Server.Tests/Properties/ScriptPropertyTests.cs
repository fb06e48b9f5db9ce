using System.Diagnostics;
using System.Text.Json;
using CsCheck;
using Folio.Server.Tests.Hostile;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Properties;

/// <summary>
/// The people fixture of the JavaScript property tier: a hundred people, a 100 ms limit per script run (so a runaway
/// script costs little) and a 3 s query budget.
/// </summary>
public sealed class ScriptPropertyFixture : PeopleFixture
{
    /// <summary>The query budget the server is given.</summary>
    public static readonly TimeSpan Budget = TimeSpan.FromSeconds(3);

    protected override int DocumentCount => 100;

    protected override string[] ServerArguments => ["--Scripting:TimeoutMs=100", "--Queries:Timeout=00:00:03"];
}

/// <summary>
/// The property tier for JavaScript in queries (issue 24): generated and mutated projections and declared functions
/// (<see cref="ScriptGenerators"/>) that recurse, loop, allocate, trick prototypes, load many documents, throw, or return
/// what JSON cannot hold are answered 2xx or 4xx with a problem+json, never a 500, within the query's budget; nothing is
/// written and the server keeps answering.
/// </summary>
public sealed class ScriptPropertyTests(ScriptPropertyFixture fixture) : IClassFixture<ScriptPropertyFixture>
{
    // The budget, plus room for a loaded machine: past this an answer is a hang.
    private static readonly TimeSpan Hang = ScriptPropertyFixture.Budget + TimeSpan.FromSeconds(7);

    [Fact]
    public Task Script_GeneratedFromTheGrammar_IsAnsweredOrRefusedCleanly() => CheckAsync(ScriptGenerators.Query, 40);

    [Fact]
    public Task Script_Mutated_IsAnsweredOrRefusedCleanly() => CheckAsync(ScriptGenerators.Mutated, 40);

    public static TheoryData<string> HostileExpressions() => new(ScriptGenerators.Expressions);

    /// <summary>Each hostile expression alone, over several results (so a limit met on one result ends the query).</summary>
    [Theory]
    [MemberData(nameof(HostileExpressions))]
    public Task Script_HostileExpression_IsAnsweredOrRefusedCleanly(string expression) =>
        AnsweredOrRefusedAsync($"from People as p where p.N < 3 select {{ V: {expression} }}");

    [Fact]
    [Trait("Category", "Slow")]
    public Task Script_GeneratedOrMutated_LongRun_IsAnsweredOrRefusedCleanly() => CheckAsync(Gen.OneOf(ScriptGenerators.Query, ScriptGenerators.Mutated), 2_000);

    private async Task CheckAsync(Gen<string> queries, long iterations)
    {
        var before = await WrittenAsync();
        await queries.SampleAsync(AnsweredOrRefusedAsync, iter: iterations, threads: 1, print: q => q);
        Assert.Equal(before, await WrittenAsync());
        await StillServesAsync();
    }

    /// <summary>Posts <paramref name="rql"/> and checks its answer is a 2xx with JSON or a 4xx problem, within the budget.</summary>
    internal async Task AnsweredOrRefusedAsync(string rql)
    {
        using var timeout = new CancellationTokenSource(Hang);
        var clock = Stopwatch.StartNew();
        using var response = await fixture.Server.Client.PostAsync($"/databases/{fixture.Database}/queries", FolioApi.Json(JsonSerializer.Serialize(new { Query = rql })), timeout.Token);
        var status = (int)response.StatusCode;
        var body = await response.Content.ReadAsStringAsync(timeout.Token);
        if (clock.Elapsed > Hang)
            throw new Xunit.Sdk.XunitException($"answered {status} after {clock.Elapsed.TotalSeconds:0.0} s");
        if (status is >= 200 and < 300)
        {
            using var _ = JsonDocument.Parse(body);
            return;
        }
        if (status is < 400 or >= 500)
            throw new Xunit.Sdk.XunitException($"answered {status}: {body}\n{LoggedExceptions()}");
        if (response.Content.Headers.ContentType?.MediaType != "application/problem+json")
            throw new Xunit.Sdk.XunitException($"{status} without problem+json: {body}");
        using var problem = JsonDocument.Parse(body);
        if (!problem.RootElement.TryGetProperty("detail", out var detail) || string.IsNullOrEmpty(detail.GetString()))
            throw new Xunit.Sdk.XunitException($"{status} problem without a detail: {body}");
    }

    private async Task StillServesAsync()
    {
        using var response = await fixture.Server.Client.PostAsync($"/databases/{fixture.Database}/queries", FolioApi.Json(JsonSerializer.Serialize(new { Query = "from People as p where id() = 'people/1' select { N: p.N }" })));
        Assert.True(response.IsSuccessStatusCode, await response.Content.ReadAsStringAsync());
    }

    private string LoggedExceptions() =>
        string.Join("\n", fixture.Server.Log.Events.Where(e => e.Exception is not null).TakeLast(2).Select(e => e.Exception!.ToString()));

    private async Task<(long Documents, long LastEtag)> WrittenAsync()
    {
        var stats = await FolioApi.GetJsonAsync(fixture.Server.Client, $"/databases/{fixture.Database}/stats");
        return (stats.GetProperty("CountOfDocuments").GetInt64(), stats.GetProperty("LastDocEtag").GetInt64());
    }
}
