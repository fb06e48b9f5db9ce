using System.Globalization;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Text.RegularExpressions;
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

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public async Task JsonRoute_Returns413Problem_WhenTheClientSendsAWholeBodyFarOverTheLimit(bool chunked)
    {
        // Two megabytes, without Expect: 100-continue: far more than the sockets' buffers hold, so the client is still
        // writing when the server refuses the body; the server reads and drops the rest, so the answer arrives whole.
        byte[] body = Encoding.ASCII.GetBytes("[" + new string('1', 2 * 1024 * 1024) + "]");
        HttpContent content = chunked ? new UnknownLengthContent(body) : new ByteArrayContent(body);

        for (int attempt = 0; attempt < 3; attempt++)
        {
            using HttpResponseMessage response = await Running.Client.PostAsync("/test/json", content);
            await ProblemAssert.IsProblemAsync(response, HttpStatusCode.RequestEntityTooLarge, ProblemTypes.TooLarge);
        }
        await FolioApi.AssertServingAsync(Running.Client);
    }

    [Fact]
    public async Task JsonRoute_Returns413WithoutReadingTheBody_WhenTheClientWaitsForContinue()
    {
        using var request = new HttpRequestMessage(HttpMethod.Post, "/test/json") { Content = new ByteArrayContent(new byte[2 * 1024 * 1024]) };
        request.Headers.ExpectContinue = true;

        using HttpResponseMessage response = await Running.Client.SendAsync(request);

        await ProblemAssert.IsProblemAsync(response, HttpStatusCode.RequestEntityTooLarge, ProblemTypes.TooLarge);
    }

    [Fact]
    public async Task JsonRoute_Returns413Problem_WhenChunkedBodyPassesTheLimit()
    {
        // Sent by hand, a little past the limit; the client says it will close, so the answer ends with the connection.
        using var tcp = new TcpClient();
        Uri address = Running.Server.Address;
        await tcp.ConnectAsync(address.Host, address.Port).WaitAsync(TestTimeouts.Default);
        NetworkStream stream = tcp.GetStream();
        var request = new StringBuilder("POST /test/json HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n");
        for (int chunk = 0; chunk < 3; chunk++)
            request.Append("400\r\n").Append(' ', 1024).Append("\r\n");
        request.Append("0\r\n\r\n");
        await stream.WriteAsync(Encoding.ASCII.GetBytes(request.ToString())).AsTask().WaitAsync(TestTimeouts.Default);

        string answer = await ReadAnswerAsync(stream);

        Assert.StartsWith("HTTP/1.1 413 ", answer, StringComparison.Ordinal);
        Assert.Contains("Content-Type: application/problem+json", answer, StringComparison.OrdinalIgnoreCase);
        Assert.Contains(ProblemTypes.TooLarge, answer, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Kestrel_Returns431_WhenHeadersExceedLimit()
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, "/healthz");
        request.Headers.Add("X-Big", new string('x', 8 * 1024));
        using HttpResponseMessage response = await Running.Client.SendAsync(request);

        Assert.Equal(HttpStatusCode.RequestHeaderFieldsTooLarge, response.StatusCode);
    }

    /// <summary>Reads an HTTP answer whole: its head, then as many body bytes as its Content-Length says (or up to the close).</summary>
    private static async Task<string> ReadAnswerAsync(NetworkStream stream)
    {
        var received = new MemoryStream();
        var buffer = new byte[4096];
        while (true)
        {
            int read = await stream.ReadAsync(buffer).AsTask().WaitAsync(TestTimeouts.Default);
            if (read == 0)
                break;
            received.Write(buffer, 0, read);
            string text = Encoding.UTF8.GetString(received.GetBuffer(), 0, (int)received.Length);
            int headEnd = text.IndexOf("\r\n\r\n", StringComparison.Ordinal);
            Match length = Regex.Match(text, @"(?im)^Content-Length:\s*(\d+)\s*$");
            if (headEnd >= 0 && length.Success && received.Length >= headEnd + 4 + int.Parse(length.Groups[1].Value, CultureInfo.InvariantCulture))
                break;
        }
        return Encoding.UTF8.GetString(received.GetBuffer(), 0, (int)received.Length);
    }

    /// <summary>A body of undeclared length, so HttpClient sends it chunked.</summary>
    private sealed class UnknownLengthContent(byte[] body) : HttpContent
    {
        protected override Task SerializeToStreamAsync(Stream stream, TransportContext? context) => stream.WriteAsync(body).AsTask();

        protected override bool TryComputeLength(out long length)
        {
            length = 0;
            return false;
        }
    }
}
