using System.Buffers;
using System.IO.Pipelines;
using System.Net;
using System.Text.Encodings.Web;
using System.Text.Json;
using Folio.Server.Databases;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Http.Features;

namespace Folio.Server.Subscriptions.Tcp;

/// <summary>
/// One worker's TCP session (docs/tcp-protocol.md): a header line naming the database and subscription, then batches
/// of documents in etag order, each acknowledged by the worker before the next, and heartbeats while idle. The position
/// moves only on an acknowledgement, so a worker that goes away before acknowledging gets the batch again.
/// </summary>
internal sealed partial class SubscriptionSession
{
    private const int MaxLineBytes = 64 * 1024;

    private static readonly JsonWriterOptions s_options = new() { Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping };

    private readonly ConnectionContext _connection;
    private readonly DatabaseRegistry _databases;
    private readonly SubscriptionOptions _options;
    private readonly ILogger _logger;
    private readonly Utf8JsonWriter _writer;
    private readonly CancellationToken _serverStopping;
    private readonly Security.Authenticator _authenticator;

    public SubscriptionSession(ConnectionContext connection, DatabaseRegistry databases, SubscriptionOptions options, Security.Authenticator authenticator, ILogger logger, CancellationToken serverStopping)
    {
        _authenticator = authenticator;
        _connection = connection;
        _serverStopping = serverStopping;
        _databases = databases;
        _options = options;
        _logger = logger;
        _writer = new Utf8JsonWriter(connection.Transport.Output, s_options);
    }

    /// <summary>The subscription's name once the header named it.</summary>
    public string? Name { get; private set; }

    private PipeWriter Output => _connection.Transport.Output;

    public async Task RunAsync()
    {
        CancellationToken closed = _connection.ConnectionClosed;
        try
        {
            await ServeAsync(closed);
        }
        catch (InvalidDataException ex)
        {
            await RefuseAsync("Invalid", ex.Message);
        }
    }

    private async Task ServeAsync(CancellationToken closed)
    {
        using JsonDocument? header = await ReadLineAsync(_connection.Transport.Input, closed);
        if (header is null)
            return;
        if (!TryReadHeader(header.RootElement, _options, out SessionHeader request, out string? problem))
        {
            await RefuseAsync("Invalid", problem!);
            return;
        }

        Name = request.Subscription;
        if (_authenticator.CheckSession(request.ApiKey, _connection.Features.Get<ITlsConnectionFeature>()?.ClientCertificate, (_connection.RemoteEndPoint as IPEndPoint)?.Address, request.Database) is { } refusal)
        {
            await RefuseAsync(refusal.Status switch { 403 => "Forbidden", 429 => "TooManyAttempts", _ => "Unauthorized" }, refusal.Detail);
            return;
        }

        // Opened here if unloaded, without a thread waiting on an unload still closing it; the lease then finds it open.
        await _databases.EnsureLoadedAsync(request.Database);
        Database database;
        DatabaseListener listening;
        try
        {
            using DatabaseLease lease = _databases.Lease(request.Database);
            database = lease.Database;
            listening = database.Listen();
        }
        catch (Http.FolioHttpException ex)
        {
            await RefuseAsync("DatabaseNotFound", ex.Message);
            return;
        }

        using DatabaseListener listener = listening;
        Subscription? subscription = database.Subscriptions.Get(request.Subscription);
        if (subscription is null)
        {
            await RefuseAsync("NotFound", $"There is no subscription named '{request.Subscription}' in database '{database.Name}'.");
            return;
        }

        if (subscription.Disabled)
        {
            await RefuseAsync("Disabled", $"Subscription '{subscription.Name}' is disabled; enable it to connect.");
            return;
        }

        var worker = new SubscriptionWorker(_connection.RemoteEndPoint?.ToString() ?? "unknown", DateTime.UtcNow);
        (bool connected, SubscriptionWorker? replaced) = subscription.Connect(worker, request.TakeOver);
        if (!connected)
        {
            await RefuseAsync("InUse", $"Subscription '{subscription.Name}' has a worker connected; connect with \"Strategy\":\"TakeOver\" to replace it.");
            return;
        }

        replaced?.End("TakenOver");
        try
        {
            // A stopping server ends the session at once: Kestrel would otherwise wait out the whole shutdown timeout for it.
            using var stop = CancellationTokenSource.CreateLinkedTokenSource(closed, worker.Ending, database.Closing, _serverStopping);
            SubscriptionLog.Connected(_logger, subscription.Name, database.Name, worker.Address, subscription.AcknowledgedEtag);
            await SendAsync(static (w, s) =>
            {
                w.WriteStartObject();
                w.WriteString("Type"u8, "Connected"u8);
                w.WriteString("Subscription"u8, s.Name);
                w.WriteNumber("AcknowledgedEtag"u8, s.AcknowledgedEtag);
                w.WriteEndObject();
            }, subscription, closed);
            await DeliverAsync(database, subscription, request, stop.Token);
        }
        catch (OperationCanceledException) when (!closed.IsCancellationRequested)
        {
            string code = worker.EndedBecause ?? (database.Closing.IsCancellationRequested || _serverStopping.IsCancellationRequested ? "DatabaseClosed" : "Ended");
            await RefuseAsync(code, code switch
            {
                "TakenOver" => "Another worker took the subscription over.",
                "Deleted" => "The subscription was deleted.",
                "Dropped" => "The connection was dropped by request.",
                "Disabled" => "The subscription was disabled.",
                "Updated" => "The subscription's definition changed; reconnect to follow it.",
                _ => "The database is closing or the server is stopping.",
            });
        }
        finally
        {
            subscription.Disconnect(worker);
        }
    }

    /// <summary>Tells the worker why the session ends, and ends it.</summary>
    private async Task RefuseAsync(string code, string detail)
    {
        SubscriptionLog.Refused(_logger, Name ?? "(none)", code, detail);
        await SendAsync(static (w, s) =>
        {
            w.WriteStartObject();
            w.WriteString("Type"u8, "Error"u8);
            w.WriteString("Code"u8, s.code);
            w.WriteString("Detail"u8, s.detail);
            w.WriteEndObject();
        }, (code, detail), _connection.ConnectionClosed);
        await Output.CompleteAsync();
    }

    /// <summary>Writes one message as a line and flushes it.</summary>
    private async ValueTask SendAsync<TState>(Action<Utf8JsonWriter, TState> write, TState state, CancellationToken cancellationToken)
    {
        _writer.Reset(Output);
        write(_writer, state);
        _writer.Flush();
        Output.Write("\n"u8);
        FlushResult flushed = await Output.FlushAsync(cancellationToken);
        if (flushed.IsCompleted)
            throw new ConnectionResetException("The worker closed the connection.");
    }

    /// <summary>The next line as JSON, or null when the worker closed the connection (static so tests/Fuzz can feed it any bytes).</summary>
    /// <exception cref="InvalidDataException">The line is not JSON (or not UTF-8) or is longer than the limit.</exception>
    internal static async Task<JsonDocument?> ReadLineAsync(PipeReader input, CancellationToken cancellationToken)
    {
        while (true)
        {
            ReadResult read = await input.ReadAsync(cancellationToken);
            ReadOnlySequence<byte> buffer = read.Buffer;
            SequencePosition? end = buffer.PositionOf((byte)'\n');
            if (end is { } newline)
            {
                ReadOnlySequence<byte> line = buffer.Slice(0, newline);
                JsonDocument? parsed = null;
                string? error = null;
                if (!Utf8Text.IsValid(line))
                {
                    error = "A line is not valid UTF-8.";
                }
                else
                {
                    try
                    {
                        parsed = JsonDocument.Parse(line);
                    }
                    catch (JsonException ex)
                    {
                        error = $"A line is not JSON: {ex.Message}";
                    }
                }

                input.AdvanceTo(buffer.GetPosition(1, newline));
                if (error is not null)
                    throw new InvalidDataException(error);
                return parsed;
            }

            if (buffer.Length > MaxLineBytes)
                throw new InvalidDataException($"A line may hold at most {MaxLineBytes} bytes.");
            input.AdvanceTo(buffer.Start, buffer.End);
            if (read.IsCompleted)
                return null;
        }
    }
}
