using Folio.Server.Hosting;

namespace Folio.Client.Tests.Support;

/// <summary>
/// A real Folio server on 127.0.0.1 with OS-chosen HTTP and TCP ports and its own temporary data directory, built
/// the way Program.cs builds it (as tests/Server.Tests does); disposing it stops the server and deletes the directory.
/// </summary>
public sealed class TestServer : IAsyncLifetime
{
    private FolioServer? _server;

    public string DataDir { get; } = Path.Combine(Path.GetTempPath(), "folio-client-tests", Guid.NewGuid().ToString("N"));

    public FolioServer Server => _server ?? throw new InvalidOperationException("The server has not started.");

    public string Url => Server.Address.ToString().TrimEnd('/');

    public int TcpPort => Server.TcpEndPoint.Port;

    public async Task InitializeAsync()
    {
        string[] args = ["--DataDir=" + DataDir, "--ServerUrl=http://127.0.0.1:0", "--TcpPort=0", "--LogToConsole=false", "--JournalFileSizeBytes=4194304"];
        _server = FolioServer.Create(args);
        await _server.StartAsync();
    }

    /// <summary>A store on a new, empty database of this server.</summary>
    public async Task<DocumentStore> NewStoreAsync(Action<DocumentStore>? configure = null)
    {
        var store = new DocumentStore { Urls = [Url], Database = "db" + Guid.NewGuid().ToString("N")[..12], TcpPort = TcpPort };
        configure?.Invoke(store);
        store.Initialize();
        await store.Maintenance.CreateDatabaseAsync(store.Database!);
        return store;
    }

    public async Task DisposeAsync()
    {
        if (_server is not null)
        {
            await _server.StopAsync();
            await _server.DisposeAsync();
        }
        if (Directory.Exists(DataDir))
            Directory.Delete(DataDir, recursive: true);
    }
}
