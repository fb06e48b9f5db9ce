using System.Diagnostics;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Packaging;

/// <summary>Builds docker/Dockerfile and runs the image until Docker reports it healthy; skipped where no Docker engine runs.</summary>
public sealed class DockerImageTests
{
    [DockerEngineFact]
    public async Task Image_BuildsAndBecomesHealthy_AndServesDocuments()
    {
        string tag = "folio-test:" + Guid.NewGuid().ToString("N")[..12];
        string container = "folio-test-" + Guid.NewGuid().ToString("N")[..12];
        try
        {
            (int built, string buildLog) = await DockerAsync(TimeSpan.FromMinutes(20), "build", "-f", Path.Combine(RepositoryFiles.Root(), "docker", "Dockerfile"), "-t", tag, RepositoryFiles.Root());
            Assert.True(built == 0, buildLog);
            // The image refuses unauthenticated access off loopback unless told otherwise; a test run allows it explicitly.
            (int ran, string runLog) = await DockerAsync(TestTimeouts.Default, "run", "-d", "--name", container, "-p", "127.0.0.1::8080", "-e", DockerEngineFactAttribute.UnsecuredSetting, tag);
            Assert.True(ran == 0, runLog);

            var clock = Stopwatch.StartNew();
            string health = string.Empty;
            while (clock.Elapsed < TimeSpan.FromMinutes(2) && health != "healthy")
            {
                (_, health) = await DockerAsync(TestTimeouts.Default, "inspect", "--format", "{{.State.Health.Status}}", container);
                health = health.Trim();
                if (health != "healthy")
                    await Task.Delay(500);
            }

            Assert.True(health == "healthy", $"health: {health}; logs: {(await DockerAsync(TestTimeouts.Default, "logs", container)).Output}");
            (_, string port) = await DockerAsync(TestTimeouts.Default, "port", container, "8080/tcp");
            using var client = new HttpClient { BaseAddress = new Uri("http://" + port.Trim().Split('\n')[0]) };
            using HttpResponseMessage created = await client.PutAsync("/admin/databases", new StringContent("""{"Name":"image"}""", System.Text.Encoding.UTF8, "application/json"));
            Assert.True(created.IsSuccessStatusCode, await created.Content.ReadAsStringAsync());
            (_, string user) = await DockerAsync(TestTimeouts.Default, "exec", container, "id", "-u");
            Assert.NotEqual("0", user.Trim());
        }
        finally
        {
            await DockerAsync(TestTimeouts.Default, "rm", "-f", container);
            await DockerAsync(TestTimeouts.Default, "rmi", "-f", tag);
        }
    }

    private static async Task<(int ExitCode, string Output)> DockerAsync(TimeSpan timeout, params string[] args)
    {
        (int exit, string output, string errors) = await ExternalProcess.RunAsync("docker", args, timeout);
        return (exit, output + errors);
    }
}
