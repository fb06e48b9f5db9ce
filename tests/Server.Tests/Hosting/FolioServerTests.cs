using System.Net;
using Folio.Server.Configuration;
using Folio.Server.Hosting;
using Folio.Server.Routing;
using Folio.Server.Tests.Support;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.Extensions.DependencyInjection;

namespace Folio.Server.Tests.Hosting;

public class FolioServerTests
{
    [Fact]
    public async Task Address_ReportsBoundPort_WhenConfiguredWithPortZero()
    {
        await using RunningServer running = await RunningServer.StartAsync();

        Uri address = running.Server.Address;
        Assert.Equal("127.0.0.1", address.Host);
        Assert.NotEqual(0, address.Port);
        var feature = running.Server.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>();
        Assert.Contains(address.ToString().TrimEnd('/'), feature!.Addresses);
        using HttpResponseMessage response = await running.Client.GetAsync("/healthz");
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
    }

    [Fact]
    public async Task StartAsync_LogsBoundAddressAndShutdownTimeout_WhenListening()
    {
        await using RunningServer running = await RunningServer.StartAsync("--ShutdownTimeout=00:00:07");

        var listening = await running.Log.WaitForAsync(e => e.MessageTemplate.Text.StartsWith("Folio listening", StringComparison.Ordinal), "announcing the address");
        Assert.Equal(running.Server.Address.ToString(), CapturingSink.Scalar(listening, "Address"));
        var limits = await running.Log.WaitForAsync(e => e.Properties.ContainsKey("ShutdownTimeout"), "with the shutdown timeout");
        Assert.Equal(TimeSpan.FromSeconds(7), CapturingSink.Scalar(limits, "ShutdownTimeout"));
    }

    [Fact]
    public async Task Options_ComeFromCommandLine_WhenServerCreated()
    {
        await using RunningServer running = await RunningServer.StartAsync("--MaxPageSize=77");

        Assert.Equal(77, running.Server.Options.MaxPageSize);
        Assert.True(Directory.Exists(running.DataDir));
        Assert.True(Directory.Exists(Path.Combine(running.DataDir, "Logs")));
    }

    [Fact]
    public async Task LogFile_HoldsRequestLines_WhenServerStopped()
    {
        await using RunningServer running = await RunningServer.StartAsync();
        using (HttpResponseMessage response = await running.Client.GetAsync("/healthz"))
            Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        await running.Log.WaitForRequestAsync("GET", "/healthz");

        await running.StopAsync();

        string[] files = Directory.GetFiles(Path.Combine(running.DataDir, "Logs"), "folio-*.log");
        string content = File.ReadAllText(Assert.Single(files));
        Assert.Contains("\"RequestPath\":\"/healthz\"", content, StringComparison.Ordinal);
        Assert.Contains("\"StatusCode\":200", content, StringComparison.Ordinal);
        Assert.Contains("Folio stopped", content, StringComparison.Ordinal);
    }

    [Fact]
    public async Task StopAsync_LetsInFlightRequestFinish_WhenShuttingDown()
    {
        await using RunningServer running = await RunningServer.StartAsync();
        Task<HttpResponseMessage> pending = running.Client.GetAsync("/test/gate");
        await running.Handlers.GateEntered.WaitAsync(TestTimeouts.Default);

        Task stopping = running.Server.StopAsync();
        await running.Log.WaitForAsync(e => e.MessageTemplate.Text.StartsWith("Folio stopping", StringComparison.Ordinal), "announcing the shutdown");
        Assert.False(stopping.IsCompleted);
        running.Handlers.OpenGate();

        using HttpResponseMessage response = await pending.WaitAsync(TestTimeouts.Default);
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("released", await response.Content.ReadAsStringAsync());
        await stopping.WaitAsync(TestTimeouts.Default);
        using HttpClient fresh = RunningServer.CreateClient(running.Server.Address);
        await Assert.ThrowsAsync<HttpRequestException>(() => fresh.GetAsync("/healthz"));
    }

    [Fact]
    public void Create_ThrowsConfigurationError_WhenOptionsInvalid()
    {
        var ex = Assert.Throws<ServerConfigurationException>(() => FolioServer.Create(["--MaxJsonDepth=0", "--DataDir=" + Path.GetTempPath()]));

        Assert.Contains("MaxJsonDepth", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Create_RefusesToStart_WhenAHandlerDeclaresAMalformedRoute()
    {
        string dataDir = RunningServer.NewDataDir();
        var setup = new FolioServerSetup();
        setup.AdditionalHandlers.Add(new MalformedRouteHandler());
        try
        {
            var ex = Assert.Throws<InvalidOperationException>(
                () => FolioServer.Create(["--DataDir=" + dataDir, "--ServerUrl=http://127.0.0.1:0", "--TcpPort=0", "--LogToConsole=false", RunningServer.SmallJournals], setup));

            Assert.Contains("MalformedRouteHandler.Get", ex.Message, StringComparison.Ordinal);
            Assert.Contains("'/databases/{db}/indexes/{name:int}'", ex.Message, StringComparison.Ordinal);
            Assert.Contains("constraints, defaults and optional parameters are not supported", ex.Message, StringComparison.Ordinal);
        }
        finally
        {
            RunningServer.DeleteDirectory(dataDir);
        }
    }

    private sealed class MalformedRouteHandler
    {
        [FolioRoute("GET", "/databases/{db}/indexes/{name:int}")]
        public ValueTask Get(FolioRequest request) => ValueTask.CompletedTask;
    }
}
