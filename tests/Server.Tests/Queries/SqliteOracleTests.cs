using System.Diagnostics;
using System.Net;
using System.Text;
using System.Text.Json;
using Folio.Server.Tests.Support;
using Xunit.Abstractions;
using static Folio.Server.Tests.Support.FolioApi;

namespace Folio.Server.Tests.Queries;

/// <summary>
/// Folio against SQLite on the same generated Orders (see <see cref="OracleDataset"/>): random RQL
/// collection queries, each also written as SQL (see <see cref="OracleQuery"/>), must return the same
/// ids in the same order with the same TotalResults. Documents go in over HTTP (bulk_docs, 1,000 per
/// request); queries wait for non-stale results. Each search engine answers (the server's
/// <c>Indexing:SearchEngine</c> decides the auto indexes' engine).
/// </summary>
public sealed class SqliteOracleTests(ITestOutputHelper output)
{
    private const int BatchSize = 1_000;

    [Theory]
    [InlineData("Folio")]
    [InlineData("Lucene")]
    public Task Queries_MatchSqlite_OnFiftyThousandOrders(string engine) => RunAsync(seed: 20_240_601, documents: 50_000, queries: 100, indexFirst: true, engine);

    /// <summary>More seeds and queries; half of them load the documents before the index exists, so it is built from a backlog.</summary>
    [Theory]
    [Trait("Category", "Slow")]
    [InlineData(1, true, "Folio")]
    [InlineData(2, false, "Folio")]
    [InlineData(3, true, "Folio")]
    [InlineData(4, false, "Folio")]
    [InlineData(5, true, "Lucene")]
    [InlineData(6, false, "Lucene")]
    public Task Queries_MatchSqlite_ForMoreSeedsAndQueries(int seed, bool indexFirst, string engine) => RunAsync(seed, documents: 60_000, queries: 500, indexFirst, engine);

    private async Task RunAsync(int seed, int documents, int queries, bool indexFirst, string engine)
    {
        var clock = Stopwatch.StartNew();
        var data = OracleDataset.Generate(seed, documents);
        var oracleLoad = Task.Run(() => SqliteOracle.Load(data.Documents));
        try
        {
            var list = new OracleQueryGenerator(data, seed).Generate(queries);
            await using var server = await RunningServer.StartAsync($"--Indexing:SearchEngine={engine}");
            var db = await CreateDatabaseAsync(server.Client);
            // One query over every field the list uses makes the auto index all the others reuse, so the
            // run measures answers rather than one rebuild per newly seen field. Made before the load,
            // indexing runs alongside it (the fast variant's budget); made after, it works off a backlog.
            var fields = list.SelectMany(q => q.FieldsUsed()).Distinct(StringComparer.Ordinal).Order(StringComparer.Ordinal).ToList();
            var warmUp = "from Orders where " + string.Join(" or ", fields.Select(f => $"exists({f})"));
            if (indexFirst)
                await WarmUpAsync(server.Client, db, warmUp, seed);
            await LoadAsync(server.Client, db, data);
            var loaded = clock.Elapsed;
            if (!indexFirst)
                await WarmUpAsync(server.Client, db, warmUp, seed);
            await WaitForIndexesAsync(server.Client, db, TimeSpan.FromMinutes(5));
            var indexed = clock.Elapsed;

            var oracle = await oracleLoad;
            Assert.Equal(documents, oracle.Scalar<long>("SELECT COUNT(*) FROM docs"));
            // The oracle's own JSON reading must agree with .NET's on text beyond the BMP.
            Assert.Equal("🚀 fast", oracle.Scalar<string>("""SELECT json_extract('{"a":"\ud83d\ude80 fast"}', '$.a')"""));
            var oracleReady = clock.Elapsed;

            var failures = new List<string>();
            int partial = 0;
            for (int n = 0; n < list.Count; n++)
            {
                var query = list[n];
                string rql = query.ToRql(), sql = query.ToSql();
                var expectedAll = oracle.Ids(sql);
                var expected = expectedAll.Skip(query.Offset ?? 0).Take(query.Limit ?? OracleQuery.DefaultPageSize).ToList();
                if (expectedAll.Count > 0 && expectedAll.Count < documents)
                    partial++;
                var actual = await QueryAsync(server.Client, db, rql);
                var problem = Difference(actual, expected, expectedAll.Count, oracle);
                if (problem is not null)
                    failures.Add($"Seed {seed}, query #{n}\n  RQL: {rql}\n  SQL: {sql}\n  {problem}");
            }
            var queried = clock.Elapsed;
            output.WriteLine($"seed {seed}: {documents} documents loaded over HTTP at {loaded.TotalSeconds:F1}s, indexed at {indexed.TotalSeconds:F1}s, " +
                $"SQLite ready at {oracleReady.TotalSeconds:F1}s, {list.Count} queries done at {queried.TotalSeconds:F1}s ({partial} matched some but not all documents)");

            foreach (var sample in list.Take(3))
                output.WriteLine($"  e.g. {sample.ToRql()}");

            Assert.True(failures.Count == 0, $"{failures.Count} of {list.Count} queries differ from SQLite:\n" + string.Join("\n\n", failures.Take(5)));
            // A generator that only produced empty or everything answers would prove little.
            Assert.True(partial >= list.Count / 4, $"Seed {seed}: only {partial} of {list.Count} queries matched some but not all documents.");
        }
        finally
        {
            // Dispose the oracle even when the test failed before it was used.
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

    private static string? Difference(FolioAnswer actual, List<string> expected, int expectedTotal, SqliteOracle oracle)
    {
        if (actual.Status != HttpStatusCode.OK)
            return $"Folio answered {(int)actual.Status}: {actual.Body}";
        if (actual.IsStale)
            return "Folio answered stale results although the query waited for non-stale ones.";
        var differences = new StringBuilder();
        if (actual.TotalResults != expectedTotal)
            differences.Append($"TotalResults: Folio {actual.TotalResults}, SQLite {expectedTotal}. ");
        int common = Math.Min(actual.Ids.Count, expected.Count);
        int first = -1;
        for (int i = 0; i < common && first < 0; i++)
        {
            if (!string.Equals(actual.Ids[i], expected[i], StringComparison.Ordinal))
                first = i;
        }
        if (first < 0 && actual.Ids.Count != expected.Count)
            first = common;
        if (first >= 0)
        {
            string folioId = first < actual.Ids.Count ? actual.Ids[first] : "(none)";
            string sqliteId = first < expected.Count ? expected[first] : "(none)";
            differences.Append($"Page of {actual.Ids.Count} (SQLite {expected.Count}) first differs at position {first}: Folio {folioId}, SQLite {sqliteId}.");
            differences.Append($"\n  Folio's {folioId}: {oracle.Json(folioId) ?? "-"}\n  SQLite's {sqliteId}: {oracle.Json(sqliteId) ?? "-"}");
        }
        return differences.Length == 0 ? null : differences.ToString();
    }

    private static async Task LoadAsync(HttpClient client, string db, OracleDataset data)
    {
        for (int start = 0; start < data.Documents.Count; start += BatchSize)
        {
            var body = new StringBuilder(BatchSize * 700);
            body.Append("{\"Commands\":[");
            for (int i = start; i < Math.Min(start + BatchSize, data.Documents.Count); i++)
            {
                var document = data.Documents[i];
                if (i > start)
                    body.Append(',');
                body.Append("{\"Type\":\"PUT\",\"Id\":").Append(JsonSerializer.Serialize(document.Id)).Append(",\"Document\":");
                body.Append(document.Json, 0, document.Json.Length - 1).Append(",\"@metadata\":{\"@collection\":\"Orders\"}}}");
            }
            body.Append("]}");
            using var response = await client.PostAsync($"/databases/{db}/bulk_docs", FolioApi.Json(body.ToString()));
            Assert.True(response.StatusCode == HttpStatusCode.Created, $"bulk_docs at document {start} answered {(int)response.StatusCode}: {await response.Content.ReadAsStringAsync()}");
        }
    }

    private static async Task WarmUpAsync(HttpClient client, string db, string warmUp, int seed)
    {
        var warm = await QueryAsync(client, db, warmUp, wait: false);
        Assert.True(warm.Status == HttpStatusCode.OK, $"Seed {seed}: the warm-up query answered {(int)warm.Status}: {warm.Body}");
    }

    /// <summary>Polls the index stats until no index is stale (a bounded wait: the first index over every document takes a while).</summary>
    private static async Task WaitForIndexesAsync(HttpClient client, string db, TimeSpan timeout)
    {
        var waited = Stopwatch.StartNew();
        while (true)
        {
            var stats = await GetJsonAsync(client, $"/databases/{db}/indexes/stats");
            var indexes = stats.GetProperty("Results").EnumerateArray().ToList();
            if (indexes.Count > 0 && indexes.All(i => !i.GetProperty("IsStale").GetBoolean()))
                return;
            Assert.True(waited.Elapsed < timeout, $"The indexes are still stale after {timeout}: {stats}");
            await Task.Delay(200);
        }
    }

    private static async Task<FolioAnswer> QueryAsync(HttpClient client, string db, string rql, bool wait = true)
    {
        var request = JsonSerializer.Serialize(new { Query = rql, WaitForNonStaleResults = wait, WaitForNonStaleResultsTimeout = "00:00:25" });
        using var response = await client.PostAsync($"/databases/{db}/queries", FolioApi.Json(request));
        var body = await response.Content.ReadAsStringAsync();
        if (response.StatusCode != HttpStatusCode.OK)
            return new FolioAnswer(response.StatusCode, body, false, -1, []);
        using var answer = JsonDocument.Parse(body);
        var root = answer.RootElement;
        var ids = new List<string>();
        foreach (var result in root.GetProperty("Results").EnumerateArray())
            ids.Add(result.GetProperty("@metadata").GetProperty("@id").GetString()!);
        return new FolioAnswer(response.StatusCode, "", root.GetProperty("IsStale").GetBoolean(), root.GetProperty("TotalResults").GetInt64(), ids);
    }

    private sealed record FolioAnswer(HttpStatusCode Status, string Body, bool IsStale, long TotalResults, List<string> Ids);
}
