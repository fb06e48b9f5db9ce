namespace Folio.Server.Tests.Support;

/// <summary>One server shared by the tests of a class that only send independent requests.</summary>
public sealed class ServerFixture : IAsyncLifetime
{
    private RunningServer? _running;

    public RunningServer Running => _running ?? throw new InvalidOperationException("The fixture has not started.");

    public HttpClient Client => Running.Client;

    public async Task InitializeAsync() => _running = await RunningServer.StartAsync();

    public async Task DisposeAsync()
    {
        if (_running is not null)
            await _running.DisposeAsync();
    }
}
