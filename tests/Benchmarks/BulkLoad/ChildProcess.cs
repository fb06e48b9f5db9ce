using System.Diagnostics;
using System.Net;
using System.Net.Sockets;

namespace Folio.Benchmarks.BulkLoad;

/// <summary>A server the driver starts on a free loopback port and stops (by its own id) when disposed.</summary>
public sealed class ChildProcess : IDisposable
{
    private readonly Process _process;

    private ChildProcess(Process process, int port)
    {
        _process = process;
        Port = port;
    }

    public int Port { get; }

    public int Id => _process.Id;

    public Uri Url => new($"http://127.0.0.1:{Port}");

    /// <summary>Starts <paramref name="fileName"/> with the arguments <paramref name="arguments"/> builds from a free port, and waits until <paramref name="probePath"/> answers.</summary>
    public static async Task<ChildProcess> StartAsync(string fileName, Func<int, IEnumerable<string>> arguments, string workingDirectory, string probePath, string logPath)
    {
        int port = FreePort();
        var info = new ProcessStartInfo(fileName)
        {
            WorkingDirectory = workingDirectory,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (string argument in arguments(port))
            info.ArgumentList.Add(argument);
        Process process = Process.Start(info) ?? throw new InvalidOperationException($"Could not start {fileName}.");
        var log = new StreamWriter(logPath) { AutoFlush = true };
        process.OutputDataReceived += (_, e) => { if (e.Data is not null) lock (log) log.WriteLine(e.Data); };
        process.ErrorDataReceived += (_, e) => { if (e.Data is not null) lock (log) log.WriteLine(e.Data); };
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        var child = new ChildProcess(process, port);
        using var probe = new HttpClient { Timeout = TimeSpan.FromSeconds(2) };
        var deadline = Stopwatch.StartNew();
        while (true)
        {
            if (process.HasExited)
                throw new InvalidOperationException($"{fileName} exited with {process.ExitCode} before serving; see {logPath}.");
            try
            {
                using HttpResponseMessage response = await probe.GetAsync(new Uri(child.Url, probePath));
                if (response.IsSuccessStatusCode)
                    return child;
            }
            catch (HttpRequestException)
            {
                // Not listening yet.
            }
            catch (TaskCanceledException)
            {
                // Not answering yet.
            }

            if (deadline.Elapsed > TimeSpan.FromSeconds(60))
            {
                child.Dispose();
                throw new TimeoutException($"{fileName} did not answer {probePath} within 60 s; see {logPath}.");
            }

            await Task.Delay(100);
        }
    }

    /// <summary>Peak resident memory of the process so far (Linux VmHWM), or 0 when unknown.</summary>
    public long PeakResidentBytes()
    {
        string path = $"/proc/{_process.Id}/status";
        if (!File.Exists(path))
            return 0;
        foreach (string line in File.ReadLines(path))
        {
            if (line.StartsWith("VmHWM:", StringComparison.Ordinal))
                return long.Parse(line.AsSpan(6).Trim().TrimEnd("kB").Trim(), System.Globalization.CultureInfo.InvariantCulture) * 1024;
        }

        return 0;
    }

    /// <summary>CPU time the process has used.</summary>
    public TimeSpan CpuTime
    {
        get
        {
            _process.Refresh();
            return _process.TotalProcessorTime;
        }
    }

    /// <summary>Asks the process to stop (SIGTERM) and waits for it to exit, so it can close its files cleanly.</summary>
    public async Task StopAsync(TimeSpan timeout)
    {
        if (_process.HasExited)
            return;
        using (Process kill = Process.Start(new ProcessStartInfo("kill", ["-TERM", _process.Id.ToString(System.Globalization.CultureInfo.InvariantCulture)]) { UseShellExecute = false })
            ?? throw new InvalidOperationException("Could not run kill."))
        {
            await kill.WaitForExitAsync();
        }

        using var wait = new CancellationTokenSource(timeout);
        await _process.WaitForExitAsync(wait.Token);
    }

    public void Dispose()
    {
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
            _process.WaitForExit(10_000);
        }

        _process.Dispose();
    }

    private static int FreePort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }
}
