using System.Net;
using Folio.Server.Configuration;
using Folio.Server.Hosting;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Security;

/// <summary>Unsecured access stays on loopback; secured servers may listen anywhere.</summary>
public sealed class ListenerSecurityTests
{
    [Theory]
    [InlineData("http://0.0.0.0:0")]
    [InlineData("http://[::]:0")]
    public void Create_RefusesToStart_BeyondLoopbackWithoutAuthentication(string url)
    {
        string dataDir = RunningServer.NewDataDir();
        try
        {
            var ex = Assert.Throws<ServerConfigurationException>(() => FolioServer.Create(["--DataDir=" + dataDir, "--ServerUrl=" + url, "--TcpPort=0", "--LogToConsole=false"]));

            Assert.Contains("Security:Authentication=Required", ex.Message, StringComparison.Ordinal);
            Assert.Contains("api-keys create", ex.Message, StringComparison.Ordinal);
        }
        finally
        {
            RunningServer.DeleteDirectory(dataDir);
        }
    }

    [Fact]
    public async Task Start_ServesBeyondLoopback_WhenAuthenticationIsRequired()
    {
        string dataDir = RunningServer.NewDataDir();
        FolioServer server = FolioServer.Create(["--DataDir=" + dataDir, "--ServerUrl=http://0.0.0.0:0", "--TcpPort=0", "--LogToConsole=false", "--Security:Authentication=Required"]);
        try
        {
            await server.StartAsync();
            using HttpClient client = RunningServer.CreateClient(new Uri($"http://127.0.0.1:{server.Address.Port}"));

            using HttpResponseMessage health = await client.GetAsync("/healthz");
            using HttpResponseMessage databases = await client.GetAsync("/databases");

            Assert.Equal(HttpStatusCode.OK, health.StatusCode);
            Assert.Equal(HttpStatusCode.Unauthorized, databases.StatusCode);
        }
        finally
        {
            await server.DisposeAsync();
            RunningServer.DeleteDirectory(dataDir);
        }
    }

    [Fact]
    public async Task Loopback_ServesTheStudioAndApi_WithoutAnyConfiguration()
    {
        await using RunningServer server = await RunningServer.StartAsync();

        using HttpResponseMessage studio = await server.Client.GetAsync("/studio/");
        using HttpResponseMessage create = await server.Client.PutAsync("/admin/databases", FolioApi.Json($$"""{"Name":"{{FolioApi.NewDatabaseName()}}"}"""));
        using HttpResponseMessage keys = await server.Client.GetAsync("/admin/api-keys");

        Assert.Equal(HttpStatusCode.OK, studio.StatusCode);
        Assert.Equal(HttpStatusCode.Created, create.StatusCode);
        Assert.Equal(HttpStatusCode.OK, keys.StatusCode);
    }

    [Fact]
    public void Create_RefusesHttpsWithoutCertificate_AndCertificateWithHttp()
    {
        string dataDir = RunningServer.NewDataDir();
        try
        {
            var https = Assert.Throws<ServerConfigurationException>(() => FolioServer.Create(["--DataDir=" + dataDir, "--ServerUrl=https://127.0.0.1:0", "--LogToConsole=false"]));
            var missing = Assert.Throws<ServerConfigurationException>(() => FolioServer.Create(["--DataDir=" + dataDir, "--ServerUrl=https://127.0.0.1:0", "--Security:Certificate:Path=/no/such.pfx", "--LogToConsole=false"]));

            Assert.Contains("Security:Certificate:Path", https.Message, StringComparison.Ordinal);
            Assert.Contains("does not exist", missing.Message, StringComparison.Ordinal);
        }
        finally
        {
            RunningServer.DeleteDirectory(dataDir);
        }
    }
}
