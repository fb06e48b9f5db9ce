using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Text.Json;

namespace Folio.Server.Tests.Support;

/// <summary>A worker speaking docs/tcp-protocol.md over a real socket: one JSON object per line each way.</summary>
public sealed class SubscriptionClient : IDisposable
{
    private readonly TcpClient _tcp;
    private readonly StreamReader _reader;
    private readonly Stream _stream;

    private SubscriptionClient(TcpClient tcp)
    {
        _tcp = tcp;
        _stream = tcp.GetStream();
        _reader = new StreamReader(_stream, new UTF8Encoding(false));
    }

    /// <summary>Connects and sends the header line.</summary>
    public static async Task<SubscriptionClient> ConnectAsync(IPEndPoint endPoint, string header)
    {
        var tcp = new TcpClient();
        await tcp.ConnectAsync(endPoint.Address, endPoint.Port).WaitAsync(TestTimeouts.Default);
        var client = new SubscriptionClient(tcp);
        await client.SendAsync(header);
        return client;
    }

    /// <summary>Connects and sends <paramref name="bytes"/> as they are, in place of a header line.</summary>
    public static async Task<SubscriptionClient> ConnectRawAsync(IPEndPoint endPoint, byte[] bytes)
    {
        var tcp = new TcpClient();
        await tcp.ConnectAsync(endPoint.Address, endPoint.Port).WaitAsync(TestTimeouts.Default);
        var client = new SubscriptionClient(tcp);
        await client.SendBytesAsync(bytes);
        return client;
    }

    /// <summary>The header for <paramref name="subscription"/> of <paramref name="database"/>.</summary>
    public static string Header(string database, string subscription, string strategy = "OpenIfFree", int batchSize = 100) =>
        JsonSerializer.Serialize(new { Database = database, Subscription = subscription, Strategy = strategy, BatchSize = batchSize });

    public Task SendAsync(string line) => SendBytesAsync(Encoding.UTF8.GetBytes(line + "\n"));

    /// <summary>Writes <paramref name="bytes"/> as they are (a hostile worker's, which need not be UTF-8).</summary>
    public async Task SendBytesAsync(byte[] bytes)
    {
        await _stream.WriteAsync(bytes).AsTask().WaitAsync(TestTimeouts.Default);
        await _stream.FlushAsync();
    }

    /// <summary>The next message that is not a heartbeat; null when the server closed the connection.</summary>
    public async Task<JsonElement?> ReceiveAsync()
    {
        while (true)
        {
            string? line = await _reader.ReadLineAsync().WaitAsync(TestTimeouts.Default);
            if (line is null)
                return null;
            JsonElement message = JsonDocument.Parse(line).RootElement.Clone();
            if (message.GetProperty("Type").GetString() != "Heartbeat")
                return message;
        }
    }

    /// <summary>The next message, which must be of type <paramref name="type"/>.</summary>
    public async Task<JsonElement> ExpectAsync(string type)
    {
        JsonElement message = await ReceiveAsync() ?? throw new Xunit.Sdk.XunitException($"The server closed the connection instead of sending {type}.");
        Assert.True(message.GetProperty("Type").GetString() == type, $"Expected {type}, got {message.GetRawText()}");
        return message;
    }

    /// <summary>Acknowledges a batch.</summary>
    public Task AcknowledgeAsync(JsonElement batch) => SendAsync($"{{\"Type\":\"Ack\",\"LastEtag\":{batch.GetProperty("LastEtag").GetInt64()}}}");

    /// <summary>The ids of a batch's items.</summary>
    public static List<string> Ids(JsonElement batch) => [.. batch.GetProperty("Items").EnumerateArray().Select(i => i.GetProperty("Id").GetString()!)];

    public void Dispose()
    {
        _reader.Dispose();
        _tcp.Dispose();
    }
}
