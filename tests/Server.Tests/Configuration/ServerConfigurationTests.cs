using Folio.Server.Configuration;
using Microsoft.Extensions.Configuration;

namespace Folio.Server.Tests.Configuration;

public class ServerConfigurationTests
{
    [Fact]
    public void Bind_UsesDocumentedDefaults_WhenNothingConfigured()
    {
        ServerOptions options = ServerConfiguration.Bind(new ConfigurationBuilder().Build());

        Assert.Equal(Path.GetFullPath("data"), options.DataDir);
        Assert.Equal("http://127.0.0.1:8080", options.ServerUrl);
        Assert.Equal(32L * 1024 * 1024, options.MaxDocumentSizeBytes);
        Assert.Equal(1024, options.MaxPageSize);
        Assert.Equal(64, options.MaxJsonDepth);
        Assert.Equal(38888, options.TcpPort);
        Assert.True(options.MaxRequestBodySizeBytes > options.MaxDocumentSizeBytes);
        Assert.True(options.ShutdownTimeout > TimeSpan.Zero);
    }

    [Fact]
    public void AddSources_AppliesFileThenEnvironmentThenCommandLine_WhenAllSet()
    {
        string dir = Path.Combine(Path.GetTempPath(), "folio-tests", Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(dir);
        try
        {
            File.WriteAllText(Path.Combine(dir, "appsettings.json"), """{"TcpPort": 1001, "MaxPageSize": 11, "MaxJsonDepth": 12}""");
            // TcpPort is read by no other test, so setting it process-wide cannot disturb tests running alongside.
            Environment.SetEnvironmentVariable("FOLIO_TcpPort", "1002");
            var configuration = new ConfigurationBuilder();
            ServerConfiguration.AddSources(configuration, ["--MaxPageSize=13"], dir);

            ServerOptions options = ServerConfiguration.Bind(configuration.Build());

            Assert.Equal(1002, options.TcpPort);
            Assert.Equal(13, options.MaxPageSize);
            Assert.Equal(12, options.MaxJsonDepth);
        }
        finally
        {
            Environment.SetEnvironmentVariable("FOLIO_TcpPort", null);
            Directory.Delete(dir, recursive: true);
        }
    }

    [Theory]
    [InlineData("MaxPageSize", "0")]
    [InlineData("MaxPageSize", "lots")]
    [InlineData("ServerUrl", "https://127.0.0.1:8080")]
    [InlineData("ServerUrl", "not a url")]
    [InlineData("TcpPort", "70000")]
    [InlineData("MinDataRateGracePeriod", "00:00:01")]
    [InlineData("KeepAliveTimeout", "00:00:00")]
    [InlineData("MaxConcurrentConnections", "-1")]
    [InlineData("RequestBodyDrainBytes", "-1")]
    [InlineData("DataDir", " ")]
    [InlineData("Indexing:SearchEngine", "Corax")]
    [InlineData("Scripting:TimeoutMs", "0")]
    [InlineData("Scripting:MaxStatements", "-5")]
    [InlineData("Scripting:MaxMemoryBytes", "1000")]
    [InlineData("Scripting:MaxRecursionDepth", "0")]
    [InlineData("Scripting:MaxArraySize", "0")]
    public void Bind_ThrowsConfigurationError_WhenSettingInvalid(string key, string value)
    {
        IConfiguration configuration = new ConfigurationBuilder()
            .AddInMemoryCollection([new KeyValuePair<string, string?>(key, value)])
            .Build();

        var ex = Assert.Throws<ServerConfigurationException>(() => ServerConfiguration.Bind(configuration));
        Assert.Contains(key, ex.Message, StringComparison.Ordinal);
    }
}
