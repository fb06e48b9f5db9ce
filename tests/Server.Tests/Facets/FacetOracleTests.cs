using System.Diagnostics;
using System.Net;
using System.Text;
using System.Text.Json;
using Folio.Server.Tests.MapReduce;
using Folio.Server.Tests.Queries;
using Folio.Server.Tests.Support;
using Xunit.Abstractions;

namespace Folio.Server.Tests.Facets;

/// <summary>
/// Folio's facets against SQLite on the same generated products (<see cref="FacetDataset"/>), loaded over HTTP: random
/// facet queries (<see cref="FacetQueryGenerator"/>: term facets with aggregations and options, range facets, sideways
/// facets, conditions on awkward names) must answer exactly what <see cref="FacetOracle"/> computes (values, counts,
/// spellings, order, pages, what remains, missing counts, sums to the bit), before and after random updates, inserts
/// and deletes.
/// </summary>
public sealed class FacetOracleTests(ITestOutputHelper output)
{
    [Theory]
    [InlineData("Folio")]
    [InlineData("Lucene")]
    public Task FacetQueries_MatchSqlite_OnFiftyThousandProducts(string engine) => RunAsync(seed: 20_261_119, documents: 50_000, queries: 100, rounds: 2, engine);

    [Theory]
    [Trait("Category", "Slow")]
    [InlineData(1, "Folio")]
    [InlineData(2, "Folio")]
    [InlineData(3, "Folio")]
    [InlineData(4, "Lucene")]
    public Task FacetQueries_MatchSqlite_ForMoreSeedsAndQueries(int seed, string engine) => RunAsync(seed, documents: 60_000, queries: 400, rounds: 4, engine);

    private async Task RunAsync(int seed, int documents, int queries, int rounds, string engine)
    {
        var clock = Stopwatch.StartNew();
        var data = FacetDataset.Generate(seed, documents);
        var oracleLoad = Task.Run(() => new FacetOracle(data));
        try
        {
            var list = new FacetQueryGenerator(seed).Generate(queries);
            await using var server = await RunningServer.StartAsync($"--Indexing:SearchEngine={engine}");
            var db = await FolioApi.CreateDatabaseAsync(server.Client);
            // One auto index over every field, made before the load, so indexing runs alongside it and no query widens it.
            var warmUp = "from Products where " + string.Join(" or ", FacetDataset.All.Select(f => $"exists({f.Rql})"));
            var warm = await QueryAsync(server.Client, db, warmUp, "{}", wait: false);
            Assert.True(warm.Status == HttpStatusCode.OK, $"The warm-up query answered {(int)warm.Status}: {warm.Body}");
            await MapReduceOracleTests.LoadAsync(server.Client, db, data.Select(d => (d.Id, (string?)d.Json)).ToList());
            var oracle = await oracleLoad;
            output.WriteLine($"seed {seed}: {documents} products loaded over HTTP and into SQLite at {clock.Elapsed.TotalSeconds:F1}s");

            var failures = new List<string>();
            var coverage = new Coverage();
            var random = new Random(seed);
            var perRound = (list.Count + rounds - 1) / rounds;
            for (var round = 0; round < rounds; round++)
            {
                if (round > 0)
                    await MutateAsync(server.Client, db, oracle, seed, round, random, documents);
                await WaitForIndexesAsync(server.Client, db);
                var roundQueries = list.Skip(round * perRound).Take(perRound).ToList();
                // SQLite works through the round's queries on its own thread while Folio answers them over HTTP.
                var answers = Answers(oracle, roundQueries);
                for (var n = 0; n < roundQueries.Count; n++)
                {
                    var query = roundQueries[n];
                    var actual = await QueryAsync(server.Client, db, query.ToRql(), query.ParametersJson(), wait: true);
                    var (total, expected) = await answers[n].Task;
                    var problem = actual.Status != HttpStatusCode.OK ? $"Folio answered {(int)actual.Status}: {actual.Body}" : Difference(actual.Json, total, expected);
                    if (problem is not null)
                        failures.Add($"round {round}: {query.ToRql()}\n  parameters: {query.ParametersJson()}\n  {problem}");
                    coverage.Add(query, total, expected, documents);
                }
                output.WriteLine($"round {round} checked at {clock.Elapsed.TotalSeconds:F1}s ({oracle.Count()} products)");
            }
            output.WriteLine(coverage.ToString());
            Assert.True(failures.Count == 0, $"{failures.Count} of {list.Count} facet queries differ from SQLite; the first:\n" + string.Join("\n\n", failures.Take(5)));
            coverage.AssertMeaningful(list.Count);
        }
        finally
        {
            try
            {
                (await oracleLoad).Dispose();
            }
            catch (Exception e) when (!oracleLoad.IsCompletedSuccessfully)
            {
                output.WriteLine($"The SQLite oracle failed to load: {e}");
            }
        }
    }

    /// <summary>The oracle's answers to <paramref name="queries"/>, each completed as soon as SQLite has it (in order, on one thread).</summary>
    private static TaskCompletionSource<(long Total, List<ExpectedFacet> Facets)>[] Answers(FacetOracle oracle, List<FacetQuery> queries)
    {
        var answers = new TaskCompletionSource<(long, List<ExpectedFacet>)>[queries.Count];
        for (var n = 0; n < answers.Length; n++)
            answers[n] = new TaskCompletionSource<(long, List<ExpectedFacet>)>(TaskCreationOptions.RunContinuationsAsynchronously);
        _ = Task.Run(() =>
        {
            for (var n = 0; n < queries.Count; n++)
            {
                try
                {
                    answers[n].SetResult(oracle.Expected(queries[n]));
                }
                catch (Exception e)
                {
                    for (var rest = n; rest < answers.Length; rest++)
                        answers[rest].SetException(e);
                    return;
                }
            }
        });
        return answers;
    }

    /// <summary>The first difference between Folio's answer and the oracle's, or null when they agree.</summary>
    private static string? Difference(JsonElement answer, long total, List<ExpectedFacet> expected)
    {
        if (answer.GetProperty("IsStale").GetBoolean())
            return "Folio answered stale results although the query waited for non-stale ones.";
        if (answer.GetProperty("TotalResults").GetInt64() != total)
            return $"TotalResults: Folio {answer.GetProperty("TotalResults").GetInt64()}, SQLite {total}";
        var facets = answer.GetProperty("Results");
        if (facets.GetArrayLength() != expected.Count)
            return $"Folio answered {facets.GetArrayLength()} facets, SQLite {expected.Count}";
        for (var f = 0; f < expected.Count; f++)
        {
            var facet = facets[f];
            var want = expected[f];
            var where = $"facet #{f} ({want.Name})";
            if (facet.GetProperty("Name").GetString() != want.Name)
                return $"{where}: named {facet.GetProperty("Name").GetString()}";
            var values = facet.GetProperty("Values");
            for (var i = 0; i < Math.Max(values.GetArrayLength(), want.Values.Count); i++)
            {
                var got = i < values.GetArrayLength() ? Show(values[i]) : "(none)";
                var wanted = i < want.Values.Count ? Show(want.Values[i]) : "(none)";
                if (got != wanted)
                    return $"{where}, value #{i}: Folio {got}, SQLite {wanted}\n  Folio's values: {values.GetRawText()}";
            }
            var remaining = string.Join('|', facet.GetProperty("RemainingTerms").EnumerateArray().Select(t => t.GetString() ?? "∅"));
            if (remaining != string.Join('|', want.RemainingTerms.Select(t => t ?? "∅")))
                return $"{where}: RemainingTerms Folio {remaining}, SQLite {string.Join('|', want.RemainingTerms.Select(t => t ?? "∅"))}";
            if (facet.GetProperty("RemainingTermsCount").GetInt64() != want.RemainingTermsCount || facet.GetProperty("RemainingHits").GetInt64() != want.RemainingHits)
                return $"{where}: remaining Folio {facet.GetProperty("RemainingTermsCount")} terms and {facet.GetProperty("RemainingHits")} hits, SQLite {want.RemainingTermsCount} and {want.RemainingHits}";
            long? missing = facet.TryGetProperty("MissingCount", out var m) ? m.GetInt64() : null;
            if (missing != want.MissingCount)
                return $"{where}: MissingCount Folio {missing}, SQLite {want.MissingCount}";
        }
        return null;
    }

    private static readonly string[] AggregationNames = ["Sum", "Min", "Max", "Average"];

    private static string Show(JsonElement value)
    {
        var text = new StringBuilder();
        text.Append(value.GetProperty("Range").GetString() ?? "∅").Append(':').Append(value.GetProperty("Count").GetInt64());
        if (value.TryGetProperty("Name", out var name))
            text.Append(" [").Append(name.GetString()).Append(']');
        foreach (var aggregation in AggregationNames)
        {
            if (value.TryGetProperty(aggregation, out var number))
                text.Append(' ').Append(aggregation).Append('=').Append(number.ValueKind == JsonValueKind.Null ? "null" : number.GetDouble().ToString("R", System.Globalization.CultureInfo.InvariantCulture));
        }
        return text.ToString();
    }

    private static string Show(ExpectedValue value)
    {
        var text = new StringBuilder();
        text.Append(value.Range ?? "∅").Append(':').Append(value.Count);
        if (value.Name is not null)
            text.Append(" [").Append(value.Name).Append(']');
        foreach (var aggregation in AggregationNames)
        {
            if (value.Aggregations.TryGetValue(aggregation, out var number))
                text.Append(' ').Append(aggregation).Append('=').Append(number is { } n ? n.ToString("R", System.Globalization.CultureInfo.InvariantCulture) : "null");
        }
        return text.ToString();
    }

    /// <summary>Replaces random products with other generated ones, adds new ones and deletes some, on both sides.</summary>
    private static async Task MutateAsync(HttpClient client, string db, FacetOracle oracle, int seed, int round, Random random, int documents)
    {
        var fresh = FacetDataset.Generate(seed * 31 + round, 900, firstId: 1_000_000 * round);
        var changes = new List<(string Id, string? Json)>();
        for (var i = 0; i < fresh.Count; i++)
        {
            var id = i < 600 ? $"products/{random.Next(1, documents + 1)}" : fresh[i].Id;
            changes.Add((id, fresh[i].Json));
        }
        for (var i = 0; i < 300; i++)
            changes.Add(($"products/{random.Next(1, documents + 1)}", null));
        await MapReduceOracleTests.LoadAsync(client, db, changes);
        foreach (var (id, json) in changes)
        {
            if (json is null)
                oracle.Delete(id);
            else
                oracle.Put(id, json);
        }
    }

    /// <summary>Polls the index stats until no index is stale (the first build of 50,000 products takes a while).</summary>
    private static async Task WaitForIndexesAsync(HttpClient client, string db)
    {
        var waited = Stopwatch.StartNew();
        while (true)
        {
            var stats = await FolioApi.GetJsonAsync(client, $"/databases/{db}/indexes/stats");
            var indexes = stats.GetProperty("Results").EnumerateArray().ToList();
            if (indexes.Count > 0 && indexes.All(i => !i.GetProperty("IsStale").GetBoolean()))
                return;
            Assert.True(waited.Elapsed < TimeSpan.FromMinutes(5), $"The indexes are still stale after 5 minutes: {stats}");
            await Task.Delay(100);
        }
    }

    private static async Task<(HttpStatusCode Status, string Body, JsonElement Json)> QueryAsync(HttpClient client, string db, string rql, string parameters, bool wait)
    {
        var request = $"{{\"Query\":{JsonSerializer.Serialize(rql)},\"QueryParameters\":{parameters},\"WaitForNonStaleResults\":{(wait ? "true" : "false")},\"WaitForNonStaleResultsTimeout\":\"00:01:00\"}}";
        using var response = await client.PostAsync($"/databases/{db}/queries", FolioApi.Json(request));
        var body = await response.Content.ReadAsStringAsync();
        using var json = JsonDocument.Parse(body);
        return (response.StatusCode, body, json.RootElement.Clone());
    }

    /// <summary>What the queries exercised, so a generator that stopped covering a feature fails loudly.</summary>
    private sealed class Coverage
    {
        private int _partial, _sidewaysDrilled, _paged, _aggregated, _ranges, _spelled, _nulls;

        public void Add(FacetQuery query, long total, List<ExpectedFacet> facets, int documents)
        {
            if (total > 0 && total < documents)
                _partial++;
            for (var f = 0; f < facets.Count; f++)
            {
                var spec = query.Facets[f];
                if (spec.Sideways && query.Conditions.Any(c => c.Field == spec.Field))
                    _sidewaysDrilled++;
                if (facets[f].RemainingTermsCount > 0)
                    _paged++;
                if (spec.Aggregations.Count > 0 && facets[f].Values.Any(v => v.Aggregations.Values.Any(n => n is not null && n != 0)))
                    _aggregated++;
                if (spec.IsRange)
                    _ranges++;
                if (facets[f].Values.Any(v => v.Range is { } r && r != r.ToLowerInvariant()))
                    _spelled++;
                if (facets[f].Values.Any(v => v.Range is null) && !spec.IsRange)
                    _nulls++;
            }
        }

        public void AssertMeaningful(int queries)
        {
            Assert.True(_partial >= queries / 4, ToString());
            Assert.True(_sidewaysDrilled >= queries / 20, ToString());
            Assert.True(_paged >= queries / 20, ToString());
            Assert.True(_aggregated >= queries / 5, ToString());
            Assert.True(_ranges >= queries / 10, ToString());
            Assert.True(_spelled >= queries / 10, ToString());
            Assert.True(_nulls >= queries / 20, ToString());
        }

        public override string ToString() =>
            $"coverage: {_partial} queries matched some but not all products; facets: {_sidewaysDrilled} drilled sideways past a condition, {_paged} paged with terms remaining, " +
            $"{_aggregated} with non-zero aggregations, {_ranges} range facets, {_spelled} answering a spelling that is not lower case, {_nulls} with a null value";
    }
}
