using System.Diagnostics;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Examples;

/// <summary>The "any language" examples in examples/ run against a real server and must exit 0.</summary>
public class ExampleScriptTests : IClassFixture<ServerFixture>
{
    private readonly ServerFixture _fixture;

    public ExampleScriptTests(ServerFixture fixture)
    {
        _fixture = fixture;
    }

    [RequiresExecutableFact("python3")]
    public Task PythonExample_DoesCrud_AndExitsZero() => RunAsync("python3", Path.Combine("examples", "python", "crud.py"));

    [RequiresExecutableFact("node")]
    public Task NodeExample_DoesCrud_AndExitsZero() => RunAsync("node", Path.Combine("examples", "node", "crud.mjs"));

    private async Task RunAsync(string interpreter, string script)
    {
        var start = new ProcessStartInfo(interpreter)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        start.ArgumentList.Add(Path.Combine(RepositoryFiles.Root(), script));
        start.ArgumentList.Add(_fixture.Running.Server.Address.ToString());
        // Keep the scripts off any proxy the machine configures; the server is on loopback.
        start.Environment["NO_PROXY"] = "127.0.0.1,localhost";
        start.Environment["no_proxy"] = "127.0.0.1,localhost";

        using Process process = Process.Start(start)!;
        Task<string> output = process.StandardOutput.ReadToEndAsync();
        Task<string> errors = process.StandardError.ReadToEndAsync();
        try
        {
            await process.WaitForExitAsync().WaitAsync(TestTimeouts.Default);
        }
        catch (TimeoutException)
        {
            process.Kill(entireProcessTree: true);
            throw;
        }

        string log = $"{interpreter} {script} exited {process.ExitCode}{Environment.NewLine}{await output}{await errors}";
        Assert.True(process.ExitCode == 0, log);
        Assert.Contains("CRUD ok", await output, StringComparison.Ordinal);
    }
}
