using System.Diagnostics;
using System.Net;
using System.Text;
using System.Text.Json;

namespace Folio.Benchmarks.BulkLoad;

/// <summary>Loads the records into a fresh Folio database through K parallel bulk insert streams.</summary>
public static class FolioLoader
{
    public static async Task<LoadResult> RunAsync(ChildProcess server, byte[][] records, int streams, long payloadBytes)
    {
        using var client = new HttpClient(new SocketsHttpHandler { UseProxy = false }) { BaseAddress = server.Url, Timeout = Timeout.InfiniteTimeSpan };
        string db = $"bulk-{streams}-{Guid.NewGuid():N}"[..24];
        using (HttpResponseMessage created = await client.PutAsync("/admin/databases", new StringContent($$"""{"Name":"{{db}}"}""", Encoding.UTF8, "application/json")))
        {
            if (created.StatusCode != HttpStatusCode.Created)
                throw new InvalidOperationException($"Creating {db} answered {(int)created.StatusCode}.");
        }

        TimeSpan cpuBefore = server.CpuTime;
        var inserts = new Task<JsonElement>[streams];
        int per = records.Length / streams;
        var watch = Stopwatch.StartNew();
        for (int s = 0; s < streams; s++)
        {
            int start = s * per;
            int count = s == streams - 1 ? records.Length - start : per;
            inserts[s] = InsertAsync(client, db, new CommandStreamContent(records, start, count));
        }

        JsonElement[] summaries = await Task.WhenAll(inserts);
        watch.Stop();
        TimeSpan cpu = server.CpuTime - cpuBefore;

        long documents = 0;
        long batches = 0;
        double parse = 0, network = 0, commit = 0;
        foreach (JsonElement summary in summaries)
        {
            documents += summary.GetProperty("Documents").GetInt64();
            batches += summary.GetProperty("Batches").GetInt64();
            JsonElement timings = summary.GetProperty("Timings");
            parse += timings.GetProperty("ParseMs").GetDouble();
            network += timings.GetProperty("NetworkWaitMs").GetDouble();
            commit += timings.GetProperty("CommitWaitMs").GetDouble();
        }

        using JsonDocument stats = JsonDocument.Parse(await client.GetStringAsync($"/databases/{db}/stats"));
        long stored = stats.RootElement.GetProperty("CountOfDocuments").GetInt64();
        if (documents != records.Length || stored != records.Length)
            throw new InvalidOperationException($"Folio stored {stored} documents (streams reported {documents}); expected {records.Length}.");

        return new LoadResult("Folio bulk_insert", streams, records.Length, watch.Elapsed, payloadBytes)
        {
            JournalBytes = stats.RootElement.GetProperty("JournalBytesWritten").GetInt64(),
            Transactions = stats.RootElement.GetProperty("MergedTransactions").GetInt64(),
            Batches = batches,
            Timings = (parse, network, commit),
            ServerCpu = cpu,
        };
    }

    private static async Task<JsonElement> InsertAsync(HttpClient client, string db, HttpContent content)
    {
        using var request = new HttpRequestMessage(HttpMethod.Post, $"/databases/{db}/bulk_insert") { Content = content };
        using HttpResponseMessage response = await client.SendAsync(request);
        string body = await response.Content.ReadAsStringAsync();
        if (response.StatusCode != HttpStatusCode.Created)
            throw new InvalidOperationException($"bulk_insert answered {(int)response.StatusCode}: {body}");
        return JsonDocument.Parse(body).RootElement.Clone();
    }
}
