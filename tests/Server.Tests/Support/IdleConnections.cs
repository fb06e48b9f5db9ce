using System.Diagnostics;
using System.Net.Sockets;

namespace Folio.Server.Tests.Support;

/// <summary>
/// Many TCP connections to a server that never send a byte, each watched for the server closing it (a read that
/// returns 0 or fails).
/// </summary>
public sealed class IdleConnections : IDisposable
{
    private readonly List<TcpClient> _clients;
    private readonly List<Task> _closed;

    private IdleConnections(List<TcpClient> clients, List<Task> closed)
    {
        _clients = clients;
        _closed = closed;
    }

    public int Count => _clients.Count;

    /// <summary>How many the server has not closed yet.</summary>
    public int StillOpen => _closed.Count(t => !t.IsCompleted);

    /// <summary>Opens <paramref name="count"/> connections, <paramref name="parallel"/> at a time.</summary>
    public static async Task<IdleConnections> OpenAsync(Uri address, int count, int parallel = 64)
    {
        var clients = new List<TcpClient>(count);
        var closed = new List<Task>(count);
        try
        {
            for (int start = 0; start < count; start += parallel)
            {
                TcpClient[] batch = [.. Enumerable.Range(0, Math.Min(parallel, count - start)).Select(_ => new TcpClient { NoDelay = true })];
                clients.AddRange(batch);
                await Task.WhenAll(batch.Select(c => c.ConnectAsync(address.Host, address.Port))).WaitAsync(TestTimeouts.Default);
                closed.AddRange(batch.Select(c => ClosedAsync(c.GetStream())));
            }
        }
        catch
        {
            foreach (TcpClient client in clients)
                client.Dispose();
            throw;
        }
        return new IdleConnections(clients, closed);
    }

    /// <summary>Waits until the server closed every connection; returns how long that took from the call.</summary>
    public async Task<TimeSpan> WaitAllClosedAsync(TimeSpan timeout)
    {
        long started = Stopwatch.GetTimestamp();
        try
        {
            await Task.WhenAll(_closed).WaitAsync(timeout);
        }
        catch (TimeoutException)
        {
            Assert.Fail($"{StillOpen} of {Count} idle connections still open after {timeout}");
        }
        return Stopwatch.GetElapsedTime(started);
    }

    public void Dispose()
    {
        foreach (TcpClient client in _clients)
            client.Dispose();
    }

    private static async Task ClosedAsync(NetworkStream stream)
    {
        var buffer = new byte[1];
        try
        {
            while (await stream.ReadAsync(buffer) > 0)
            {
            }
        }
        catch (Exception e) when (e is IOException or ObjectDisposedException)
        {
            // Reset or disposed: closed either way.
        }
    }
}
