using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using System.Text;
using Folio.Server.Tests.Support;
using Xunit.Abstractions;

namespace Folio.Server.Tests.Hostile;

/// <summary>
/// Slow and greedy clients (issue 24): trickled headers, trickled bodies, idle connections and oversized header
/// sets are cut by Kestrel's limits while another client's loads keep being answered quickly.
/// </summary>
public sealed class SlowClientTests(ITestOutputHelper output)
{
    // Generous for a shared 2-core machine; the figures measured are written to the test output.
    private static readonly TimeSpan P99Bound = TimeSpan.FromSeconds(2);

    // Over the 32 KB of headers a request may carry.
    private static readonly string BigHeader = new('x', 40 * 1024);

    [Fact]
    public async Task Headers_TrickledAByteASecond_AreCutAtTheHeadersTimeout_WhileOthersAreServed()
    {
        await using RunningServer server = await RunningServer.StartAsync("--RequestHeadersTimeout=00:00:03");
        string doc = await StoreOneAsync(server);
        LatencyReport report;
        TimeSpan[] lifetimes;
        await using (var probe = LatencyProbe.Start(server.Server.Address, doc))
        {
            lifetimes = await Task.WhenAll(Enumerable.Range(0, 50).Select(_ =>
                TrickleAsync(server.Server.Address, "GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")));
            report = await probe.StopAsync();
        }

        output.WriteLine($"50 header tricklers cut after {lifetimes.Min().TotalSeconds:0.0}-{lifetimes.Max().TotalSeconds:0.0} s; the other client: {report}");
        Assert.All(lifetimes, lifetime => Assert.InRange(lifetime, TimeSpan.FromSeconds(2), TimeSpan.FromSeconds(15)));
        report.AssertServed(10, P99Bound);
    }

    [Fact]
    public async Task Body_TrickledAByteASecond_IsCutAfterTheGracePeriod_WhileOthersAreServed()
    {
        await using RunningServer server = await RunningServer.StartAsync("--MinDataRateGracePeriod=00:00:02");
        string db = await FolioApi.CreateDatabaseAsync(server.Client);
        await FolioApi.StoreAsync(server.Client, db, "users/1", """{"Name":"Ann"}""");
        LatencyReport report;
        TimeSpan[] lifetimes;
        await using (var probe = LatencyProbe.Start(server.Server.Address, FolioApi.DocsUri(db, "users/1")))
        {
            lifetimes = await Task.WhenAll(Enumerable.Range(0, 20).Select(i =>
                TrickleAsync(server.Server.Address, $"PUT {FolioApi.DocsUri(db, $"slow/{i}")} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{{\"Name\":\"")));
            report = await probe.StopAsync();
        }

        output.WriteLine($"20 body tricklers cut after {lifetimes.Min().TotalSeconds:0.0}-{lifetimes.Max().TotalSeconds:0.0} s; the other client: {report}");
        Assert.All(lifetimes, lifetime => Assert.InRange(lifetime, TimeSpan.FromSeconds(1.5), TimeSpan.FromSeconds(15)));
        report.AssertServed(10, P99Bound);
        Assert.Equal(1, (await FolioApi.StatsAsync(server.Client, db)).CountOfDocuments);
    }

    [Fact]
    public async Task IdleConnections_AThousand_DoNotStopOthers_AndCloseAfterTheKeepAliveTimeout()
    {
        await using RunningServer server = await RunningServer.StartAsync("--KeepAliveTimeout=00:00:05");
        string doc = await StoreOneAsync(server);
        LatencyReport report;
        TimeSpan closedAfter;
        await using (var probe = LatencyProbe.Start(server.Server.Address, doc))
        {
            using IdleConnections idle = await IdleConnections.OpenAsync(server.Server.Address, 1_000);
            closedAfter = await idle.WaitAllClosedAsync(TimeSpan.FromSeconds(30));
            report = await probe.StopAsync();
        }

        output.WriteLine($"1,000 idle connections all closed {closedAfter.TotalSeconds:0.0} s after opening; the other client meanwhile: {report}");
        report.AssertServed(10, P99Bound);
        await FolioApi.AssertServingAsync(server.Client);
    }

    [Fact]
    public async Task Headers_OverTheCountOrSizeLimits_Answer431_WhileOthersAreServed()
    {
        await using RunningServer server = await RunningServer.StartAsync();
        string doc = await StoreOneAsync(server);
        HttpStatusCode[] answers;
        LatencyReport report;
        await using (var probe = LatencyProbe.Start(server.Server.Address, doc))
        {
            using HttpClient greedy = RunningServer.CreateClient(server.Server.Address);
            var until = Stopwatch.StartNew();
            // Ten greedy clients for three seconds, alternating too many headers and too large a header.
            HttpStatusCode[][] perClient = await Task.WhenAll(Enumerable.Range(0, 10).Select(async client =>
            {
                var seen = new List<HttpStatusCode>();
                for (int i = client; until.Elapsed < TimeSpan.FromSeconds(3); i++)
                {
                    using var request = new HttpRequestMessage(HttpMethod.Get, doc);
                    if (i % 2 == 0)
                    {
                        for (int h = 0; h < 200; h++)
                            request.Headers.Add($"X-H{h}", "v");
                    }
                    else
                    {
                        request.Headers.Add("X-Big", BigHeader);
                    }
                    using HttpResponseMessage response = await greedy.SendAsync(request);
                    seen.Add(response.StatusCode);
                }
                return seen.ToArray();
            }));
            answers = [.. perClient.SelectMany(a => a)];
            report = await probe.StopAsync();
        }

        output.WriteLine($"{answers.Length} requests over the header limits in 3 s; the other client meanwhile: {report}");
        Assert.All(answers, status => Assert.Equal(HttpStatusCode.RequestHeaderFieldsTooLarge, status));
        Assert.True(answers.Length >= 20, $"{answers.Length} greedy requests");
        report.AssertServed(10, P99Bound);
    }

    private static async Task<string> StoreOneAsync(RunningServer server)
    {
        string db = await FolioApi.CreateDatabaseAsync(server.Client);
        await FolioApi.StoreAsync(server.Client, db, "users/1", """{"Name":"Ann"}""");
        return FolioApi.DocsUri(db, "users/1");
    }

    /// <summary>
    /// Sends <paramref name="head"/> at once, then one more byte each second until the server closes the connection;
    /// returns how long the server kept it. Fails after 30 s: the server never cut it.
    /// </summary>
    private static async Task<TimeSpan> TrickleAsync(Uri address, string head)
    {
        using var client = new TcpClient { NoDelay = true };
        await client.ConnectAsync(address.Host, address.Port).WaitAsync(TestTimeouts.Default);
        NetworkStream stream = client.GetStream();
        long started = Stopwatch.GetTimestamp();
        Task closed = DrainUntilClosedAsync(stream);
        try
        {
            await stream.WriteAsync(Encoding.ASCII.GetBytes(head));
            byte[] one = "a"u8.ToArray();
            while (!closed.IsCompleted && Stopwatch.GetElapsedTime(started) < TimeSpan.FromSeconds(30))
            {
                // Paces the trickle; the loop ends on the server's close, which the read task observes.
                await Task.WhenAny(closed, Task.Delay(TimeSpan.FromSeconds(1)));
                if (!closed.IsCompleted)
                    await stream.WriteAsync(one);
            }
        }
        catch (IOException)
        {
            // The server closed the connection while a byte was on its way.
        }
        await closed.WaitAsync(TimeSpan.FromSeconds(5));
        return Stopwatch.GetElapsedTime(started);
    }

    private static async Task DrainUntilClosedAsync(NetworkStream stream)
    {
        var buffer = new byte[4096];
        try
        {
            while (await stream.ReadAsync(buffer) > 0)
            {
            }
        }
        catch (IOException)
        {
            // Reset: closed too.
        }
    }
}
