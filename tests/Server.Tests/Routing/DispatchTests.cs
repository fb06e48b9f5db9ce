using System.Net;
using Folio.Server.Http;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Routing;

public class DispatchTests : IClassFixture<ServerFixture>
{
    private readonly ServerFixture _fixture;

    public DispatchTests(ServerFixture fixture)
    {
        _fixture = fixture;
    }

    [Fact]
    public async Task Healthz_Returns200Ok_WhenServerRuns()
    {
        using HttpResponseMessage response = await _fixture.Client.GetAsync("/healthz");

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("ok", await response.Content.ReadAsStringAsync());
        Assert.Equal("text/plain", response.Content.Headers.ContentType?.MediaType);
    }

    [Fact]
    public async Task Healthz_AnswersHeadWithoutBody_WhenOnlyGetDeclared()
    {
        using var request = new HttpRequestMessage(HttpMethod.Head, "/healthz");
        using HttpResponseMessage response = await _fixture.Client.SendAsync(request);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Empty(await response.Content.ReadAsByteArrayAsync());
    }

    [Fact]
    public async Task UnknownRoute_Returns404Problem_WhenNoRouteMatches()
    {
        using HttpResponseMessage response = await _fixture.Client.GetAsync("/no/such/route");

        var problem = await ProblemAssert.IsProblemAsync(response, HttpStatusCode.NotFound, ProblemTypes.RouteNotFound);
        Assert.Contains("/no/such/route", problem.GetProperty("detail").GetString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task KnownPath_Returns405ProblemWithAllow_WhenMethodWrong()
    {
        using HttpResponseMessage response = await _fixture.Client.DeleteAsync("/healthz");

        await ProblemAssert.IsProblemAsync(response, HttpStatusCode.MethodNotAllowed, ProblemTypes.MethodNotAllowed);
        Assert.Equal(["GET", "HEAD"], response.Content.Headers.Allow);
    }

    [Fact]
    public async Task DatabaseRoute_Returns405ListingEveryMethod_WhenMethodWrong()
    {
        using HttpResponseMessage response = await _fixture.Client.PutAsync("/databases/x/echo", new StringContent("{}"));

        await ProblemAssert.IsProblemAsync(response, HttpStatusCode.MethodNotAllowed, ProblemTypes.MethodNotAllowed);
        Assert.Equal(["GET", "POST", "HEAD"], response.Content.Headers.Allow);
    }

    [Fact]
    public async Task DatabaseRoute_PassesCapturedName_WhenPathHasDbSegment()
    {
        using HttpResponseMessage response = await _fixture.Client.GetAsync("/databases/Northwind/echo");

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("db=Northwind", await response.Content.ReadAsStringAsync());
    }

    [Fact]
    public async Task DatabaseRoute_PassesDecodedName_WhenSegmentIsPercentEncoded()
    {
        using HttpResponseMessage response = await _fixture.Client.GetAsync("/databases/my%2Ddb/echo");

        Assert.Equal("db=my-db", await response.Content.ReadAsStringAsync());
    }

    [Theory]
    [InlineData("/databases/Northwind/echo/Orders", "db=Northwind name=Orders")]
    [InlineData("/databases/Northwind/echo/Orders/", "db=Northwind name=Orders")]
    [InlineData("/databases/North%77ind/echo/Orders%20by%20date", "db=Northwind name=Orders by date")]
    [InlineData("/databases/Northwind/echo/Orders%2FTotals", "db=Northwind name=Orders%2FTotals")]
    [InlineData("/databases/Northwind/echo/Orders%252FTotals", "db=Northwind name=Orders%2FTotals")]
    [InlineData("/databases/Northwind/echo/caf%C3%A9", "db=Northwind name=café")]
    public async Task NamedParameter_PassesTheSegmentAsKestrelDecodedIt_WhenRouteHasOne(string path, string expected)
    {
        using HttpResponseMessage response = await _fixture.Client.GetAsync(path);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(expected, await response.Content.ReadAsStringAsync());
    }

    [Theory]
    [InlineData("/test/files/css/site.css", "path=css/site.css")]
    [InlineData("/test/files/a%20b/c", "path=a b/c")]
    [InlineData("/test/files/", "path=")]
    [InlineData("/test/files/special", "special")]
    [InlineData("/TEST/Files/Special/", "special")]
    [InlineData("/test/files/special/more", "path=special/more")]
    public async Task CatchAll_TakesWhatNoMoreSpecificRouteTakes_WhenPathFallsUnderIt(string path, string expected)
    {
        using HttpResponseMessage response = await _fixture.Client.GetAsync(path);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(expected, await response.Content.ReadAsStringAsync());
    }

    [Theory]
    [InlineData("/HEALTHZ", "ok")]
    [InlineData("/HealthZ/", "ok")]
    [InlineData("/DataBases/MyDb/ECHO", "db=MyDb")]
    public async Task Routes_MatchCaseInsensitively_WhenPathCaseDiffers(string path, string expected)
    {
        using HttpResponseMessage response = await _fixture.Client.GetAsync(path);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(expected, await response.Content.ReadAsStringAsync());
    }

    [Fact]
    public async Task Request_EmitsOneStructuredLogLine_WhenAnswered()
    {
        using HttpResponseMessage response = await _fixture.Client.GetAsync("/databases/logged/echo");

        var logEvent = await _fixture.Running.Log.WaitForRequestAsync("GET", "/databases/logged/echo");
        Assert.Equal(200, CapturingSink.Scalar(logEvent, "StatusCode"));
        var elapsed = Assert.IsType<double>(CapturingSink.Scalar(logEvent, "Elapsed"));
        Assert.InRange(elapsed, 0, TestTimeouts.Default.TotalMilliseconds);
    }

    [Fact]
    public async Task Request_LogsFinalStatus_WhenRouteIsUnknown()
    {
        using HttpResponseMessage response = await _fixture.Client.PostAsync("/not/here/logged", new StringContent(""));

        var logEvent = await _fixture.Running.Log.WaitForRequestAsync("POST", "/not/here/logged");
        Assert.Equal(404, CapturingSink.Scalar(logEvent, "StatusCode"));
    }
}
