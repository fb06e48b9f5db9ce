using System.Text.Json;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Hostile;

/// <summary>A query whose client disconnects is cancelled (issue 24), over real HTTP, and the server logs and counts it.</summary>
public sealed class QueryDisconnectTests
{
    [Fact]
    public async Task Query_WhoseClientDisconnects_IsCancelled_AndLoggedAndCountedAs499()
    {
        // The projection spins until its script budget (two minutes here) would stop it: only the client's leaving can end it sooner.
        await using RunningServer server = await RunningServer.StartAsync("--Scripting:TimeoutMs=120000", "--Scripting:MaxStatements=2000000000");
        string db = await FolioApi.CreateDatabaseAsync(server.Client);
        await FolioApi.StoreAsync(server.Client, db, "users/1", """{"Name":"Ann"}""");
        string path = $"/databases/{db}/queries";
        string body = JsonSerializer.Serialize(new { Query = "from users as u select { Spin: (function () { var n = 0; while (true) { n++; } })() }" });

        var elapsed = System.Diagnostics.Stopwatch.StartNew();
        using (var leave = new CancellationTokenSource(TimeSpan.FromSeconds(1)))
            await Assert.ThrowsAnyAsync<OperationCanceledException>(() => server.Client.PostAsync(path, FolioApi.Json(body), leave.Token));

        Serilog.Events.LogEvent logged = await server.Log.WaitForRequestAsync("POST", path);
        Assert.Equal(499, Convert.ToInt32(CapturingSink.Scalar(logged, "StatusCode"), System.Globalization.CultureInfo.InvariantCulture));
        Assert.True(elapsed.Elapsed < TimeSpan.FromSeconds(30), $"the query ran on for {elapsed.Elapsed} after its client left");
        string metrics = await server.Client.GetStringAsync("/metrics");
        Assert.Contains(
            metrics.Split('\n'),
            line => line.StartsWith("folio_http_requests_total{", StringComparison.Ordinal)
                && line.Contains("route=\"/databases/{db}/queries\"", StringComparison.Ordinal)
                && line.Contains("method=\"POST\"", StringComparison.Ordinal)
                && line.Contains("status=\"499\"", StringComparison.Ordinal));
        await FolioApi.AssertServingAsync(server.Client);
    }
}
