using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Text;
using System.Text.Json;
using Folio.Benchmarks.Http;

namespace Folio.Benchmarks.MapReduce;

/// <summary>One index build through the server: wall time until not stale, the server's CPU time, and what its stats said then.</summary>
public sealed record IndexBuild(string Name, TimeSpan Elapsed, TimeSpan ServerCpu, long Entries, long MapEntries, long Groups, long Errors, string Batches, string LoadAverage);

/// <summary>The REST calls mapreduce-load makes to a Folio server's <see cref="BenchServers.Database"/>: indexes, their stats, group rows, single PUTs.</summary>
public static class FolioIndexing
{
    private const string DatabasePath = $"/databases/{BenchServers.Database}";

    /// <summary>The database's last etag (what an index must have processed to hold every document loaded).</summary>
    public static async Task<long> LastEtagAsync(HttpClient client)
    {
        using JsonDocument stats = JsonDocument.Parse(await client.GetStringAsync($"{DatabasePath}/stats"));
        return stats.RootElement.GetProperty("LastDocEtag").GetInt64();
    }

    /// <summary>
    /// Creates the index of <paramref name="definitionJson"/> (or, with <paramref name="reset"/>, throws the existing
    /// one's data away and rebuilds it) and times it until its stats say it is not stale and it processed
    /// <paramref name="etag"/> (polled every 50 ms), with the server's CPU time over the same span.
    /// </summary>
    public static async Task<IndexBuild> BuildAsync(HttpServerProcess server, HttpClient client, string name, string definitionJson, long etag, bool reset = false)
    {
        TimeSpan cpu = server.CpuTime;
        var watch = Stopwatch.StartNew();
        using (var content = new StringContent($"{{\"Indexes\":[{definitionJson}]}}", Encoding.UTF8, "application/json"))
        using (HttpResponseMessage response = reset
            ? await client.PostAsync($"{DatabasePath}/indexes/reset?name={Uri.EscapeDataString(name)}", null)
            : await client.PutAsync($"{DatabasePath}/indexes", content))
        {
            if (!response.IsSuccessStatusCode)
                throw new InvalidOperationException($"Creating {name} answered {(int)response.StatusCode}: {await response.Content.ReadAsStringAsync()}");
        }

        using JsonDocument stats = await WaitUntilCurrentAsync(client, name, etag);
        TimeSpan elapsed = watch.Elapsed;
        TimeSpan serverCpu = server.CpuTime - cpu;
        JsonElement index = Find(stats, name);
        long mapEntries = 0, groups = 0;
        if (index.TryGetProperty("MapReduce", out JsonElement reduce))
        {
            mapEntries = reduce.GetProperty("MapEntries").GetInt64();
            groups = reduce.GetProperty("Groups").GetInt64();
        }

        return new IndexBuild(name, elapsed, serverCpu, index.GetProperty("EntriesCount").GetInt64(), mapEntries, groups,
            index.GetProperty("ErrorsCount").GetInt64(), DescribeBatches(index), BenchServers.LoadAverage());
    }

    /// <summary>Polls the stats until <paramref name="name"/> is not stale and has processed <paramref name="etag"/>; returns those stats.</summary>
    public static async Task<JsonDocument> WaitUntilCurrentAsync(HttpClient client, string name, long etag)
    {
        while (true)
        {
            JsonDocument stats = JsonDocument.Parse(await client.GetStringAsync($"{DatabasePath}/indexes/stats"));
            JsonElement index = Find(stats, name);
            if (index.TryGetProperty("Failure", out JsonElement failure))
                throw new InvalidOperationException($"The index {name} failed: {failure}");
            if (!index.GetProperty("IsStale").GetBoolean() && index.GetProperty("ProcessedEtag").GetInt64() >= etag)
                return stats;
            stats.Dispose();
            await Task.Delay(50);
        }
    }

    /// <summary>The index's last batch as its stats report it: the batch's commit time and, for a map/reduce index, its last reduce time (ms).</summary>
    public static async Task<(double BatchMs, double ReduceMs)> LastBatchAsync(HttpClient client, string name)
    {
        using JsonDocument stats = JsonDocument.Parse(await client.GetStringAsync($"{DatabasePath}/indexes/stats"));
        JsonElement index = Find(stats, name);
        JsonElement batches = index.GetProperty("RecentBatches");
        double batch = batches.GetArrayLength() == 0 ? double.NaN : batches[batches.GetArrayLength() - 1].GetProperty("DurationInMs").GetDouble();
        double reduce = index.TryGetProperty("MapReduce", out JsonElement r) ? r.GetProperty("LastReduceInMs").GetDouble() : double.NaN;
        return (batch, reduce);
    }

    /// <summary>Every row of a map/reduce index, by its group value, through the streaming query endpoint.</summary>
    public static async Task<Dictionary<string, GroupTotals>> ReadRowsAsync(HttpClient client, GroupedIndex index)
    {
        string query = Uri.EscapeDataString($"from index '{index.Name}'");
        using JsonDocument answer = JsonDocument.Parse(await client.GetStringAsync($"{DatabasePath}/streams/queries?query={query}"));
        var rows = new Dictionary<string, GroupTotals>(StringComparer.OrdinalIgnoreCase);
        foreach (JsonElement row in answer.RootElement.GetProperty("Results").EnumerateArray())
            rows[row.GetProperty(index.GroupField).GetString() ?? "null"] = Totals(row, index);
        return rows;
    }

    /// <summary>
    /// The row of one group: <c>from index … where Group = $g</c>, with <c>WaitForNonStaleResults</c> (the server
    /// waits until the index processed every write committed before the query), or null when there is no such row.
    /// </summary>
    public static async Task<GroupTotals?> QueryGroupAsync(HttpClient client, GroupedIndex index, string group)
    {
        string body = JsonSerializer.Serialize(new Dictionary<string, object>
        {
            ["Query"] = $"from index '{index.Name}' where {index.GroupField} = $g",
            ["QueryParameters"] = new Dictionary<string, string> { ["g"] = group },
            ["WaitForNonStaleResults"] = true,
            ["WaitForNonStaleResultsTimeout"] = "00:01:00",
        });
        using var content = new StringContent(body, Encoding.UTF8, "application/json");
        using HttpResponseMessage response = await client.PostAsync($"{DatabasePath}/queries", content);
        string text = await response.Content.ReadAsStringAsync();
        if (response.StatusCode != HttpStatusCode.OK)
            throw new InvalidOperationException($"The query for {group} answered {(int)response.StatusCode}: {text}");
        using JsonDocument answer = JsonDocument.Parse(text);
        JsonElement results = answer.RootElement.GetProperty("Results");
        return results.GetArrayLength() == 0 ? null : Totals(results[0], index);
    }

    /// <summary>Stores one document (<c>PUT …/docs?id=</c>); returns once the server committed it.</summary>
    public static async Task PutAsync(HttpClient client, string id, byte[] json)
    {
        using var content = new ByteArrayContent(json);
        content.Headers.ContentType = new System.Net.Http.Headers.MediaTypeHeaderValue("application/json");
        using HttpResponseMessage response = await client.PutAsync($"{DatabasePath}/docs?id={Uri.EscapeDataString(id)}", content);
        if (!response.IsSuccessStatusCode)
            throw new InvalidOperationException($"PUT {id} answered {(int)response.StatusCode}: {await response.Content.ReadAsStringAsync()}");
    }

    private static GroupTotals Totals(JsonElement row, GroupedIndex index) =>
        new(row.GetProperty(index.CountField).GetInt64(), row.GetProperty(index.QuantityField).GetInt64(), row.GetProperty(index.AmountField).GetDouble());

    private static JsonElement Find(JsonDocument stats, string name)
    {
        foreach (JsonElement index in stats.RootElement.GetProperty("Results").EnumerateArray())
        {
            if (index.GetProperty("Name").GetString() == name)
                return index;
        }

        throw new InvalidOperationException($"The stats do not list the index {name}.");
    }

    /// <summary>The recent batches the stats keep: how many, their documents, their commit times, and the last reduce time of a map/reduce index.</summary>
    private static string DescribeBatches(JsonElement index)
    {
        int count = 0;
        long documents = 0, maxDocuments = 0;
        double milliseconds = 0, maxMilliseconds = 0;
        foreach (JsonElement batch in index.GetProperty("RecentBatches").EnumerateArray())
        {
            count++;
            long docs = batch.GetProperty("Documents").GetInt64();
            double ms = batch.GetProperty("DurationInMs").GetDouble();
            documents += docs;
            milliseconds += ms;
            maxDocuments = Math.Max(maxDocuments, docs);
            maxMilliseconds = Math.Max(maxMilliseconds, ms);
        }

        string text = string.Create(CultureInfo.InvariantCulture,
            $"last {count} batches: {documents:N0} docs in {milliseconds / 1000:0.0} s of commits ({(milliseconds > 0 ? documents / (milliseconds / 1000) : 0):N0}/s), largest {maxDocuments:N0} docs, slowest {maxMilliseconds:N0} ms");
        if (index.TryGetProperty("MapReduce", out JsonElement reduce))
            text += string.Create(CultureInfo.InvariantCulture, $"; last reduce {reduce.GetProperty("LastReduceInMs").GetDouble():N0} ms");
        return text;
    }
}
