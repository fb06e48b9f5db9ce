using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Durability.KillCycles;

/// <summary>
/// The one Folio process of a kill-cycle run, killed with SIGKILL and started again on the same data directory. The
/// subscription worker and the changes consumer wait for it to be up again after each kill.
/// </summary>
internal sealed class KillCycleServer : IAsyncDisposable
{
    private readonly Lock _gate = new();
    private readonly string _dataDir;
    private TaskCompletionSource<ServerProcess> _up = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private ServerProcess? _current;
    private ServerProcess? _killing;

    private KillCycleServer(string dataDir)
    {
        _dataDir = dataDir;
    }

    /// <summary>The running process; only while it is up.</summary>
    public ServerProcess Current
    {
        get
        {
            lock (_gate)
                return _current ?? throw new InvalidOperationException("The server is not up.");
        }
    }

    public static async Task<KillCycleServer> StartAsync(string dataDir)
    {
        var holder = new KillCycleServer(dataDir);
        await holder.RestartAsync();
        return holder;
    }

    /// <summary>
    /// When the process the test did not kill has exited anyway: its exit code and the end of its output, so that a
    /// server that died by itself is told apart from a test that lost its connection. Otherwise null.
    /// </summary>
    public string? DiedOnItsOwn()
    {
        ServerProcess? current;
        lock (_gate)
            current = ReferenceEquals(_current, _killing) ? null : _current;
        if (current is null || !current.HasExited)
            return null;
        string output = current.Output;
        return $"The server exited by itself with {current.ExitCode}; its last output:{Environment.NewLine}{output[Math.Max(0, output.Length - 8_000)..]}";
    }

    /// <summary>The running process, once it is up.</summary>
    public Task<ServerProcess> UpAsync()
    {
        lock (_gate)
            return _up.Task;
    }

    /// <summary>SIGKILL with whatever is in flight; the process is gone when this returns.</summary>
    public async Task KillAsync()
    {
        ServerProcess killed = Current;
        lock (_gate)
            _killing = killed;
        await killed.KillAsync();
        lock (_gate)
        {
            _current = null;
            _up = new TaskCompletionSource<ServerProcess>(TaskCreationOptions.RunContinuationsAsynchronously);
        }

        await killed.DisposeAsync();
    }

    /// <summary>A fresh process on the same files.</summary>
    public async Task RestartAsync()
    {
        ServerProcess server = await ServerProcess.StartAsync(_dataDir);
        lock (_gate)
        {
            _current = server;
            _up.SetResult(server);
        }
    }

    public async ValueTask DisposeAsync()
    {
        ServerProcess? current;
        lock (_gate)
        {
            current = _current;
            _current = null;
        }

        if (current is not null)
            await current.DisposeAsync();
    }
}
