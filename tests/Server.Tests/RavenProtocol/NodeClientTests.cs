using System.Diagnostics;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.RavenProtocol;

/// <summary>
/// The seeds' system's official Node.js client (npm <c>ravendb</c>, pinned in tests/RavenClients/node/package.json)
/// against a real server: tests/RavenClients/node/client-protocol.test.mjs and subscriptions.test.mjs must pass. The package is installed
/// with <c>npm ci</c> the first time, the way the studio tests bring their browser driver.
/// </summary>
public sealed class NodeClientTests(ServerFixture fixture) : IClassFixture<ServerFixture>
{
    private static readonly TimeSpan s_installTimeout = TimeSpan.FromMinutes(3);

    [RequiresExecutableFact("npm")]
    public async Task OfficialNodeClient_PassesFoliosProtocolTests_AgainstARealServer()
    {
        string folder = Path.Combine(RepositoryRoot(), "tests", "RavenClients", "node");
        if (!File.Exists(Path.Combine(folder, "node_modules", "ravendb", "package.json")))
        {
            (int installed, string installLog) = await RunAsync("npm", folder, s_installTimeout, null, "ci", "--no-audit", "--no-fund");
            Assert.True(installed == 0, $"npm ci in {folder} failed (the npm registry must be reachable once):{Environment.NewLine}{installLog}");
        }

        (int exit, string log) = await RunAsync("node", folder, TestTimeouts.Default, fixture.Running.Server.Address.ToString().TrimEnd('/'), "--test", "client-protocol.test.mjs", "subscriptions.test.mjs");
        Assert.True(exit == 0, log);
        Assert.Contains("# fail 0", log, StringComparison.Ordinal);
    }

    private static async Task<(int Exit, string Log)> RunAsync(string program, string folder, TimeSpan timeout, string? url, params string[] arguments)
    {
        var start = new ProcessStartInfo(program)
        {
            WorkingDirectory = folder,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (string argument in arguments)
            start.ArgumentList.Add(argument);
        if (url is not null)
            start.Environment["FOLIO_URL"] = url;
        start.Environment["NO_PROXY"] = "127.0.0.1,localhost";
        start.Environment["no_proxy"] = "127.0.0.1,localhost";

        using Process process = Process.Start(start)!;
        Task<string> output = process.StandardOutput.ReadToEndAsync();
        Task<string> errors = process.StandardError.ReadToEndAsync();
        try
        {
            await process.WaitForExitAsync().WaitAsync(timeout);
        }
        catch (TimeoutException)
        {
            process.Kill(entireProcessTree: true);
            throw;
        }

        return (process.ExitCode, $"{program} {string.Join(' ', arguments)} exited {process.ExitCode}{Environment.NewLine}{await output}{await errors}");
    }

    private static string RepositoryRoot()
    {
        for (DirectoryInfo? directory = new(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            if (File.Exists(Path.Combine(directory.FullName, "Folio.slnx")))
                return directory.FullName;
        }

        throw new InvalidOperationException($"No Folio.slnx above {AppContext.BaseDirectory}.");
    }
}
