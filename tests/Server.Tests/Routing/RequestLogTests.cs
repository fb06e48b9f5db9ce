using System.Net;
using System.Text.Json;
using Folio.Server.Logging;
using Folio.Server.Tests.Support;
using Serilog.Events;

namespace Folio.Server.Tests.Routing;

/// <summary>The request line comes from Serilog.AspNetCore's middleware; Serilog's configuration decides whether it appears.</summary>
public class RequestLogTests
{
    [Fact]
    public async Task Request_IsNotLogged_WhenTheRequestLoggingLevelIsRaisedToWarning()
    {
        await using RunningServer running = await RunningServer.StartAsync($"--Serilog:MinimumLevel:Override:{RequestLogging.SourceContext}=Warning");
        using (HttpResponseMessage ok = await running.Client.GetAsync("/healthz"))
            Assert.Equal(HttpStatusCode.OK, ok.StatusCode);
        using (HttpResponseMessage missing = await running.Client.GetAsync("/no/such/route"))
            Assert.Equal(HttpStatusCode.NotFound, missing.StatusCode);

        // Stopping waits for every request pipeline to finish, so any request line would be captured by now.
        await running.StopAsync();
        Assert.Contains(running.Log.Events, e => e.MessageTemplate.Text.StartsWith("Folio stopping", StringComparison.Ordinal));
        Assert.DoesNotContain(running.Log.Events, e => e.MessageTemplate.Text == RequestLogging.Template);
    }

    [Fact]
    public async Task Request_IsLoggedWithItsIdsAndCategory_WhenAnswered()
    {
        await using RunningServer running = await RunningServer.StartAsync();
        using (HttpResponseMessage listed = await running.Client.GetAsync("/databases"))
            Assert.Equal(HttpStatusCode.OK, listed.StatusCode);

        LogEvent logEvent = await running.Log.WaitForRequestAsync("GET", "/databases");
        Assert.Equal(LogEventLevel.Information, logEvent.Level);
        Assert.Equal(RequestLogging.SourceContext, CapturingSink.Scalar(logEvent, "SourceContext"));
        Assert.Equal(200, CapturingSink.Scalar(logEvent, "StatusCode"));
        Assert.False(string.IsNullOrEmpty(CapturingSink.Scalar(logEvent, "RequestId") as string));
        Assert.False(string.IsNullOrEmpty(CapturingSink.Scalar(logEvent, "ConnectionId") as string));
        Assert.Contains("HTTP \"GET\" \"/databases\" responded 200", logEvent.RenderMessage(), StringComparison.Ordinal);
        Assert.IsType<double>(CapturingSink.Scalar(logEvent, "Elapsed"));
    }

    [Fact]
    public async Task LogFile_HoldsTheRequestLineAsCompactJson_WhenTheServerStops()
    {
        await using RunningServer running = await RunningServer.StartAsync();
        using (HttpResponseMessage listed = await running.Client.GetAsync("/databases?from=file"))
            Assert.Equal(HttpStatusCode.OK, listed.StatusCode);
        await running.StopAsync();

        JsonElement? line = null;
        foreach (string file in Directory.GetFiles(Path.Combine(running.DataDir, "Logs"), "folio-*.log"))
        {
            foreach (string text in File.ReadLines(file))
            {
                using JsonDocument parsed = JsonDocument.Parse(text);
                if (parsed.RootElement.TryGetProperty("RequestPath", out JsonElement path) && path.GetString() == "/databases")
                    line = parsed.RootElement.Clone();
            }
        }

        JsonElement found = line ?? throw new Xunit.Sdk.XunitException("No request line for /databases in the log file.");
        Assert.Equal(RequestLogging.Template, found.GetProperty("@mt").GetString());
        Assert.True(DateTimeOffset.TryParse(found.GetProperty("@t").GetString(), System.Globalization.CultureInfo.InvariantCulture, out _));
        Assert.Equal("GET", found.GetProperty("RequestMethod").GetString());
        Assert.Equal(200, found.GetProperty("StatusCode").GetInt32());
        Assert.True(found.GetProperty("Elapsed").GetDouble() >= 0);
        Assert.Equal(RequestLogging.SourceContext, found.GetProperty("SourceContext").GetString());
        Assert.False(found.TryGetProperty("@l", out _), "Information is the level CLEF leaves out.");
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
