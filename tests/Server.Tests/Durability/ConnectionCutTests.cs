using System.Net;
using System.Net.Sockets;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Durability;

public sealed class ConnectionCutTests
{
    [Fact]
    public void IsCut_True_ForABareSocketException()
    {
        // Regression: HttpClient let "Transport endpoint is not connected" out of Socket.RemoteEndPoint, unwrapped,
        // when a kill landed between the connect and the request; the history test took it for a client bug.
        Assert.True(ConnectionCut.IsCut(new SocketException((int)SocketError.NotConnected)));
        Assert.False(ConnectionCut.IsCut(new InvalidOperationException()));
    }

    [Fact]
    public async Task IsCut_ClassifiesEveryFailure_OfRequestsToAPeerThatResetsEachConnection()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        using var stop = new CancellationTokenSource();
        Task resetter = Task.Run(async () =>
        {
            while (!stop.IsCancellationRequested)
            {
                Socket socket;
                try
                {
                    socket = await listener.AcceptSocketAsync(stop.Token);
                }
                catch (OperationCanceledException)
                {
                    return;
                }

                socket.LingerState = new LingerOption(true, 0);
                socket.Close();
            }
        });

        // A resetter that stopped early leaves requests unanswered: they fail within seconds, not the default 100.
        using var client = new HttpClient { BaseAddress = new Uri($"http://127.0.0.1:{((IPEndPoint)listener.LocalEndpoint).Port}"), Timeout = TimeSpan.FromSeconds(10) };
        int failures = 0;
        for (int i = 0; i < 40; i++)
        {
            try
            {
                using HttpResponseMessage response = await client.GetAsync("/databases/db/docs?id=a");
            }
            catch (Exception e)
            {
                Assert.True(ConnectionCut.IsCut(e), $"Not taken for a cut connection: {e}");
                failures++;
            }
        }

        await stop.CancelAsync();
        await resetter;
        Assert.Equal(40, failures);
    }
}
