using System.Net;
using Folio.Server.Logging;
using Folio.Server.Tests.Support;
using Serilog.Events;

namespace Folio.Server.Tests.Routing;

/// <summary>The request line is written to Serilog directly; Serilog's configuration still decides whether it appears.</summary>
public class RequestLogTests
{
    [Fact]
    public async Task Request_IsNotLogged_WhenTheDispatcherLevelIsRaisedToWarning()
    {
        await using RunningServer running = await RunningServer.StartAsync("--Serilog:MinimumLevel:Override:Folio.Server.Routing.RequestDispatcher=Warning");
        using (HttpResponseMessage ok = await running.Client.GetAsync("/healthz"))
            Assert.Equal(HttpStatusCode.OK, ok.StatusCode);
        using (HttpResponseMessage missing = await running.Client.GetAsync("/no/such/route"))
            Assert.Equal(HttpStatusCode.NotFound, missing.StatusCode);

        // Stopping waits for every request pipeline to finish, so any request line would be captured by now.
        await running.StopAsync();
        Assert.Contains(running.Log.Events, e => e.MessageTemplate.Text.StartsWith("Folio stopping", StringComparison.Ordinal));
        Assert.DoesNotContain(running.Log.Events, e => e.MessageTemplate.Text == CompletedRequestLog.TemplateText);
    }

    [Fact]
    public async Task Request_IsLoggedWithItsIdsAndCategory_WhenAnswered()
    {
        await using RunningServer running = await RunningServer.StartAsync();
        using (HttpResponseMessage listed = await running.Client.GetAsync("/databases"))
            Assert.Equal(HttpStatusCode.OK, listed.StatusCode);

        LogEvent logEvent = await running.Log.WaitForRequestAsync("GET", "/databases");
        Assert.Equal(LogEventLevel.Information, logEvent.Level);
        Assert.Equal(typeof(Folio.Server.Routing.RequestDispatcher).FullName, CapturingSink.Scalar(logEvent, "SourceContext"));
        Assert.Equal(200, CapturingSink.Scalar(logEvent, "StatusCode"));
        Assert.False(string.IsNullOrEmpty(CapturingSink.Scalar(logEvent, "RequestId") as string));
        Assert.False(string.IsNullOrEmpty(CapturingSink.Scalar(logEvent, "ConnectionId") as string));
        Assert.Contains("HTTP \"GET\" \"/databases\" responded 200", logEvent.RenderMessage(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Request_RunsWithoutAHostingActivity_BecauseHostingDiagnosticsAreOff()
    {
        // AddSerilog's own filter rule used to outrank the one meant to silence hosting diagnostics, so every
        // request started an Activity and opened a logging scope that nothing read.
        await using RunningServer running = await RunningServer.StartAsync();
        Assert.Equal("none", await running.Client.GetStringAsync("/test/activity"));
    }
}
