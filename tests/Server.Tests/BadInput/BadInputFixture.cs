using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.BadInput;

/// <summary>One server with small limits and one database, shared by the bad-input tests.</summary>
public sealed class BadInputFixture : IAsyncLifetime
{
    // Room for the 10,000-deep documents (about 60 KB), yet small enough to exceed cheaply.
    public const int MaxDocumentSizeBytes = 64 * 1024;

    private RunningServer? _running;

    public RunningServer Running => _running ?? throw new InvalidOperationException("The fixture has not started.");

    public HttpClient Client => Running.Client;

    public string Database { get; private set; } = string.Empty;

    public async Task InitializeAsync()
    {
        _running = await RunningServer.StartAsync(
            "--MaxDocumentSizeBytes=" + MaxDocumentSizeBytes,
            "--RequestBodyMarginBytes=" + MaxDocumentSizeBytes,
            "--MaxPageSize=50");
        Database = await FolioApi.CreateDatabaseAsync(Client);
        await FolioApi.StoreAsync(Client, Database, "users/1", """{"Name":"Ann"}""");
    }

    public async Task DisposeAsync()
    {
        if (_running is not null)
            await _running.DisposeAsync();
    }
}
