using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Text;
using System.Text.Json;
using Folio.Server.Tests.Queries;
using Folio.Server.Tests.Support;
using Xunit.Abstractions;

namespace Folio.Server.Tests.MapReduce;

/// <summary>
/// Folio's map/reduce indexes against SQLite on the same generated Orders (<see cref="OracleDataset"/>:
/// arrays, nulls, missing fields, mixed types, non-ASCII text), loaded over HTTP: every group of every
/// random definition (<see cref="ReduceSpec"/>) must have the same entry count and aggregates as SQLite's
/// <c>GROUP BY</c> (<see cref="MapReduceOracle"/>), before and after random updates and deletes.
/// </summary>
public sealed class MapReduceOracleTests(ITestOutputHelper output)
{
    private const int BatchSize = 1_000;

    [Theory]
    [InlineData("Folio")]
    [InlineData("Lucene")]
    public Task Definitions_MatchSqlite_OnFiftyThousandOrders(string engine) => RunAsync(seed: 19_001, documents: 50_000, definitions: 4, perRound: 4, engine);

    [Theory]
    [Trait("Category", "Slow")]
    [InlineData(1, "Folio")]
    [InlineData(2, "Folio")]
    [InlineData(3, "Lucene")]
    public Task Definitions_MatchSqlite_ForMoreSeedsAndDefinitions(int seed, string engine) => RunAsync(seed, documents: 60_000, definitions: 120, perRound: 8, engine);

    private async Task RunAsync(int seed, int documents, int definitions, int perRound, string engine)
    {
        var clock = Stopwatch.StartNew();
        var data = OracleDataset.Generate(seed, documents);
        var oracleLoad = Task.Run(() => new MapReduceOracle(data.Documents));
        var random = new Random(seed);
        var specs = Enumerable.Range(0, definitions).Select(n => ReduceSpec.Random(random, n)).ToList();
        await using var server = await RunningServer.StartAsync($"--Indexing:SearchEngine={engine}");
        var db = await FolioApi.CreateDatabaseAsync(server.Client);
        await LoadAsync(server.Client, db, data.Documents.Select(d => (d.Id, (string?)d.Json)).ToList());
        using var oracle = await oracleLoad;
        output.WriteLine($"seed {seed}: {documents} documents loaded at {clock.Elapsed.TotalSeconds:F1}s");

        var failures = new List<string>();
        for (var start = 0; start < specs.Count; start += perRound)
        {
            var round = specs.Skip(start).Take(perRound).ToList();
            using (var put = await server.Client.PutAsync($"/databases/{db}/indexes", FolioApi.Json($"{{\"Indexes\":[{string.Join(',', round.Select(s => s.ToDefinitionJson()))}]}}")))
                Assert.Equal(HttpStatusCode.Created, put.StatusCode);
            await CheckAsync(server.Client, db, oracle, round, "built", failures);
            var autoIndexes = await CheckGroupByAsync(server.Client, db, oracle, round, "as group by", failures);

            await MutateAsync(server.Client, db, oracle, data, random, updates: 400, deletes: 200);
            await CheckAsync(server.Client, db, oracle, round, "after updates and deletes", failures);
            await CheckGroupByAsync(server.Client, db, oracle, round, "as group by after updates and deletes", failures);

            foreach (var name in round.Select(s => s.Name).Concat(autoIndexes).Distinct())
            {
                using var delete = await server.Client.DeleteAsync($"/databases/{db}/indexes?name={Uri.EscapeDataString(name)}");
                Assert.True(delete.StatusCode is HttpStatusCode.NoContent or HttpStatusCode.NotFound, $"DELETE {name}: {delete.StatusCode}");
            }
            output.WriteLine($"definitions {start}..{start + round.Count - 1} checked at {clock.Elapsed.TotalSeconds:F1}s, {failures.Count} differences so far");
        }
        Assert.True(failures.Count == 0, $"{failures.Count} differences, the first:\n" + string.Join("\n", failures.Take(10)));
    }

    private static async Task CheckAsync(HttpClient client, string db, MapReduceOracle oracle, List<ReduceSpec> specs, string when, List<string> failures)
    {
        foreach (var spec in specs)
            Compare(spec, await RowsAsync(client, db, spec.Name), oracle.Expected(spec), when, failures);
    }

    /// <summary>Each definition's grouping as a group by query (an auto map/reduce index); returns the auto indexes used.</summary>
    private static async Task<List<string>> CheckGroupByAsync(HttpClient client, string db, MapReduceOracle oracle, List<ReduceSpec> specs, string when, List<string> failures)
    {
        var used = new List<string>();
        foreach (var spec in specs)
        {
            var rql = spec.ToGroupByRql();
            string index;
            using (var first = await client.PostAsync($"/databases/{db}/queries", FolioApi.Json(JsonSerializer.Serialize(new { Query = rql + " limit 0" }))))
            {
                var text = await first.Content.ReadAsStringAsync();
                Assert.True(first.StatusCode == HttpStatusCode.OK, $"{rql}: {text}");
                index = JsonDocument.Parse(text).RootElement.GetProperty("IndexName").GetString()!;
            }
            used.Add(index);
            await WaitForIndexAsync(client, db, index);
            using var stream = await client.GetAsync($"/databases/{db}/streams/queries?query={Uri.EscapeDataString(rql)}");
            Assert.Equal(HttpStatusCode.OK, stream.StatusCode);
            using var rows = JsonDocument.Parse(await stream.Content.ReadAsStringAsync());
            var answered = rows.RootElement.GetProperty("Results").EnumerateArray().Select(r => r.Clone()).ToList();
            Compare(spec, answered, oracle.Expected(spec), $"{when} ({rql})", failures);
        }
        return used;
    }

    private static void Compare(ReduceSpec spec, List<JsonElement> rows, Dictionary<string, object?[]> expected, string when, List<string> failures)
    {
        var seen = new HashSet<string>(StringComparer.Ordinal);
        foreach (var row in rows)
        {
            var key = MapReduceOracle.KeyOf(row, spec);
            if (!seen.Add(key))
            {
                failures.Add($"{spec.Name} ({spec}) {when}: group {Show(key)} answered twice");
                continue;
            }
            if (!expected.TryGetValue(key, out var values))
            {
                failures.Add($"{spec.Name} ({spec}) {when}: group {Show(key)} is not in SQLite's answer: {row.GetRawText()}");
                continue;
            }
            for (var a = 0; a < spec.Aggregations.Count; a++)
            {
                var actual = row.GetProperty(spec.Aggregations[a].Name);
                if (!Same(values[a], actual))
                    failures.Add($"{spec.Name} ({spec}) {when}: group {Show(key)}, {spec.Aggregations[a].Name}: SQLite {values[a] ?? "null"}, Folio {actual.GetRawText()}");
            }
        }
        foreach (var key in expected.Keys)
        {
            if (!seen.Contains(key))
                failures.Add($"{spec.Name} ({spec}) {when}: group {Show(key)} is missing");
        }
    }

    private static bool Same(object? expected, JsonElement actual)
    {
        if (expected is null)
            return actual.ValueKind == JsonValueKind.Null;
        if (actual.ValueKind != JsonValueKind.Number)
            return false;
        var want = Convert.ToDouble(expected, CultureInfo.InvariantCulture);
        var got = actual.GetDouble();
        return Math.Abs(want - got) <= 1e-9 * Math.Max(1, Math.Abs(want));
    }

    private static string Show(string key) => key.Replace('\u0001', '|');

    /// <summary>Every row of the index once it caught up: a waiting query first, then the stream of all rows.</summary>
    private static async Task<List<JsonElement>> RowsAsync(HttpClient client, string db, string index)
    {
        await WaitForIndexAsync(client, db, index);
        using var stream = await client.GetAsync($"/databases/{db}/streams/queries?query={Uri.EscapeDataString($"from index '{index}'")}");
        Assert.Equal(HttpStatusCode.OK, stream.StatusCode);
        using var rows = JsonDocument.Parse(await stream.Content.ReadAsStringAsync());
        return rows.RootElement.GetProperty("Results").EnumerateArray().Select(r => r.Clone()).ToList();
    }

    /// <summary>
    /// Waits, on the index's statistics, until it has caught up: failing if it stopped, or if it is still stale after five
    /// minutes without progress. Progress rather than a total bound, because a fan-out over 60,000 documents on a shared
    /// machine may take longer than that while working as it should; a hang still shows as five minutes at one etag.
    /// </summary>
    private static async Task WaitForIndexAsync(HttpClient client, string db, string index)
    {
        var sinceProgress = Stopwatch.StartNew();
        var lastProgress = (Etag: -1L, Entries: -1L);
        while (true)
        {
            var stats = await FolioApi.GetJsonAsync(client, $"/databases/{db}/indexes/stats");
            var entry = stats.GetProperty("Results").EnumerateArray().Single(i => i.GetProperty("Name").GetString() == index);
            Assert.False(entry.TryGetProperty("Failure", out var failure), $"Index {index} failed: {failure}");
            if (!entry.GetProperty("IsStale").GetBoolean())
                break;
            var progress = (entry.GetProperty("ProcessedEtag").GetInt64(), entry.GetProperty("EntriesCount").GetInt64());
            if (progress != lastProgress)
            {
                lastProgress = progress;
                sinceProgress.Restart();
            }
            Assert.True(sinceProgress.Elapsed < TimeSpan.FromMinutes(5), $"Index {index} is stale and made no progress in 5 minutes: {entry.GetRawText()}");
            await Task.Delay(50);
        }
    }

    /// <summary>Replaces random documents with the content of other generated ones and deletes others, on both sides.</summary>
    private static async Task MutateAsync(HttpClient client, string db, MapReduceOracle oracle, OracleDataset data, Random random, int updates, int deletes)
    {
        var changes = new List<(string Id, string? Json)>();
        for (var i = 0; i < updates; i++)
        {
            var id = $"orders/{random.Next(1, data.Documents.Count + 1)}";
            changes.Add((id, data.Documents[random.Next(data.Documents.Count)].Json));
        }
        for (var i = 0; i < deletes; i++)
            changes.Add(($"orders/{random.Next(1, data.Documents.Count + 1)}", null));
        await LoadAsync(client, db, changes);
        foreach (var (id, json) in changes)
        {
            if (json is null)
                oracle.Delete(id);
            else
                oracle.Put(id, json);
        }
    }

    /// <summary>Sends puts (and deletes, for a null body) through bulk_docs, a thousand a request, in order (the facet oracle loads its products with it too).</summary>
    internal static async Task LoadAsync(HttpClient client, string db, List<(string Id, string? Json)> changes)
    {
        for (var start = 0; start < changes.Count; start += BatchSize)
        {
            var body = new StringBuilder("{\"Commands\":[");
            for (var i = start; i < Math.Min(start + BatchSize, changes.Count); i++)
            {
                if (i > start)
                    body.Append(',');
                var (id, json) = changes[i];
                body.Append(json is null
                    ? $"{{\"Type\":\"DELETE\",\"Id\":{JsonSerializer.Serialize(id)}}}"
                    : $"{{\"Type\":\"PUT\",\"Id\":{JsonSerializer.Serialize(id)},\"Document\":{json}}}");
            }
            body.Append("]}");
            using var response = await client.PostAsync($"/databases/{db}/bulk_docs", FolioApi.Json(body.ToString()));
            Assert.True(response.StatusCode == HttpStatusCode.Created, $"bulk_docs at {start} answered {(int)response.StatusCode}: {await response.Content.ReadAsStringAsync()}");
        }
    }
}
