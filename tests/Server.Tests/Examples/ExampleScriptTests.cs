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
        (int exit, string output, string errors) = await ExternalProcess.RunAsync(
            interpreter, [Path.Combine(RepositoryFiles.Root(), script), _fixture.Running.Server.Address.ToString()], TestTimeouts.Default);

        Assert.True(exit == 0, $"{interpreter} {script} exited {exit}{Environment.NewLine}{output}{errors}");
        Assert.Contains("CRUD ok", output, StringComparison.Ordinal);
    }
}
