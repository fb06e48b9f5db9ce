using Folio.Server.Hosting;

namespace Folio.Server.Tests.Support;

/// <summary>
/// A real Folio server on 127.0.0.1 with an OS-chosen port and its own temporary data directory,
/// built by the same <see cref="FolioServer"/> Program.cs uses; disposing it stops the server and
/// deletes the directory.
/// </summary>
public sealed class RunningServer : IAsyncDisposable
{
    private readonly bool _ownsDataDir;
    private bool _stopped;

    private RunningServer(FolioServer server, string dataDir, bool ownsDataDir, TestHandlers handlers, CapturingSink log)
    {
        _ownsDataDir = ownsDataDir;
        Server = server;
        DataDir = dataDir;
        Handlers = handlers;
        Log = log;
        Client = CreateClient(server.Address);
    }

    public FolioServer Server { get; }

    public string DataDir { get; }

    public TestHandlers Handlers { get; }

    public CapturingSink Log { get; }

    public HttpClient Client { get; }

    public static Task<RunningServer> StartAsync(params string[] extraArgs) =>
        StartAsync(NewDataDir(), ownsDataDir: true, extraArgs);

    /// <summary>Starts a server on an existing data directory (a restart); disposing it leaves the directory to its owner.</summary>
    public static Task<RunningServer> StartOnAsync(string dataDir, params string[] extraArgs) =>
        StartAsync(dataDir, ownsDataDir: false, extraArgs);

    /// <summary>Tests create many databases; 4 MB journals instead of 64 MB keep that cheap in disk and time.</summary>
    public const string SmallJournals = "--JournalFileSizeBytes=4194304";

    public static string NewDataDir() => Path.Combine(Path.GetTempPath(), "folio-tests", Guid.NewGuid().ToString("N"));

    private static async Task<RunningServer> StartAsync(string dataDir, bool ownsDataDir, string[] extraArgs)
    {
        string[] args = ["--DataDir=" + dataDir, "--ServerUrl=http://127.0.0.1:0", "--TcpPort=0", "--LogToConsole=false", SmallJournals, .. extraArgs];
        var handlers = new TestHandlers();
        var log = new CapturingSink();
        var setup = new FolioServerSetup { LogSink = log };
        setup.AdditionalHandlers.Add(handlers);

        FolioServer server = FolioServer.Create(args, setup);
        try
        {
            await server.StartAsync();
        }
        catch
        {
            await server.DisposeAsync();
            if (ownsDataDir)
                DeleteDirectory(dataDir);
            throw;
        }

        return new RunningServer(server, dataDir, ownsDataDir, handlers, log);
    }

    public static HttpClient CreateClient(Uri address) =>
        new(new SocketsHttpHandler { UseProxy = false }) { BaseAddress = address, Timeout = TestTimeouts.Default };

    /// <summary>Stops and releases the server (flushing its log file) but keeps the data directory for inspection.</summary>
    public async Task StopAsync()
    {
        if (_stopped)
            return;
        _stopped = true;
        Client.Dispose();
        await Server.StopAsync();
        await Server.DisposeAsync();
    }

    public async ValueTask DisposeAsync()
    {
        await StopAsync();
        if (_ownsDataDir)
            DeleteDirectory(DataDir);
    }

    public static void DeleteDirectory(string path)
    {
        if (Directory.Exists(path))
            Directory.Delete(path, recursive: true);
    }
}
