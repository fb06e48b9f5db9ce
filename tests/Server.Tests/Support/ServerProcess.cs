using System.Diagnostics;
using System.Text;
using System.Text.RegularExpressions;

namespace Folio.Server.Tests.Support;

/// <summary>
/// Folio.Server.dll run as a real child process (<c>dotnet Folio.Server.dll --DataDir=… --ServerUrl=http://127.0.0.1:0</c>),
/// for tests that must kill the process the hard way. The port is read from its "Folio listening on" console line.
/// </summary>
public sealed partial class ServerProcess : IAsyncDisposable
{
    private readonly Process _process;
    private readonly StringBuilder _output = new();
    private readonly TaskCompletionSource<Uri> _listening = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly TaskCompletionSource<System.Net.IPEndPoint> _listeningTcp = new(TaskCreationOptions.RunContinuationsAsynchronously);

    private ServerProcess(Process process)
    {
        _process = process;
    }

    public Uri Address { get; private set; } = null!;

    public HttpClient Client { get; private set; } = null!;

    /// <summary>The subscriptions' TCP listener, from its "Folio subscriptions listening on" line.</summary>
    public System.Net.IPEndPoint TcpEndPoint { get; private set; } = null!;

    public bool HasExited => _process.HasExited;

    /// <summary>The exit code, once <see cref="HasExited"/>.</summary>
    public int ExitCode => _process.ExitCode;

    public string Output
    {
        get
        {
            lock (_output)
                return _output.ToString();
        }
    }

    public static async Task<ServerProcess> StartAsync(string dataDir, params string[] extraArgs)
    {
        // The test project copies Folio.Server.dll with its runtimeconfig and deps next to the tests.
        string serverDll = Path.Combine(AppContext.BaseDirectory, "Folio.Server.dll");
        var start = new ProcessStartInfo("dotnet")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        start.ArgumentList.Add(serverDll);
        start.ArgumentList.Add("--DataDir=" + dataDir);
        start.ArgumentList.Add("--ServerUrl=http://127.0.0.1:0");
        start.ArgumentList.Add("--TcpPort=0");
        start.ArgumentList.Add(RunningServer.SmallJournals);
        foreach (string argument in extraArgs)
            start.ArgumentList.Add(argument);
        var process = new Process { StartInfo = start };
        var server = new ServerProcess(process);
        process.OutputDataReceived += (_, e) => server.OnLine(e.Data);
        process.ErrorDataReceived += (_, e) => server.OnLine(e.Data);
        process.Start();
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        try
        {
            Task exited = process.WaitForExitAsync();
            Task first = await Task.WhenAny(server._listening.Task, exited).WaitAsync(TestTimeouts.Default);
            if (first == exited)
                throw new InvalidOperationException($"The server exited with {process.ExitCode} before listening:{Environment.NewLine}{server.Output}");
            server.Address = await server._listening.Task;
            server.TcpEndPoint = await server._listeningTcp.Task.WaitAsync(TestTimeouts.Default);
            server.Client = RunningServer.CreateClient(server.Address);
            return server;
        }
        catch
        {
            await server.DisposeAsync();
            throw;
        }
    }

    /// <summary>SIGKILL: no shutdown code runs, nothing is flushed beyond what was acknowledged as durable.</summary>
    public async Task KillAsync()
    {
        if (!_process.HasExited)
            _process.Kill(entireProcessTree: true);
        await _process.WaitForExitAsync().WaitAsync(TestTimeouts.Default);
    }

    public async ValueTask DisposeAsync()
    {
        Client?.Dispose();
        try
        {
            await KillAsync();
        }
        finally
        {
            _process.Dispose();
        }
    }

    private void OnLine(string? line)
    {
        if (line is null)
            return;
        lock (_output)
            _output.AppendLine(line);
        Match match = ListeningLine().Match(line);
        if (match.Success)
            _listening.TrySetResult(new Uri(match.Groups[1].Value));
        Match tcp = ListeningTcpLine().Match(line);
        if (tcp.Success)
            _listeningTcp.TrySetResult(System.Net.IPEndPoint.Parse(tcp.Groups[1].Value));
    }

    [GeneratedRegex(@"Folio subscriptions listening on tcp://(\S+)")]
    private static partial Regex ListeningTcpLine();

    [GeneratedRegex(@"Folio listening on (http://\S+) with data in")]
    private static partial Regex ListeningLine();
}
