using System.Net;
using System.Text;
using System.Text.Json;
using Folio.Server.Tests.Support;
using Xunit.Abstractions;
using static Folio.Server.Tests.Support.FolioApi;

namespace Folio.Server.Tests.Queries;

/// <summary>
/// A static index across restarts: a kill -9 in the middle of indexing neither loses nor duplicates
/// an entry, and a clean restart resumes from the last indexed etag instead of indexing again, on each
/// search engine (Folio's keeps the etag in the batch's transaction, Lucene's in its commit's user data).
/// </summary>
public sealed class IndexingDurabilityTests(ITestOutputHelper output)
{
    private const string IndexName = "Items/ByKey";
    private const string IndexDefinitionJson =
        """{"Indexes":[{"Name":"Items/ByKey","Collections":["Items"],"SearchEngine":"ENGINE","Fields":{"Key":{"Path":"Key"},"Num":{"Path":"Num","Type":"Long"},"Tag":{"Path":"Tags[]"}}}]}""";

    private const int TagKinds = 7;

    private static readonly string Pad = new('p', 300);

    [Theory]
    [InlineData("Folio")]
    [InlineData("Lucene")]
    public async Task Kill9_DuringIndexing_LosesNothingAndDuplicatesNothing(string engine)
    {
        const int batch = 1_000;
        string dataDir = RunningServer.NewDataDir();
        try
        {
            string db;
            int acknowledged = 0;
            int inFlight = 0;
            await using (ServerProcess server = await ServerProcess.StartAsync(dataDir))
            {
                db = await CreateDatabaseAsync(server.Client);
                // A backlog before the index exists, so its first batches take a while.
                for (int b = 0; b < 8; b++)
                    acknowledged += await BulkAsync(server.Client, db, acknowledged, batch);
                await PutIndexAsync(server.Client, db, engine);

                // Keep writing while the index catches up; kill while a write is in flight and the index
                // has committed some of its batches but not all.
                var killed = false;
                for (int b = 0; b < 60 && !killed; b++)
                {
                    Task<int> write = BulkAsync(server.Client, db, acknowledged, batch);
                    while (!write.IsCompleted)
                    {
                        var stats = await IndexStatsAsync(server.Client, db);
                        if (stats.ProcessedEtag >= 2_000 && stats.IsStale)
                        {
                            output.WriteLine($"Killing at {acknowledged} acknowledged documents (+{batch} in flight), index at etag {stats.ProcessedEtag} of {stats.LastDocEtag}");
                            await server.KillAsync();
                            killed = true;
                            break;
                        }
                        await Task.Delay(10);
                    }
                    if (killed)
                    {
                        try
                        {
                            acknowledged += await write;
                        }
                        catch (Exception e) when (ConnectionCut.IsCut(e))
                        {
                            inFlight = batch;
                        }
                    }
                    else
                    {
                        acknowledged += await write;
                    }
                }
                Assert.True(killed, "The index never was seen part-way through its work while writes went on.");
            }

            await using ServerProcess restarted = await ServerProcess.StartAsync(dataDir);
            var count = (int)(await StatsAsync(restarted.Client, db)).CountOfDocuments;
            Assert.True(count == acknowledged || count == acknowledged + inFlight,
                $"After kill -9 the database holds {count} documents; {acknowledged} were acknowledged and {inFlight} in flight.");

            // Every document is in the index exactly once, on every field. The index first catches up with the
            // backlog the kill left, which on a busy machine takes longer than one request may wait.
            await WaitUntilNotStaleAsync(restarted.Client, db);
            var all = await QueryAsync(restarted.Client, db, $"from index '{IndexName}' where exists(Key)");
            Assert.False(all.GetProperty("IsStale").GetBoolean());
            Assert.Equal(count, all.GetProperty("TotalResults").GetInt64());
            Assert.Equal(count, (await QueryAsync(restarted.Client, db, $"from index '{IndexName}' where Num >= 0")).GetProperty("TotalResults").GetInt64());
            Assert.Equal(count, (await QueryAsync(restarted.Client, db, $"from index '{IndexName}' where Tag = 'all'")).GetProperty("TotalResults").GetInt64());
            for (int t = 0; t < TagKinds; t++)
            {
                int expected = Enumerable.Range(0, count).Count(i => i % TagKinds == t);
                Assert.Equal(expected, (await QueryAsync(restarted.Client, db, $"from index '{IndexName}' where Tag = 't{t}'")).GetProperty("TotalResults").GetInt64());
            }
            var indexStats = await IndexStatsAsync(restarted.Client, db);
            Assert.Equal(count, indexStats.Entries);
            Assert.Equal(0, indexStats.Errors);
            Assert.Equal("UpToDate", indexStats.State);

            // One key at a time, around the kill point and spread over the rest.
            var sample = Enumerable.Range(Math.Max(0, acknowledged - 1_500), Math.Min(acknowledged, 1_500) + inFlight + 50)
                .Where(i => i % 37 == 0 || i >= acknowledged - 3)
                .Concat(Enumerable.Range(0, 40).Select(i => i * 211))
                .Distinct();
            foreach (int i in sample)
            {
                var byKey = await QueryAsync(restarted.Client, db, $"from index '{IndexName}' where Key = 'k-{i}' and Num = {i}");
                Assert.True(byKey.GetProperty("TotalResults").GetInt64() == (i < count ? 1 : 0), $"Key k-{i} is in the index {byKey.GetProperty("TotalResults").GetInt64()} times; {count} documents survived.");
            }

            // The whole index, streamed: each document's id once.
            using var stream = await restarted.Client.GetAsync($"/databases/{db}/streams/queries?query={Uri.EscapeDataString($"from index '{IndexName}' where Num >= 0")}");
            Assert.Equal(HttpStatusCode.OK, stream.StatusCode);
            using var streamed = JsonDocument.Parse(await stream.Content.ReadAsStringAsync());
            var numbers = streamed.RootElement.GetProperty("Results").EnumerateArray().Select(r => r.GetProperty("Num").GetInt32()).Order().ToList();
            Assert.Equal(Enumerable.Range(0, count), numbers);
        }
        finally
        {
            RunningServer.DeleteDirectory(dataDir);
        }
    }

    [Theory]
    [InlineData("Folio")]
    [InlineData("Lucene")]
    public async Task Restart_ResumesIndexingFromLastEtag_AndIndexesOnlyNewDocuments(string engine)
    {
        string dataDir = RunningServer.NewDataDir();
        try
        {
            string db;
            IndexStats before;
            await using (RunningServer first = await RunningServer.StartOnAsync(dataDir))
            {
                db = await CreateDatabaseAsync(first.Client);
                await PutIndexAsync(first.Client, db, engine);
                int written = 0;
                for (int b = 0; b < 3; b++)
                    written += await BulkAsync(first.Client, db, written, 1_000);
                Assert.Equal(3_000, (await QueryAsync(first.Client, db, $"from index '{IndexName}' where Num >= 0")).GetProperty("TotalResults").GetInt64());
                before = await IndexStatsAsync(first.Client, db);
                Assert.Equal(before.LastDocEtag, before.ProcessedEtag);
                Assert.Equal(3_000, before.BatchDocuments.Sum());
            }

            await using RunningServer second = await RunningServer.StartOnAsync(dataDir);
            var after = await IndexStatsAsync(second.Client, db);
            Assert.Equal(before.ProcessedEtag, after.ProcessedEtag);
            Assert.Equal(3_000, after.Entries);
            Assert.False(after.IsStale);

            await BulkAsync(second.Client, db, 3_000, 25);
            Assert.Equal(3_025, (await QueryAsync(second.Client, db, $"from index '{IndexName}' where Num >= 0")).GetProperty("TotalResults").GetInt64());
            var resumed = await IndexStatsAsync(second.Client, db);
            // Only the 25 new documents were indexed after the restart, all past the etag reached before it.
            Assert.Equal(25, resumed.BatchDocuments.Sum());
            Assert.All(resumed.BatchUpToEtags, etag => Assert.True(etag > before.ProcessedEtag));
            Assert.Equal(resumed.LastDocEtag, resumed.ProcessedEtag);
            Assert.Equal(3_025, resumed.Entries);
            Assert.Equal(0, resumed.Errors);
        }
        finally
        {
            RunningServer.DeleteDirectory(dataDir);
        }
    }

    /// <summary>Writes items <paramref name="from"/>.. in one bulk_docs and returns how many.</summary>
    private static async Task<int> BulkAsync(HttpClient client, string db, int from, int count)
    {
        var body = new StringBuilder("{\"Commands\":[");
        for (int i = from; i < from + count; i++)
        {
            if (i > from)
                body.Append(',');
            body.Append($$"""{"Type":"PUT","Id":"items/{{i}}","Document":{"Key":"k-{{i}}","Num":{{i}},"Tags":["t{{i % TagKinds}}","all"],"Pad":"{{Pad}}","@metadata":{"@collection":"Items"}""").Append("}}");
        }
        body.Append("]}");
        using var response = await client.PostAsync($"/databases/{db}/bulk_docs", FolioApi.Json(body.ToString()));
        Assert.True(response.StatusCode == HttpStatusCode.Created, $"bulk_docs answered {(int)response.StatusCode}: {await response.Content.ReadAsStringAsync()}");
        return count;
    }

    private static async Task PutIndexAsync(HttpClient client, string db, string engine)
    {
        using var response = await client.PutAsync($"/databases/{db}/indexes", FolioApi.Json(IndexDefinitionJson.Replace("ENGINE", engine, StringComparison.Ordinal)));
        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
    }

    private static async Task<JsonElement> QueryAsync(HttpClient client, string db, string rql)
    {
        var request = JsonSerializer.Serialize(new { Query = rql, WaitForNonStaleResults = true, WaitForNonStaleResultsTimeout = "00:02:00" });
        using var response = await client.PostAsync($"/databases/{db}/queries", FolioApi.Json(request));
        var body = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == HttpStatusCode.OK, $"{rql} answered {(int)response.StatusCode}: {body}");
        var result = JsonDocument.Parse(body).RootElement.Clone();
        Assert.False(result.GetProperty("IsStale").GetBoolean(), $"{rql} answered stale results after waiting.");
        return result;
    }

    private static async Task WaitUntilNotStaleAsync(HttpClient client, string db)
    {
        using var deadline = new CancellationTokenSource(TimeSpan.FromMinutes(5));
        while ((await IndexStatsAsync(client, db)).IsStale)
            await Task.Delay(100, deadline.Token);
    }

    private static async Task<IndexStats> IndexStatsAsync(HttpClient client, string db)
    {
        var stats = await GetJsonAsync(client, $"/databases/{db}/indexes/stats");
        var index = stats.GetProperty("Results").EnumerateArray().Single(i => i.GetProperty("Name").GetString() == IndexName);
        var batches = index.GetProperty("RecentBatches").EnumerateArray().ToList();
        return new IndexStats(
            index.GetProperty("State").GetString()!,
            index.GetProperty("IsStale").GetBoolean(),
            index.GetProperty("ProcessedEtag").GetInt64(),
            index.GetProperty("LastDocEtag").GetInt64(),
            index.GetProperty("EntriesCount").GetInt64(),
            index.GetProperty("ErrorsCount").GetInt64(),
            batches.Select(b => b.GetProperty("Documents").GetInt32()).ToList(),
            batches.Select(b => b.GetProperty("UpToEtag").GetInt64()).ToList());
    }

    private sealed record IndexStats(string State, bool IsStale, long ProcessedEtag, long LastDocEtag, long Entries, long Errors, List<int> BatchDocuments, List<long> BatchUpToEtags);
}
