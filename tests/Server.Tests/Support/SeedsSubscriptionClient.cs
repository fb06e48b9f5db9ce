using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Text.Json;

namespace Folio.Server.Tests.Support;

/// <summary>
/// A worker speaking the seeds' clients' subscription protocol over a real socket: JSON objects written one after another
/// with no separator, and read back the same way (a line break from the server is a heartbeat, skipped).
/// </summary>
public sealed class SeedsSubscriptionClient : IDisposable
{
    private readonly TcpClient _tcp;
    private readonly Stream _stream;
    private byte[] _buffer = new byte[64 * 1024];
    private int _start;
    private int _end;

    private SeedsSubscriptionClient(TcpClient tcp)
    {
        _tcp = tcp;
        _stream = tcp.GetStream();
    }

    /// <summary>Connects without sending anything.</summary>
    public static async Task<SeedsSubscriptionClient> ConnectAsync(IPEndPoint endPoint)
    {
        var tcp = new TcpClient { NoDelay = true };
        await tcp.ConnectAsync(endPoint.Address, endPoint.Port).WaitAsync(TestTimeouts.Default);
        return new SeedsSubscriptionClient(tcp);
    }

    /// <summary>
    /// Connects, agrees on version 53000 for <paramref name="database"/>, sends the options and returns the connection
    /// status message.
    /// </summary>
    public static async Task<(SeedsSubscriptionClient Client, JsonElement Status)> OpenAsync(IPEndPoint endPoint, string database, string subscription, string strategy = "OpenIfFree", int maxDocsPerBatch = 4096)
    {
        SeedsSubscriptionClient client = await ConnectAsync(endPoint);
        await client.SendAsync(Header(database, 53_000));
        JsonElement answer = await client.ReceiveAsync() ?? throw new Xunit.Sdk.XunitException("The server closed the connection instead of answering the header.");
        Assert.Equal("Ok", answer.GetProperty("Status").GetString());
        await client.SendAsync(JsonSerializer.Serialize(new { SubscriptionName = subscription, Strategy = strategy, MaxDocsPerBatch = maxDocsPerBatch, TimeToWaitBeforeConnectionRetry = "00:00:01" }));
        JsonElement status = await client.ReceiveAsync() ?? throw new Xunit.Sdk.XunitException("The server closed the connection instead of sending the connection status.");
        return (client, status);
    }

    /// <summary>The connection header as the clients write it.</summary>
    public static string Header(string database, int version, string operation = "Subscription") =>
        JsonSerializer.Serialize(new { DatabaseName = database, Operation = operation, OperationVersion = version, AuthorizeInfo = (object?)null, LicensedFeatures = new { DataCompression = true } });

    /// <summary>Writes one message, with no separator after it.</summary>
    public Task SendAsync(string json) => SendBytesAsync(Encoding.UTF8.GetBytes(json));

    /// <summary>Writes <paramref name="bytes"/> as they are (a hostile worker's, which need not be UTF-8).</summary>
    public async Task SendBytesAsync(byte[] bytes)
    {
        await _stream.WriteAsync(bytes).AsTask().WaitAsync(TestTimeouts.Default);
        await _stream.FlushAsync();
    }

    /// <summary>Acknowledges the batch whose last document has <paramref name="changeVector"/>.</summary>
    public Task AcknowledgeAsync(string? changeVector) => SendAsync(JsonSerializer.Serialize(new { ChangeVector = changeVector, Type = "Acknowledge" }));

    /// <summary>The next message; null when the server closed the connection.</summary>
    public async Task<JsonElement?> ReceiveAsync()
    {
        while (true)
        {
            if (TryTakeValue(out JsonElement value))
                return value;
            if (_end == _buffer.Length)
            {
                if (_start > 0)
                {
                    Array.Copy(_buffer, _start, _buffer, 0, _end - _start);
                    _end -= _start;
                    _start = 0;
                }
                else
                {
                    Array.Resize(ref _buffer, _buffer.Length * 2);
                }
            }

            int read = await _stream.ReadAsync(_buffer.AsMemory(_end)).AsTask().WaitAsync(TestTimeouts.Default);
            if (read == 0)
                return null;
            _end += read;
        }
    }

    /// <summary>The next message, which must be of type <paramref name="type"/>.</summary>
    public async Task<JsonElement> ExpectAsync(string type)
    {
        JsonElement message = await ReceiveAsync() ?? throw new Xunit.Sdk.XunitException($"The server closed the connection instead of sending {type}.");
        Assert.True(message.TryGetProperty("Type", out JsonElement given) && given.GetString() == type, $"Expected {type}, got {message.GetRawText()}");
        return message;
    }

    /// <summary>The messages of one batch: its documents (the <c>Data</c> values) and the <c>Includes</c> objects, through <c>EndOfBatch</c>.</summary>
    public async Task<(List<JsonElement> Documents, List<JsonElement> Includes)> ReadBatchAsync()
    {
        var documents = new List<JsonElement>();
        var includes = new List<JsonElement>();
        while (true)
        {
            JsonElement message = await ReceiveAsync() ?? throw new Xunit.Sdk.XunitException("The server closed the connection in the middle of a batch.");
            switch (message.GetProperty("Type").GetString())
            {
                case "Data":
                    documents.Add(message.GetProperty("Data"));
                    break;
                case "Includes":
                    includes.Add(message.GetProperty("Includes"));
                    break;
                case "EndOfBatch":
                    return (documents, includes);
                default:
                    throw new Xunit.Sdk.XunitException($"Unexpected message in a batch: {message.GetRawText()}");
            }
        }
    }

    /// <summary>A document's <c>@metadata</c> value.</summary>
    public static string Metadata(JsonElement document, string name) => document.GetProperty("@metadata").GetProperty(name).GetString()!;

    private bool TryTakeValue(out JsonElement value)
    {
        while (_start < _end && _buffer[_start] is (byte)' ' or (byte)'\r' or (byte)'\n' or (byte)'\t')
            _start++;
        var reader = new Utf8JsonReader(_buffer.AsSpan(_start, _end - _start), isFinalBlock: false, state: default);
        try
        {
            if (!JsonDocument.TryParseValue(ref reader, out JsonDocument? document))
            {
                value = default;
                return false;
            }

            using (document)
                value = document.RootElement.Clone();
        }
        catch (JsonException)
        {
            value = default;
            return false;
        }

        _start += (int)reader.BytesConsumed;
        return true;
    }

    public void Dispose() => _tcp.Dispose();
}
