using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using System.Reflection;
using Folio.Server.Hosting;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Packaging;

/// <summary>
/// docker/Dockerfile: what the image declares, and the published server started with the image's settings and checked
/// with the image's HEALTHCHECK command. No Docker engine runs on the CI machine, so the image itself is built only
/// where one does (<see cref="DockerImageTests"/>).
/// </summary>
public sealed class DockerfileTests
{
    private static readonly DockerfileInstructions s_image =
        DockerfileInstructions.Parse(File.ReadAllText(Path.Combine(RepositoryFiles.Root(), "docker", "Dockerfile")));

    [Fact]
    public void Dockerfile_RunsAsANonRootUser_WithTheDataDirectoryAsAVolumeAndBothPortsExposed()
    {
        Assert.NotNull(s_image.User);
        Assert.DoesNotContain(s_image.User, new[] { "root", "0", "0:0" });
        Assert.Contains(s_image.Environment["FOLIO_DataDir"], s_image.Volumes);
        Assert.Contains(new Uri(s_image.Environment["FOLIO_ServerUrl"]).Port, s_image.ExposedPorts);
        Assert.Contains(int.Parse(s_image.Environment["FOLIO_TcpPort"]), s_image.ExposedPorts);
        // Inside a container the server must listen beyond loopback, or a published port reaches nothing.
        Assert.Equal("0.0.0.0", new Uri(s_image.Environment["FOLIO_ServerUrl"]).Host);
    }

    [Fact]
    public void Dockerfile_ChecksHealthWithTheServerBinaryItself()
    {
        Assert.Equal(s_image.EntryPoint[0], s_image.HealthCheck[0]);
        Assert.Equal(HealthProbe.Command, s_image.HealthCheck[1]);
        Assert.Contains("src/Server/Folio.Server.csproj", s_image.PublishCommand, StringComparison.Ordinal);
        Assert.Contains("-c Release", s_image.PublishCommand, StringComparison.Ordinal);
        Assert.StartsWith("/app/", s_image.EntryPoint[0], StringComparison.Ordinal);
    }

    [Fact]
    public async Task PublishedServer_ServesAndPassesTheHealthCheck_WithTheImagesSettings()
    {
        string root = Path.Combine(Path.GetTempPath(), "folio-tests", "image-" + Guid.NewGuid().ToString("N"));
        string app = Path.Combine(root, "app");
        try
        {
            // What the Dockerfile publishes, from the build these tests run on (the image builds the same project in Release).
            string configuration = typeof(DockerfileTests).Assembly.GetCustomAttribute<AssemblyConfigurationAttribute>()!.Configuration;
            (int published, string publishLog, string publishErrors) = await ExternalProcess.RunAsync("dotnet", ["publish", Path.Combine(RepositoryFiles.Root(), "src", "Server", "Folio.Server.csproj"), "-c", configuration, "--no-build", "-o", app], TimeSpan.FromMinutes(3));
            Assert.True(published == 0, publishLog + publishErrors);
            Assert.True(File.Exists(Path.Combine(app, "appsettings.json")), "appsettings.json is not published");

            var environment = new Dictionary<string, string>(s_image.Environment)
            {
                // The image's settings, except what must differ on a shared test machine: a free loopback port and a temp data directory.
                ["FOLIO_DataDir"] = Path.Combine(root, "data"),
                ["FOLIO_ServerUrl"] = $"http://127.0.0.1:{FreePort()}",
                ["FOLIO_TcpPort"] = FreePort().ToString(System.Globalization.CultureInfo.InvariantCulture),
                ["FOLIO_JournalFileSizeBytes"] = "4194304",
            };
            string entryPoint = Path.Combine(app, Path.GetFileName(s_image.EntryPoint[0]));
            string[] healthCheck = [.. s_image.HealthCheck.Skip(1)];

            using Process server = ExternalProcess.Start(entryPoint, [], environment);
            var serverOutput = new System.Text.StringBuilder();
            server.OutputDataReceived += (_, e) => { lock (serverOutput) serverOutput.AppendLine(e.Data); };
            server.ErrorDataReceived += (_, e) => { lock (serverOutput) serverOutput.AppendLine(e.Data); };
            server.BeginOutputReadLine();
            server.BeginErrorReadLine();
            try
            {
                int health = await WaitForExitCodeAsync(entryPoint, healthCheck, environment, wanted: 0, TimeSpan.FromSeconds(60));
                Assert.True(health == 0, $"The health check never passed. Server output:{Environment.NewLine}{Locked(serverOutput)}");

                using var client = new HttpClient { BaseAddress = new Uri(environment["FOLIO_ServerUrl"]) };
                using HttpResponseMessage studio = await client.GetAsync("/studio/");
                Assert.Equal(HttpStatusCode.OK, studio.StatusCode);
                using HttpResponseMessage created = await client.PutAsync("/admin/databases", new StringContent("""{"Name":"image"}""", System.Text.Encoding.UTF8, "application/json"));
                Assert.True(created.IsSuccessStatusCode, await created.Content.ReadAsStringAsync());
                Assert.Contains("\"image\"", await client.GetStringAsync("/databases"), StringComparison.Ordinal);
            }
            finally
            {
                server.Kill(entireProcessTree: true);
                await server.WaitForExitAsync().WaitAsync(TestTimeouts.Default);
            }

            (int stopped, string stoppedLog, _) = await ExternalProcess.RunAsync(entryPoint, healthCheck, TestTimeouts.Default, environment);
            Assert.True(stopped == 1, $"A stopped server must fail the health check: {stopped} {stoppedLog}");
        }
        finally
        {
            RunningServer.DeleteDirectory(root);
        }
    }

    [Fact]
    public async Task Probe_ExitsOne_WhenNothingListens()
    {
        using var output = new StringWriter();
        Assert.Equal(1, await HealthProbe.RunAsync([$"http://127.0.0.1:{FreePort()}/healthz/ready"], output));
        Assert.Contains("did not answer", output.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Probe_ExitsTwo_ForAUrlItCannotAsk()
    {
        using var output = new StringWriter();
        Assert.Equal(2, await HealthProbe.RunAsync(["ftp://127.0.0.1/healthz"], output));
        Assert.Contains("usage", output.ToString(), StringComparison.Ordinal);
    }

    private static async Task<int> WaitForExitCodeAsync(string file, string[] args, Dictionary<string, string> environment, int wanted, TimeSpan timeout)
    {
        var clock = Stopwatch.StartNew();
        int last;
        do
        {
            (last, _, _) = await ExternalProcess.RunAsync(file, args, TestTimeouts.Default, environment);
            if (last == wanted)
                return last;
            await Task.Delay(100);
        }
        while (clock.Elapsed < timeout);
        return last;
    }

    private static string Locked(System.Text.StringBuilder output)
    {
        lock (output)
            return output.ToString();
    }

    private static int FreePort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }
}
