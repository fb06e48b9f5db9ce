using System.Text;
using System.Text.Json;
using System.Text.RegularExpressions;
using Folio.Server.Tests.Support;
using Xunit.Abstractions;

namespace Folio.Server.Tests.Stress;

/// <summary>
/// Queries racing the lifecycle of what they read: indexes widened, retired, replaced, reset and deleted,
/// databases deleted and re-created. The server runs as a child process, so a crash shows as its exit
/// rather than taking the test run down with it.
/// </summary>
public sealed partial class IndexLifecycleStressTests(ITestOutputHelper output)
{
    /// <summary>
    /// The reproduction of the crash (an AccessViolationException in a facet count): two clients count
    /// facets while a third widens the collection's auto index field by field, so each narrower index is
    /// retired, and its files were closed, while facet queries still read it.
    /// </summary>
    [Fact]
    public async Task FacetQueries_SurviveRetirementOfTheirAutoIndex_WhileAThirdClientWidensIt()
    {
        var dataDir = RunningServer.NewDataDir();
        try
        {
            await using var server = await ServerProcess.StartAsync(dataDir);
            var harness = new StressHarness(server.Client);
            const string db = "race";
            await FolioApi.CreateDatabaseAsync(server.Client, db);
            var commands = new StringBuilder();
            for (var i = 0; i < 60_000; i++)
            {
                if (commands.Length > 0)
                    commands.Append(',');
                commands.Append($$"""{"Type":"PUT","Id":"p/{{i}}","Document":{"Name":"n{{i}}","Code":"c{{i % 50}}","N":{{i}},"A":"a","B":"b","C":"c","D":"d","@metadata":{"@collection":"P"}""").Append("}}");
                if ((i + 1) % 5_000 == 0)
                {
                    Assert.True(await harness.SendAsync("load", HttpMethod.Post, $"/databases/{db}/bulk_docs", $$"""{"Commands":[{{commands}}]}""") is 200 or 201);
                    commands.Clear();
                }
            }

            // Until enough narrower indexes were retired under the facet queries (bounded in time: each retirement waits
            // for a wider index to build over 60,000 documents, which a machine busy with other test runs takes far
            // longer to do; a quiet one stops at the fourth long before the bound).
            var deadline = DateTime.UtcNow.AddSeconds(180);
            using var enough = new CancellationTokenSource();
            var fields = new[] { "A", "B", "C", "D", "Name", "N" };
            var facets = harness.RunClientsAsync(2, deadline, 1, (_, _) => harness.QueryAsync("facet", db, "from P select facet(Code)"), enough.Token);
            var widen = harness.RunClientsAsync(1, deadline, 2, async (random, step) =>
            {
                var count = 1 + (step % fields.Length);
                var clauses = new List<string>();
                for (var k = 0; k < count; k++)
                    clauses.Add($"{fields[(k + step / fields.Length) % fields.Length]} != 'zz'");
                await harness.QueryAsync("widen", db, "from P where " + string.Join(" and ", clauses));
                if (Retirements(server.Output) >= 4)
                    await enough.CancelAsync();
            }, enough.Token);
            await Task.WhenAll(facets, widen);

            output.WriteLine(harness.Summary());
            output.WriteLine($"{Retirements(server.Output)} auto indexes retired under the facet queries");
            AssertSurvived(server, harness);
            Assert.True(Retirements(server.Output) >= 2, "too few auto indexes were retired for the race to be tried");
            Assert.True(harness.Outcomes.GetValueOrDefault("facet 200") > 10, "too few facet queries were answered");
        }
        finally
        {
            RunningServer.DeleteDirectory(dataDir);
        }
    }

    [Fact]
    public Task EveryQueryKind_IsAnsweredCleanly_WhileIndexesAndADatabaseChurn() =>
        RunMixedAsync(TimeSpan.FromSeconds(20), orders: 20_000, queryClients: 3);

    [Fact]
    [Trait("Category", "Slow")]
    public Task EveryQueryKind_IsAnsweredCleanly_WhileIndexesAndADatabaseChurnForMinutes() =>
        RunMixedAsync(TimeSpan.FromMinutes(3), orders: 30_000, queryClients: 6);

    private async Task RunMixedAsync(TimeSpan duration, int orders, int queryClients)
    {
        var dataDir = RunningServer.NewDataDir();
        try
        {
            await using var server = await ServerProcess.StartAsync(dataDir);
            var harness = new StressHarness(server.Client);
            await harness.SeedAsync(StressHarness.Database, orders, seed: 7);
            Assert.Equal(201, await harness.SendAsync("setup", HttpMethod.Put, $"/databases/{StressHarness.Database}/indexes", StressHarness.StaticDefinition(0)));

            // The clients run for the duration and then until every kind of request below has succeeded at
            // least once (a slow machine may not get round to each in time), within a hard cap.
            var deadline = DateTime.UtcNow + duration + TimeSpan.FromSeconds(90);
            var softDeadline = DateTime.UtcNow + duration;
            using var done = new CancellationTokenSource();
            var watcher = Task.Run(async () =>
            {
                while (!done.IsCancellationRequested && DateTime.UtcNow < deadline)
                {
                    if (DateTime.UtcNow >= softDeadline && MissingKinds(harness).Count == 0)
                        await done.CancelAsync();
                    else
                        await Task.Delay(100);
                }
            });
            await Task.WhenAll(
                harness.RunClientsAsync(queryClients, deadline, 100, (random, _) => harness.RandomQueryAsync(random, StressHarness.Database), done.Token),
                harness.RunClientsAsync(1, deadline, 200, (random, _) => harness.RandomQueryAsync(random, StressHarness.ChurnDatabase), done.Token),
                harness.RunClientsAsync(1, deadline, 300, (random, step) => harness.ChurnIndexesAsync(random, StressHarness.Database, step), done.Token),
                harness.RunClientsAsync(1, deadline, 400, (random, _) => harness.WriteAsync(random, StressHarness.Database, orders), done.Token),
                harness.RunClientsAsync(1, deadline, 500, (_, step) => harness.ChurnDatabaseAsync(step), done.Token));
            await done.CancelAsync();
            await watcher;

            output.WriteLine(harness.Summary());
            output.WriteLine($"{Retirements(server.Output)} auto indexes retired, {Switches(server.Output)} definitions switched side by side");
            AssertSurvived(server, harness);
            Assert.True(MissingKinds(harness).Count == 0, $"no request of these kinds succeeded: {string.Join(", ", MissingKinds(harness))}; the run tried too little");

            // After the churn the indexes still answer exactly: the auto index counts every order once caught up.
            var collections = await FolioApi.GetJsonAsync(server.Client, $"/databases/{StressHarness.Database}/collections/stats");
            var expected = collections.GetProperty("Collections").GetProperty("Orders").GetInt64();
            using var response = await server.Client.PostAsync($"/databases/{StressHarness.Database}/queries",
                FolioApi.Json("""{"Query":"from Orders where Status != 'zz' limit 0","WaitForNonStaleResults":true,"WaitForNonStaleResultsTimeout":"00:02:00"}"""));
            using var answer = JsonDocument.Parse(await response.Content.ReadAsStringAsync());
            // A loaded machine may need long to catch up after the churn; a stale answer would count too few for another reason.
            Assert.False(answer.RootElement.GetProperty("IsStale").GetBoolean(), "the index did not catch up within two minutes");
            Assert.Equal(expected, answer.RootElement.GetProperty("TotalResults").GetInt64());
        }
        finally
        {
            RunningServer.DeleteDirectory(dataDir);
        }
    }

    private static void AssertSurvived(ServerProcess server, StressHarness harness)
    {
        Assert.False(server.HasExited, $"the server process died:{Environment.NewLine}{Tail(server.Output)}");
        Assert.DoesNotContain("Fatal error", server.Output, StringComparison.Ordinal);
        Assert.True(harness.Failures.Count == 0, $"{harness.Failures.Count} answers failed, e.g.:{Environment.NewLine}{string.Join(Environment.NewLine, harness.Failures.Take(20))}");
    }

    private static readonly string[] RequiredKinds = ["filter", "facet", "stream", "include", "search", "static", "stream-static", "replace", "reset", "delete-auto", "drop-db", "put"];

    private static List<string> MissingKinds(StressHarness harness)
    {
        var missing = new List<string>();
        foreach (var kind in RequiredKinds)
        {
            if (harness.Outcomes.GetValueOrDefault(kind + " 200") + harness.Outcomes.GetValueOrDefault(kind + " 201") + harness.Outcomes.GetValueOrDefault(kind + " 204") == 0)
                missing.Add(kind);
        }
        return missing;
    }

    private static string Tail(string text) => text.Length > 6_000 ? text[^6_000..] : text;

    private static int Retirements(string log) => RetiredLine().Count(log);

    private static int Switches(string log) => SwitchedLine().Count(log);

    [GeneratedRegex(@"Auto index \S+ retired")]
    private static partial Regex RetiredLine();

    [GeneratedRegex(@"switched to its new definition")]
    private static partial Regex SwitchedLine();
}
