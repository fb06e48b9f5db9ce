using System.Diagnostics;
using Folio.Client.Tests.Support;

namespace Folio.Client.Tests.Examples;

/// <summary>examples/dotnet, built with the suite, runs against a real server and must exit 0.</summary>
[Collection(ServerCollection.Name)]
public class ExampleAppTests(TestServer server)
{
    [Fact]
    public async Task DotnetExample_RunsAgainstARealServer_AndExitsZero()
    {
        string dll = ExampleDll();
        var start = new ProcessStartInfo("dotnet") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        start.ArgumentList.Add(dll);
        start.ArgumentList.Add(server.Url);
        using Process process = Process.Start(start)!;
        Task<string> output = process.StandardOutput.ReadToEndAsync();
        Task<string> errors = process.StandardError.ReadToEndAsync();
        try
        {
            await process.WaitForExitAsync().WaitAsync(TimeSpan.FromSeconds(60));
        }
        catch (TimeoutException)
        {
            process.Kill(entireProcessTree: true);
            throw;
        }
        string log = $"exit {process.ExitCode}{Environment.NewLine}{await output}{await errors}";
        Assert.True(process.ExitCode == 0, log);
        Assert.Contains("Client example ok", await output, StringComparison.Ordinal);
        Assert.Contains("bulk inserted 1000 orders", await output, StringComparison.Ordinal);
    }

    /// <summary>The example's build output, in the configuration this suite was built in.</summary>
    private static string ExampleDll()
    {
        var testOutput = new DirectoryInfo(AppContext.BaseDirectory);
        // tests/Client.Tests/bin/{Configuration}/{tfm}/
        string tfm = testOutput.Name;
        string configuration = testOutput.Parent!.Name;
        DirectoryInfo? root = testOutput;
        while (root is not null && !File.Exists(Path.Combine(root.FullName, "Folio.slnx")))
            root = root.Parent;
        Assert.NotNull(root);
        string dll = Path.Combine(root.FullName, "examples", "dotnet", "bin", configuration, tfm, "Folio.Example.dll");
        Assert.True(File.Exists(dll), $"{dll} was not built");
        return dll;
    }
}
