using System.Diagnostics;

namespace Folio.Server.Tests.Support;

/// <summary>
/// A well-behaved client beside a hostile one: it loads one URL over and over on its own connection pool, paced a
/// few milliseconds apart, and records how long each answer took and whether it succeeded.
/// </summary>
public sealed class LatencyProbe : IAsyncDisposable
{
    private readonly HttpClient _client;
    private readonly string _path;
    private readonly CancellationTokenSource _stop = new();
    private readonly List<double> _milliseconds = [];
    private readonly Task _loop;
    private int _failures;
    private string? _firstFailure;

    private LatencyProbe(Uri address, string path)
    {
        _client = RunningServer.CreateClient(address);
        _path = path;
        _loop = Task.Run(LoopAsync);
    }

    /// <summary>Starts loading <paramref name="path"/> from the server at <paramref name="address"/>.</summary>
    public static LatencyProbe Start(Uri address, string path) => new(address, path);

    /// <summary>Stops the loop and summarizes what it saw.</summary>
    public async Task<LatencyReport> StopAsync()
    {
        _stop.Cancel();
        await _loop.WaitAsync(TestTimeouts.Default);
        double[] sorted = [.. _milliseconds.Order()];
        return new LatencyReport(sorted.Length, _failures, _firstFailure, Percentile(sorted, 0.50), Percentile(sorted, 0.99), sorted.Length == 0 ? 0 : sorted[^1]);
    }

    public async ValueTask DisposeAsync()
    {
        if (!_stop.IsCancellationRequested)
            await StopAsync();
        _client.Dispose();
        _stop.Dispose();
    }

    private async Task LoopAsync()
    {
        while (!_stop.IsCancellationRequested)
        {
            long started = Stopwatch.GetTimestamp();
            try
            {
                // Not cancelled by the stop: a request under way finishes, so its latency is a real one.
                using HttpResponseMessage response = await _client.GetAsync(_path);
                await response.Content.ReadAsByteArrayAsync();
                if (!response.IsSuccessStatusCode)
                    Fail($"{(int)response.StatusCode}");
            }
            catch (Exception e) when (e is HttpRequestException or TaskCanceledException or IOException)
            {
                Fail(e.Message);
            }
            _milliseconds.Add(Stopwatch.GetElapsedTime(started).TotalMilliseconds);
            try
            {
                await Task.Delay(5, _stop.Token);
            }
            catch (OperationCanceledException)
            {
                return;
            }
        }
    }

    private void Fail(string reason)
    {
        _failures++;
        _firstFailure ??= reason;
    }

    private static double Percentile(double[] sorted, double fraction) =>
        sorted.Length == 0 ? 0 : sorted[Math.Min(sorted.Length - 1, (int)Math.Ceiling(fraction * sorted.Length) - 1)];
}
