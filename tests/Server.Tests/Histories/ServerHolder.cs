using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Histories;

/// <summary>
/// The one Folio process a history runs against, killed with SIGKILL and started again on the same data directory.
/// Clients wait for it to be up; each kill is recorded once the process has exited, as the bound after which an
/// operation it cut can no longer take effect.
/// </summary>
internal sealed class ServerHolder : IAsyncDisposable
{
    private readonly Lock _gate = new();
    private readonly string _dataDir;
    private readonly HistoryRecorder _recorder;
    private TaskCompletionSource<ServerProcess> _up = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private ServerProcess? _current;

    private ServerHolder(string dataDir, HistoryRecorder recorder)
    {
        _dataDir = dataDir;
        _recorder = recorder;
    }

    public static async Task<ServerHolder> StartAsync(string dataDir, HistoryRecorder recorder)
    {
        var holder = new ServerHolder(dataDir, recorder);
        holder.Up(await ServerProcess.StartAsync(dataDir));
        return holder;
    }

    /// <summary>The running process, once it is up.</summary>
    public Task<ServerProcess> UpAsync()
    {
        lock (_gate)
            return _up.Task;
    }

    /// <summary>SIGKILL with whatever requests are in flight, then a fresh process on the same files.</summary>
    public async Task KillAndRestartAsync()
    {
        ServerProcess killed;
        lock (_gate)
            killed = _current ?? throw new InvalidOperationException("The server is not up.");

        // Clients keep sending until the process is gone: finding its process tree takes long enough that, were they
        // held back first, every request in flight would be answered before the signal and no kill would cut one.
        await killed.KillAsync();
        lock (_gate)
        {
            _current = null;
            _up = new TaskCompletionSource<ServerProcess>(TaskCreationOptions.RunContinuationsAsynchronously);
        }

        _recorder.RecordKill();
        await killed.DisposeAsync();
        Up(await ServerProcess.StartAsync(_dataDir));
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

    private void Up(ServerProcess server)
    {
        lock (_gate)
        {
            _current = server;
            _up.SetResult(server);
        }
    }
}
