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

    [Fact]
    public async Task JsonRoute_Returns413Problem_WhenChunkedBodyExceedsKestrelLimit()
    {
        // Sent by hand, and only as far as past the limit: the server answers as soon as the body passes it and then
        // closes, so a client still writing the rest (HttpClient did) may get a broken pipe instead of the answer.
        using var tcp = new TcpClient();
        Uri address = Running.Server.Address;
        await tcp.ConnectAsync(address.Host, address.Port).WaitAsync(TestTimeouts.Default);
        NetworkStream stream = tcp.GetStream();
        var request = new StringBuilder("POST /test/json HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n");
        for (int chunk = 0; chunk < 3; chunk++)
            request.Append("400\r\n").Append(' ', 1024).Append("\r\n");
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
}
