using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Wire;

/// <summary>
/// A server for conformance tests, with limits small enough that a test reaches them cheaply: a 64 KB
/// document limit (413 without megabytes of body) and pages of at most 50 (capping without thousands of documents).
/// </summary>
public sealed class WireFixture : IAsyncLifetime
{
    /// <summary>The document limit the server runs with.</summary>
    public const int MaxDocumentBytes = 64 * 1024;

    /// <summary>The page cap the server runs with.</summary>
    public const int MaxPageSize = 50;

    private RunningServer? _running;

    public RunningServer Running => _running ?? throw new InvalidOperationException("The fixture has not started.");

    public async Task InitializeAsync() =>
        _running = await RunningServer.StartAsync($"--MaxDocumentSizeBytes={MaxDocumentBytes}", $"--MaxPageSize={MaxPageSize}");

    public async Task DisposeAsync()
    {
        if (_running is not null)
            await _running.DisposeAsync();
    }
}
