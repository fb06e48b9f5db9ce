using System.Net;
using Folio.Server.Http;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Http;

/// <summary>Limits enforced by a server configured with small ones.</summary>
public class LimitsTests : IAsyncLifetime
{
    private RunningServer? _running;

    private RunningServer Running => _running!;

    public async Task InitializeAsync() =>
        _running = await RunningServer.StartAsync(
            "--MaxDocumentSizeBytes=1024",
            "--RequestBodyMarginBytes=1024",
            "--MaxRequestHeadersTotalSizeBytes=4096");

    public async Task DisposeAsync()
    {
        if (_running is not null)
            await _running.DisposeAsync();
    }

    [Fact]
    public async Task JsonRoute_Returns413Problem_WhenContentLengthExceedsDocumentLimit()
    {
        string body = "[" + new string('1', 1500) + "]";
        using HttpResponseMessage response = await Running.Client.PostAsync("/test/json", new StringContent(body));

        await ProblemAssert.IsProblemAsync(response, HttpStatusCode.RequestEntityTooLarge, ProblemTypes.TooLarge);
    }

    [Fact]
    public async Task JsonRoute_Returns413Problem_WhenChunkedBodyExceedsKestrelLimit()
    {
        byte[] body = new byte[8 * 1024];
        Array.Fill(body, (byte)' ');
        // An unknown length makes HttpClient send chunked, so only Kestrel's body limit can stop it.
        using var content = new StreamContent(new UnknownLengthStream(body));
        using HttpResponseMessage response = await Running.Client.PostAsync("/test/json", content);

        await ProblemAssert.IsProblemAsync(response, HttpStatusCode.RequestEntityTooLarge, ProblemTypes.TooLarge);
    }

    [Fact]
    public async Task Kestrel_Returns431_WhenHeadersExceedLimit()
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, "/healthz");
        request.Headers.Add("X-Big", new string('x', 8 * 1024));
        using HttpResponseMessage response = await Running.Client.SendAsync(request);

        Assert.Equal(HttpStatusCode.RequestHeaderFieldsTooLarge, response.StatusCode);
    }

    private sealed class UnknownLengthStream(byte[] data) : MemoryStream(data)
    {
        public override bool CanSeek => false;
    }
}
