using System.Globalization;
using System.Text.RegularExpressions;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Monitoring;

public sealed class MetricsTests
{
    [Fact]
    public async Task Metrics_ExposeRequestsDatabasesAndIndexes_InPrometheusFormat()
    {
        await using RunningServer running = await RunningServer.StartAsync();
        HttpClient client = running.Client;
        string database = await FolioApi.CreateDatabaseAsync(client);
        for (var i = 0; i < 3; i++)
            await FolioApi.StoreAsync(client, database, $"notes/{i}", $$$"""{"Text":"n{{{i}}}","@metadata":{"@collection":"Notes"}}""");
        (await client.GetAsync($"/databases/{database}/docs?id=notes/404")).Dispose();
        using (HttpResponseMessage query = await client.PostAsync($"/databases/{database}/queries?waitForNonStaleResults=true", FolioApi.Json("""{"Query":"from Notes where Text = 'n1'"}""")))
            query.EnsureSuccessStatusCode();

        using HttpResponseMessage response = await client.GetAsync("/metrics");
        string text = await response.Content.ReadAsStringAsync();

        Assert.Equal("text/plain", response.Content.Headers.ContentType?.MediaType);
        Assert.Equal(3, Value(text, "folio_http_requests_total", $"route=\"/databases/{{db}}/docs\",method=\"PUT\",status=\"201\""));
        Assert.Equal(1, Value(text, "folio_http_requests_total", $"route=\"/databases/{{db}}/docs\",method=\"GET\",status=\"404\""));
        Assert.Equal(3, Value(text, "folio_http_request_duration_seconds_count", $"route=\"/databases/{{db}}/docs\",method=\"PUT\",status=\"201\""));
        Assert.Equal(3, Value(text, "folio_documents", $"database=\"{database}\""));
        Assert.Equal(3, Value(text, "folio_document_writes_total", $"database=\"{database}\""));
        Assert.Equal(0, Value(text, "folio_database_failed", $"database=\"{database}\""));
        string index = Regex.Match(text, $"folio_index_documents_indexed_total\\{{database=\"{database}\",index=\"([^\"]+)\"\\}}").Groups[1].Value;
        Assert.StartsWith("Auto/Notes", index, StringComparison.Ordinal);
        Assert.Equal(3, Value(text, "folio_index_documents_indexed_total", $"database=\"{database}\",index=\"{index}\""));
        Assert.Equal(0, Value(text, "folio_index_lag_etags", $"database=\"{database}\",index=\"{index}\""));
        Assert.Contains("process_cpu_seconds_total", text, StringComparison.Ordinal);
        Assert.True(Value(text, "folio_threadpool_threads", "") > 0);
    }

    [Fact]
    public async Task Metrics_HaveTheMergersBatchesAndCommitLatency_AndJournalSyncs()
    {
        await using RunningServer running = await RunningServer.StartAsync();
        HttpClient client = running.Client;
        string database = await FolioApi.CreateDatabaseAsync(client);
        for (var i = 0; i < 5; i++)
            await FolioApi.StoreAsync(client, database, $"notes/{i}", """{"Text":"x"}""");

        string text = await client.GetStringAsync("/metrics");

        string labels = $"database=\"{database}\"";
        double transactions = Value(text, "folio_merger_batch_operations_count", labels);
        Assert.True(transactions is >= 1 and <= 5, $"{transactions} merged transactions for 5 sequential writes");
        Assert.Equal(5, Value(text, "folio_merger_batch_operations_sum", labels));
        Assert.Equal(transactions, Value(text, "folio_merger_commit_seconds_count", labels));
        Assert.True(Value(text, "folio_merger_commit_seconds_sum", labels) > 0);
        Assert.True(Value(text, "folio_journal_syncs_total", labels) >= transactions);
    }

    [Fact]
    public async Task Metrics_DropADatabasesSeries_WhenItIsDeleted()
    {
        await using RunningServer running = await RunningServer.StartAsync();
        HttpClient client = running.Client;
        string database = await FolioApi.CreateDatabaseAsync(client);
        await FolioApi.StoreAsync(client, database, "notes/1", """{"Text":"x"}""");
        Assert.Contains($"folio_documents{{database=\"{database}\"}}", await client.GetStringAsync("/metrics"), StringComparison.Ordinal);

        (await client.DeleteAsync($"/admin/databases?name={database}")).EnsureSuccessStatusCode();

        Assert.DoesNotContain($"database=\"{database}\"", await client.GetStringAsync("/metrics"), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Readiness_AnswersOk_WhenEveryDatabaseAcceptsWrites()
    {
        await using RunningServer running = await RunningServer.StartAsync();
        await FolioApi.CreateDatabaseAsync(running.Client);

        Assert.Equal("ok", await running.Client.GetStringAsync("/healthz/ready"));
        Assert.Equal("ok", await running.Client.GetStringAsync("/healthz/live"));
    }

    private static double Value(string exposition, string name, string labels)
    {
        string selector = labels.Length == 0 ? Regex.Escape(name) : $"{Regex.Escape(name)}\\{{{Regex.Escape(labels)}\\}}";
        Match match = Regex.Match(exposition, $"^{selector} (\\S+)$", RegexOptions.Multiline);
        Assert.True(match.Success, $"no sample {name}{{{labels}}} in:\n{exposition}");
        return double.Parse(match.Groups[1].Value, CultureInfo.InvariantCulture);
    }
}
