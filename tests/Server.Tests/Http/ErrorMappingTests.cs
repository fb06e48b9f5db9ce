using System.Net;
using System.Text;
using Folio.Server.Http;
using Folio.Server.Tests.Support;
using Serilog.Events;

namespace Folio.Server.Tests.Http;

public class ErrorMappingTests : IClassFixture<ServerFixture>
{
    private readonly ServerFixture _fixture;

    public ErrorMappingTests(ServerFixture fixture)
    {
        _fixture = fixture;
    }

    [Fact]
    public async Task JsonRoute_ParsesBody_WhenJsonIsWellFormed()
    {
        using HttpResponseMessage response = await _fixture.Client.PostAsync("/test/json", new StringContent("""{"a":[1,2]}"""));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("Object", await response.Content.ReadAsStringAsync());
    }

    [Theory]
    [InlineData("{not json")]
    [InlineData("")]
    [InlineData("{\"a\":1,}")]
    public async Task JsonRoute_Returns400Problem_WhenJsonIsMalformed(string body)
    {
        using HttpResponseMessage response = await _fixture.Client.PostAsync("/test/json", new StringContent(body));

        await ProblemAssert.IsProblemAsync(response, HttpStatusCode.BadRequest, ProblemTypes.MalformedJson);
    }

    [Fact]
    public async Task JsonRoute_Returns400Problem_WhenNestingExceedsMaxDepth()
    {
        string deep = new string('[', 65) + new string(']', 65);
        using HttpResponseMessage response = await _fixture.Client.PostAsync("/test/json", new StringContent(deep));

        await ProblemAssert.IsProblemAsync(response, HttpStatusCode.BadRequest, ProblemTypes.MalformedJson);
    }

    [Fact]
    public async Task Handler_Returns500WithoutInternals_WhenItThrowsUnexpectedly()
    {
        using HttpResponseMessage response = await _fixture.Client.GetAsync("/test/boom");

        var problem = await ProblemAssert.IsProblemAsync(response, HttpStatusCode.InternalServerError, ProblemTypes.InternalError);
        string raw = problem.GetRawText();
        Assert.DoesNotContain("hunter2", raw, StringComparison.Ordinal);
        Assert.DoesNotContain("InvalidOperationException", raw, StringComparison.Ordinal);
        Assert.DoesNotContain(" at ", raw, StringComparison.Ordinal);
        // Other tests in this class fail requests too, so find this request's error by its trace id.
        string detail = problem.GetProperty("detail").GetString()!;
        LogEvent error = await _fixture.Running.Log.WaitForAsync(
            e => e.Level == LogEventLevel.Error
                && e.Exception is InvalidOperationException
                && CapturingSink.Scalar(e, "TraceId") is string traceId
                && detail.Contains(traceId, StringComparison.Ordinal),
            "for the unexpected exception, naming the trace id in the detail");
        Assert.Contains("hunter2", error.Exception!.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Handler_CutsTheConnection_WhenItFailsAfterWritingPartOfItsAnswer()
    {
        // Before: the problem followed the half-written JSON under a 503, so the client read a broken body as an answer.
        await Assert.ThrowsAnyAsync<HttpRequestException>(async () =>
        {
            using HttpResponseMessage response = await _fixture.Client.GetAsync("/test/boom-midway");
            await response.Content.ReadAsStringAsync();
        });
        using HttpResponseMessage after = await _fixture.Client.GetAsync("/healthz");
        Assert.Equal(HttpStatusCode.OK, after.StatusCode);
    }

    [Fact]
    public async Task Server_KeepsServing_WhenAHandlerThrew()
    {
        using (HttpResponseMessage failed = await _fixture.Client.GetAsync("/test/boom"))
            Assert.Equal(HttpStatusCode.InternalServerError, failed.StatusCode);

        using HttpResponseMessage next = await _fixture.Client.GetAsync("/healthz");

        Assert.Equal(HttpStatusCode.OK, next.StatusCode);
    }

    [Fact]
    public async Task Handler_ReturnsItsProblem_WhenItThrowsFolioHttpException()
    {
        using HttpResponseMessage response = await _fixture.Client.GetAsync("/test/conflict");

        var problem = await ProblemAssert.IsProblemAsync(response, HttpStatusCode.Conflict, "urn:folio:problem:conflict");
        Assert.Equal("Concurrency conflict", problem.GetProperty("title").GetString());
        Assert.Equal("Expected change vector A:1.", problem.GetProperty("detail").GetString());
    }

    [Fact]
    public async Task DatabaseNameCheck_Returns400Problem_WhenNameReserved()
    {
        using HttpResponseMessage response = await _fixture.Client.PutAsync("/databases/CON/check", new StringContent(""));

        await ProblemAssert.IsProblemAsync(response, HttpStatusCode.BadRequest, ProblemTypes.InvalidDatabaseName);
    }

    [Fact]
    public async Task DatabaseNameCheck_Returns204_WhenNameValid()
    {
        using HttpResponseMessage response = await _fixture.Client.PutAsync("/databases/Northwind/check", new StringContent(""));

        Assert.Equal(HttpStatusCode.NoContent, response.StatusCode);
    }
}
