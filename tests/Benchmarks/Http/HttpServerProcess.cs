using System.Diagnostics;
using System.Net;
using System.Net.Sockets;

namespace Folio.Benchmarks.Http;

/// <summary>
/// A server under test in its own process on a loopback port, so its GC and threads are not shared
/// with the load client; its output goes to a log file, and its CPU time can be read between runs.
/// </summary>
public sealed class HttpServerProcess : IDisposable
{
    private readonly Process _process;
    private readonly StreamWriter _log;

    private HttpServerProcess(Process process, StreamWriter log, Uri url)
    {
        _process = process;
        _log = log;
        Url = url;
    }

    /// <summary>The server's base address.</summary>
    public Uri Url { get; }

    /// <summary>The process id (what dotnet-counters or perf attach to).</summary>
    public int Id => _process.Id;

    /// <summary>User plus system CPU time the server has used so far.</summary>
    public TimeSpan CpuTime
    {
        get
        {
            _process.Refresh();
            return _process.TotalProcessorTime;
        }
    }

    /// <summary>
    /// Starts <paramref name="fileName"/> with the arguments <paramref name="arguments"/> makes for a free port, and waits until
    /// <paramref name="readyPath"/> answers 2xx, asking every <paramref name="pollInterval"/> (100 ms unless given).
    /// </summary>
    public static async Task<HttpServerProcess> StartAsync(
        string fileName,
        Func<int, IEnumerable<string>> arguments,
        string readyPath,
        string logFile,
        IReadOnlyDictionary<string, string>? environment = null,
        TimeSpan? pollInterval = null)
    {
        int port = FreePort();
        var start = new ProcessStartInfo(fileName)
        {
            UseShellExecute = false,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            // PouchDB Server writes a log.txt into its working directory.
            WorkingDirectory = Path.GetDirectoryName(Path.GetFullPath(logFile)),
        };
        foreach (string argument in arguments(port))
            start.ArgumentList.Add(argument);
        if (environment is not null)
        {
            foreach ((string name, string value) in environment)
                start.Environment[name] = value;
        }

        var log = new StreamWriter(logFile, append: false) { AutoFlush = true };
        Process process = Process.Start(start) ?? throw new InvalidOperationException($"Could not start {fileName}.");
        process.OutputDataReceived += (_, e) => Write(log, e.Data);
        process.ErrorDataReceived += (_, e) => Write(log, e.Data);
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        var server = new HttpServerProcess(process, log, new Uri($"http://127.0.0.1:{port}"));
        try
        {
            await server.WaitUntilReadyAsync(readyPath, logFile, pollInterval ?? TimeSpan.FromMilliseconds(100));
        }
        catch
        {
            server.Dispose();
            throw;
        }

        return server;
    }

    /// <summary>Stops the server with SIGTERM (a graceful shutdown), killing it if it has not exited within 30 seconds.</summary>
    public async Task StopAsync()
    {
        if (_process.HasExited)
            return;
        using (Process term = Process.Start("kill", ["-TERM", _process.Id.ToString(System.Globalization.CultureInfo.InvariantCulture)]))
            await term.WaitForExitAsync();
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(30));
        try
        {
            await _process.WaitForExitAsync(timeout.Token);
        }
        catch (OperationCanceledException)
        {
            _process.Kill(entireProcessTree: true);
            await _process.WaitForExitAsync();
        }
    }

    /// <summary>Kills the server if it still runs.</summary>
    public void Dispose()
    {
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
            _process.WaitForExit();
        }

        _process.Dispose();
        lock (_log)
            _log.Dispose();
    }

    /// <summary>A port nothing listens on now; the OS hands out ephemeral ports in turn, so it stays free long enough.</summary>
    public static int FreePort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }

    private static void Write(StreamWriter log, string? line)
    {
        if (line is null)
            return;
        lock (log)
        {
            if (log.BaseStream.CanWrite)
                log.WriteLine(line);
        }
    }

    private async Task WaitUntilReadyAsync(string readyPath, string logFile, TimeSpan pollInterval)
    {
        using var client = new HttpClient { Timeout = TimeSpan.FromSeconds(2) };
        var deadline = Stopwatch.StartNew();
        while (deadline.Elapsed < TimeSpan.FromSeconds(60))
        {
            if (_process.HasExited)
                throw new InvalidOperationException($"The server exited with {_process.ExitCode} before it answered; see {logFile}.");
            try
            {
                using HttpResponseMessage response = await client.GetAsync(new Uri(Url, readyPath));
                if (response.IsSuccessStatusCode)
                    return;
            }
            catch (HttpRequestException)
            {
                // Not listening yet.
            }
            catch (TaskCanceledException)
            {
                // Listening but still starting.
            }

            await Task.Delay(pollInterval);
        }

        throw new TimeoutException($"{Url}{readyPath} did not answer within 60 s; see {logFile}.");
    }
}
