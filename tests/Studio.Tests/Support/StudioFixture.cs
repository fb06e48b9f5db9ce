using Folio.Server.Hosting;
using Microsoft.Playwright;

namespace Folio.Studio.Tests.Support;

/// <summary>
/// One real Folio server (Kestrel on 127.0.0.1, an OS-chosen port, its own temporary data directory) and
/// one headless Chromium, shared by a test class; each test opens its own browser context and database.
/// </summary>
public sealed class StudioFixture : IAsyncLifetime
{
    private readonly string _dataDir = Path.Combine(Path.GetTempPath(), "folio-studio-tests", Guid.NewGuid().ToString("N"));
    private FolioServer? _server;
    private IPlaywright? _playwright;
    private IBrowser? _browser;

    public Uri Address => _server?.Address ?? throw new InvalidOperationException("The fixture has not started.");

    public HttpClient Client { get; private set; } = null!;

    public IBrowser Browser => _browser ?? throw new InvalidOperationException("Chromium is not running.");

    public async Task InitializeAsync()
    {
        _server = FolioServer.Create(["--DataDir=" + _dataDir, "--ServerUrl=http://127.0.0.1:0", "--TcpPort=0", "--LogToConsole=false", "--JournalFileSizeBytes=4194304"]);
        await _server.StartAsync();
        Client = new HttpClient(new SocketsHttpHandler { UseProxy = false }) { BaseAddress = _server.Address, Timeout = TimeSpan.FromSeconds(60) };
        if (Chromium.MissingReason is not null)
            return;

        // Two shared cores under other builds make a first query (which builds its auto index) take
        // seconds; the assertions wait for their condition up to this long, and pass as soon as it holds.
        Assertions.SetDefaultExpectTimeout(20_000);
        _playwright = await Playwright.CreateAsync();
        _browser = await _playwright.Chromium.LaunchAsync(new BrowserTypeLaunchOptions
        {
            ExecutablePath = Chromium.ExecutablePath,
            Headless = true,
            Args = Chromium.Arguments,
        });
    }

    public async Task DisposeAsync()
    {
        if (_browser is not null)
            await _browser.DisposeAsync();
        _playwright?.Dispose();
        Client?.Dispose();
        if (_server is not null)
            await _server.DisposeAsync();
        try
        {
            Directory.Delete(_dataDir, recursive: true);
        }
        catch (DirectoryNotFoundException)
        {
        }
    }
}
