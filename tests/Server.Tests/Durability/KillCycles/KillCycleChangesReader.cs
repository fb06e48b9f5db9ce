using System.Net.Sockets;
using System.Text.Json;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Durability.KillCycles;

/// <summary>
/// A consumer of the continuous changes feed that resumes, after each kill, from the last etag it received; etags
/// must grow within one connection.
/// </summary>
internal sealed class KillCycleChangesReader(KillCycleServer servers, string database, ChangeLog log, KillCycleReport report)
{
    public async Task RunAsync(CancellationToken stop)
    {
        while (!stop.IsCancellationRequested)
        {
            try
            {
                ServerProcess server = await servers.UpAsync().WaitAsync(stop);
                using var http = new HttpClient(new SocketsHttpHandler { UseProxy = false }) { BaseAddress = server.Address, Timeout = Timeout.InfiniteTimeSpan };
                await ReadAsync(http, stop);
            }
            catch (OperationCanceledException) when (stop.IsCancellationRequested)
            {
                return;
            }
            catch (Exception e) when (e is HttpRequestException or IOException or SocketException or JsonException or InvalidOperationException or ObjectDisposedException or OperationCanceledException)
            {
                report.Count("changes feed reconnects");
                await Task.Delay(20, CancellationToken.None);
            }
        }
    }

    private async Task ReadAsync(HttpClient http, CancellationToken stop)
    {
        long since = log.LastEtag;
        using HttpResponseMessage response = await http.GetAsync($"/databases/{database}/changes?feed=continuous&since={since}&collection=Items&heartbeat=1000", HttpCompletionOption.ResponseHeadersRead, stop);
        if (!response.IsSuccessStatusCode)
            throw new InvalidOperationException($"The changes feed answered {(int)response.StatusCode}.");
        using var reader = new StreamReader(await response.Content.ReadAsStreamAsync(stop));
        long last = since;
        while (await reader.ReadLineAsync(stop) is { } line)
        {
            if (line.Length == 0)
                continue;
            using JsonDocument change = JsonDocument.Parse(line);
            if (!change.RootElement.TryGetProperty("Id", out JsonElement id))
                continue;
            long etag = change.RootElement.GetProperty("Etag").GetInt64();
            if (etag <= last)
                report.Anomaly($"the changes feed sent etag {etag} after {last} in one connection");
            last = etag;
            bool deleted = change.RootElement.GetProperty("ChangeType").GetString() == "Delete";
            log.Record(etag, id.GetString()!, deleted, change.RootElement.GetProperty("ChangeVector").GetString());
            report.Count("changes received");
        }
    }
}
