using Folio.Server.Tests.Support;
using Xunit.Abstractions;

namespace Folio.Server.Tests.Hostile;

/// <summary>
/// Ten thousand idle connections (issue 24). The server runs as its own process: in this one, the connections'
/// two ends would need twice the descriptors, more than the 20,000 a process may open here (<c>ulimit -n</c>).
/// </summary>
public sealed class ManyIdleConnectionsTests(ITestOutputHelper output)
{
    [Fact]
    [Trait("Category", "Slow")]
    public async Task IdleConnections_TenThousand_DoNotStopOthers_AndCloseAfterTheKeepAliveTimeout()
    {
        string dataDir = RunningServer.NewDataDir();
        try
        {
            await using ServerProcess server = await ServerProcess.StartAsync(dataDir, "--KeepAliveTimeout=00:01:00");
            string db = await FolioApi.CreateDatabaseAsync(server.Client);
            await FolioApi.StoreAsync(server.Client, db, "users/1", """{"Name":"Ann"}""");
            LatencyReport opening;
            LatencyReport open;
            TimeSpan closedAfter;
            await using (var probe = LatencyProbe.Start(server.Address, FolioApi.DocsUri(db, "users/1")))
            {
                using IdleConnections idle = await IdleConnections.OpenAsync(server.Address, 10_000, parallel: 100);
                opening = await probe.StopAsync();
                Assert.Equal(10_000, idle.StillOpen);
                await using (var whileOpen = LatencyProbe.Start(server.Address, FolioApi.DocsUri(db, "users/1")))
                {
                    closedAfter = await idle.WaitAllClosedAsync(TimeSpan.FromSeconds(150));
                    open = await whileOpen.StopAsync();
                }
            }

            output.WriteLine($"the other client while 10,000 connections opened: {opening}");
            output.WriteLine($"the other client while they stayed idle, until the server closed the last {closedAfter.TotalSeconds:0.0} s later: {open}");
            opening.AssertServed(10, TimeSpan.FromSeconds(2));
            open.AssertServed(10, TimeSpan.FromSeconds(2));
            await FolioApi.AssertServingAsync(server.Client);
        }
        finally
        {
            if (Directory.Exists(dataDir))
                Directory.Delete(dataDir, recursive: true);
        }
    }
}
