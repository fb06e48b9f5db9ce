using System.Net;
using System.Text.Json;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Changes;

public class ContinuousFeedTests : IClassFixture<ServerFixture>
{
    private readonly HttpClient _client;

    public ContinuousFeedTests(ServerFixture fixture)
    {
        _client = fixture.Client;
    }

    [Fact]
    public async Task Continuous_StreamsHistoryThenLiveWrites_AsNdjsonLines()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        await FolioApi.StoreAsync(_client, db, "users/1", "{}");
        using HttpResponseMessage response = await _client.GetAsync($"/databases/{db}/changes?feed=continuous&limit=3", HttpCompletionOption.ResponseHeadersRead);
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("application/x-ndjson", response.Content.Headers.ContentType?.MediaType);
        using var lines = new StreamReader(await response.Content.ReadAsStreamAsync());

        Assert.Equal("users/1", (await NextChangeAsync(lines)).GetProperty("Id").GetString());
        await FolioApi.StoreAsync(_client, db, "users/2", "{}");
        Assert.Equal("users/2", (await NextChangeAsync(lines)).GetProperty("Id").GetString());
        using (await _client.DeleteAsync(FolioApi.DocsUri(db, "users/1")))
        {
        }

        JsonElement deleted = await NextChangeAsync(lines);
        Assert.Equal("Delete", deleted.GetProperty("ChangeType").GetString());
        JsonElement end = await NextChangeAsync(lines);
        Assert.Equal(deleted.GetProperty("Etag").GetInt64(), end.GetProperty("LastEtag").GetInt64());
        Assert.Null(await lines.ReadLineAsync().WaitAsync(TestTimeouts.Default));
    }

    [Fact]
    public async Task Continuous_WritesEmptyLinesAsHeartbeats_AndEndsAtTheTimeout()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        using HttpResponseMessage response = await _client.GetAsync($"/databases/{db}/changes?feed=continuous&heartbeat=50&timeout=600", HttpCompletionOption.ResponseHeadersRead);
        using var lines = new StreamReader(await response.Content.ReadAsStreamAsync());

        var heartbeats = 0;
        string? line;
        while ((line = await lines.ReadLineAsync().WaitAsync(TestTimeouts.Default)) == string.Empty)
            heartbeats++;

        Assert.True(heartbeats >= 2, $"{heartbeats} heartbeats in 600 ms at one per 50 ms");
        Assert.Equal(0, JsonDocument.Parse(line!).RootElement.GetProperty("LastEtag").GetInt64());
        Assert.Null(await lines.ReadLineAsync().WaitAsync(TestTimeouts.Default));
    }

    [Fact]
    public async Task Continuous_EndsWithItsPosition_WhenTheDatabaseIsDeleted()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        await FolioApi.StoreAsync(_client, db, "users/1", "{}");
        using HttpResponseMessage response = await _client.GetAsync($"/databases/{db}/changes?feed=continuous", HttpCompletionOption.ResponseHeadersRead);
        using var lines = new StreamReader(await response.Content.ReadAsStreamAsync());
        long etag = (await NextChangeAsync(lines)).GetProperty("Etag").GetInt64();

        using (HttpResponseMessage deleted = await _client.DeleteAsync($"/admin/databases?name={db}").WaitAsync(TestTimeouts.Default))
            Assert.Equal(HttpStatusCode.NoContent, deleted.StatusCode);

        Assert.Equal(etag, (await NextChangeAsync(lines)).GetProperty("LastEtag").GetInt64());
        Assert.Null(await lines.ReadLineAsync().WaitAsync(TestTimeouts.Default));
    }

    [Fact]
    public async Task Continuous_NeverHoldsUpWriters_WhenItsClientStopsReading()
    {
        // Without a minimum response rate, so Kestrel does not cut the stalled feed off while the test writes.
        await using RunningServer server = await RunningServer.StartAsync("--MinResponseBytesPerSecond=0");
        HttpClient writer = server.Client;
        string db = await FolioApi.CreateDatabaseAsync(writer);
        using var reader = RunningServer.CreateClient(server.Server.Address);
        using HttpResponseMessage response = await reader.GetAsync($"/databases/{db}/changes?feed=continuous&includeDocs=true", HttpCompletionOption.ResponseHeadersRead);
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);

        // The client reads nothing while 20,000 documents of 1 KB are written: far more than the socket buffers hold.
        string body = "{\"Fill\":\"" + new string('x', 1000) + "\"}";
        for (var batch = 0; batch < 20; batch++)
        {
            string commands = string.Join(',', Enumerable.Range(batch * 1000, 1000).Select(i => $"{{\"Type\":\"PUT\",\"Id\":\"fills/{i}\",\"Document\":{body}}}"));
            using HttpResponseMessage written = await writer.PostAsync($"/databases/{db}/bulk_docs", FolioApi.Json($"{{\"Commands\":[{commands}]}}")).WaitAsync(TestTimeouts.Default);
            Assert.Equal(HttpStatusCode.Created, written.StatusCode);
        }

        // Once read, the feed still delivers everything from where it stalled.
        using var lines = new StreamReader(await response.Content.ReadAsStreamAsync());
        for (var i = 0; i < 20_000; i++)
            Assert.Equal($"fills/{i}", (await NextChangeAsync(lines)).GetProperty("Id").GetString());
    }

    private static async Task<JsonElement> NextChangeAsync(StreamReader lines)
    {
        while (true)
        {
            string? line = await lines.ReadLineAsync().WaitAsync(TestTimeouts.Default);
            Assert.NotNull(line);
            if (line.Length > 0)
                return JsonDocument.Parse(line).RootElement.Clone();
        }
    }
}
