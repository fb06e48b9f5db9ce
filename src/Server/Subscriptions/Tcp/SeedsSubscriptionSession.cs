using System.Buffers;
using System.IO.Pipelines;
using System.Text.Encodings.Web;
using System.Text.Json;
using System.Threading.Channels;
using Folio.Server.Databases;
using Microsoft.AspNetCore.Connections;

namespace Folio.Server.Subscriptions.Tcp;

/// <summary>
/// One worker of the seeds' clients, speaking their TCP protocol (docs/tcp-protocol.md, "The seeds' clients"): a connection
/// header whose version both sides agree on, the worker's options, a connection status, then batches of <c>Data</c>
/// messages (and the documents their <c>include</c> names) closed by <c>EndOfBatch</c>, each acknowledged by the worker
/// and confirmed by the server before the next. Messages are JSON objects one after another with nothing between them;
/// a bare line break is the heartbeat. The position moves only on an acknowledgement, as in Folio's own protocol.
/// </summary>
internal sealed partial class SeedsSubscriptionSession
{
    private const int MaxMessageBytes = 64 * 1024;

    private static readonly JsonWriterOptions s_options = new() { Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping, SkipValidation = true };

    private readonly ConnectionContext _connection;
    private readonly DatabaseRegistry _databases;
    private readonly SubscriptionOptions _options;
    private readonly Security.Authenticator _authenticator;
    private readonly ILogger _logger;
    private readonly CancellationToken _serverStopping;
    private readonly JsonValueReader _reader;
    private readonly Utf8JsonWriter _writer;
    private readonly Channel<bool> _acknowledgements = Channel.CreateUnbounded<bool>(new UnboundedChannelOptions { SingleReader = true, SingleWriter = true });
    private readonly CancellationTokenSource _workerGone = new();

    public SeedsSubscriptionSession(ConnectionContext connection, DatabaseRegistry databases, SubscriptionOptions options, Security.Authenticator authenticator, ILogger logger, CancellationToken serverStopping)
    {
        _connection = connection;
        _databases = databases;
        _options = options;
        _authenticator = authenticator;
        _logger = logger;
        _serverStopping = serverStopping;
        _reader = new JsonValueReader(connection.Transport.Input, MaxMessageBytes);
        _writer = new Utf8JsonWriter(connection.Transport.Output, s_options);
    }

    /// <summary>The subscription's name once the options named it.</summary>
    public string? Name { get; private set; }

    private PipeWriter Output => _connection.Transport.Output;

    public async Task RunAsync()
    {
        CancellationToken closed = _connection.ConnectionClosed;
        string? database;
        try
        {
            database = await NegotiateAsync(closed);
        }
        catch (InvalidDataException ex)
        {
            await RefuseHeaderAsync("TcpVersionMismatch", OutOfRange, ex.Message);
            return;
        }

        if (database is null)
            return;
        SeedsWorkerOptions options;
        string? problem;
        try
        {
            using JsonDocument? received = await _reader.ReadAsync(closed);
            if (received is null)
                return;
            _ = SeedsWorkerOptions.TryRead(received.RootElement, _options.MaxBatchSize, out options, out problem);
        }
        catch (InvalidDataException ex)
        {
            (options, problem) = (default, ex.Message);
        }

        if (problem is not null)
        {
            await EndAsync("Invalid", problem, canReconnect: false);
            return;
        }

        Name = options.SubscriptionName;
        // Reading stops when the session ends, whoever ends it: a worker told why it may not connect need not hang up first.
        using var readStop = CancellationTokenSource.CreateLinkedTokenSource(closed, _workerGone.Token);
        Task reading = ReadWorkerMessagesAsync(readStop.Token);
        try
        {
            await ServeAsync(database, options, closed);
        }
        finally
        {
            await _workerGone.CancelAsync();
            await reading;
        }
    }

    private async Task ServeAsync(string databaseName, SeedsWorkerOptions options, CancellationToken closed)
    {
        // Opened here if unloaded, without a thread waiting on an unload still closing it; the lease then finds it open.
        await _databases.EnsureLoadedAsync(databaseName);
        Database database;
        DatabaseListener listening;
        try
        {
            using DatabaseLease lease = _databases.Lease(databaseName);
            database = lease.Database;
            listening = database.Listen();
        }
        catch (Http.FolioHttpException ex)
        {
            SubscriptionLog.Refused(_logger, options.SubscriptionName, "DatabaseNotFound", ex.Message);
            await SendAsync(static (w, s) =>
            {
                w.WriteStartObject();
                w.WriteString("Type"u8, "Error"u8);
                w.WriteString("Message"u8, s);
                w.WriteString("Exception"u8, "Raven.Client.Exceptions.Database.DatabaseDoesNotExistException: " + s);
                w.WriteEndObject();
            }, ex.Message, closed);
            await Output.CompleteAsync();
            return;
        }

        using DatabaseListener listener = listening;
        Subscription? subscription = database.Subscriptions.Get(options.SubscriptionName);
        if (subscription is null)
        {
            await EndAsync("NotFound", $"There is no subscription named '{options.SubscriptionName}' in database '{database.Name}'.", canReconnect: false);
            return;
        }

        var worker = new SubscriptionWorker(_connection.RemoteEndPoint?.ToString() ?? "unknown", DateTime.UtcNow);
        if (!await ConnectAsync(subscription, worker, options))
            return;
        try
        {
            using var stop = CancellationTokenSource.CreateLinkedTokenSource(closed, _workerGone.Token, worker.Ending, database.Closing, _serverStopping);
            SubscriptionLog.Connected(_logger, subscription.Name, database.Name, worker.Address, subscription.AcknowledgedEtag);
            await SendAsync(static (w, _) => w.WriteRawValue("{\"Type\":\"ConnectionStatus\",\"Status\":\"Accepted\"}"u8), 0, closed);
            await DeliverAsync(database, subscription, options, stop.Token);
        }
        catch (OperationCanceledException) when (!closed.IsCancellationRequested && !_workerGone.IsCancellationRequested)
        {
            await EndedFromOutsideAsync(worker.EndedBecause);
        }
        finally
        {
            subscription.Disconnect(worker);
        }
    }

    /// <summary>Makes <paramref name="worker"/> the subscription's one worker as its strategy allows; false after telling it why not.</summary>
    private async Task<bool> ConnectAsync(Subscription subscription, SubscriptionWorker worker, SeedsWorkerOptions options)
    {
        using var waiting = CancellationTokenSource.CreateLinkedTokenSource(_workerGone.Token, _serverStopping);
        CancellationToken gone = waiting.Token;
        TimeSpan poll = TimeSpan.FromMilliseconds(Math.Max(250, options.RetryWait.TotalMilliseconds / 2));
        while (true)
        {
            if (subscription.IsDeleted)
            {
                await EndAsync("NotFound", $"Subscription '{subscription.Name}' was deleted.", canReconnect: false);
                return false;
            }

            if (subscription.Disabled)
            {
                await EndAsync("Closed", $"Subscription '{subscription.Name}' is disabled; enable it to connect.", canReconnect: false);
                return false;
            }

            (bool connected, SubscriptionWorker? replaced) = subscription.Connect(worker, options.Strategy == SeedsOpeningStrategy.TakeOver);
            if (connected)
            {
                replaced?.End("TakenOver");
                return true;
            }

            if (options.Strategy != SeedsOpeningStrategy.WaitForFree)
            {
                await EndAsync("InUse", $"Subscription '{subscription.Name}' has a worker connected and the strategy is {options.Strategy}.", canReconnect: false);
                return false;
            }

            // The seeds' clients read a line break as a heartbeat: it tells this one the server is still deciding.
            try
            {
                await SendHeartbeatAsync(gone);
                await Task.Delay(poll, gone);
            }
            catch (OperationCanceledException)
            {
                return false;
            }
        }
    }

    /// <summary>Tells a worker whose session was ended from outside why (<see cref="SubscriptionWorker.End"/>).</summary>
    private Task EndedFromOutsideAsync(string? because) => because switch
    {
        "TakenOver" => EndAsync("Closed", "Another worker took the subscription over.", canReconnect: false),
        "Dropped" => EndAsync("Closed", "The connection was dropped by request.", canReconnect: false),
        "Disabled" => EndAsync("Closed", "The subscription was disabled.", canReconnect: false),
        "Updated" => EndAsync("Closed", "The subscription's definition changed; reconnect to follow it.", canReconnect: true),
        "Deleted" => EndAsync("NotFound", "The subscription was deleted.", canReconnect: false),
        _ => EndAsync("Closed", "The database is closing or the server is stopping.", canReconnect: true),
    };

    /// <summary>Reads the worker's messages while the session lasts: acknowledgements go to the delivery loop; the end of the stream ends the session.</summary>
    private async Task ReadWorkerMessagesAsync(CancellationToken closed)
    {
        try
        {
            while (true)
            {
                using JsonDocument? message = await _reader.ReadAsync(closed);
                if (message is null)
                    break;
                JsonElement root = message.RootElement;
                if (root.ValueKind == JsonValueKind.Object && root.TryGetProperty("Type", out JsonElement type) && type.ValueKind == JsonValueKind.String)
                {
                    if (type.ValueEquals("Acknowledge"u8))
                    {
                        _acknowledgements.Writer.TryWrite(true);
                        continue;
                    }

                    if (type.ValueEquals("DisposedNotification"u8))
                        break;
                }

                SubscriptionLog.Refused(_logger, Name ?? "(none)", "Invalid", $"Expected an acknowledgement; got {root.GetRawText()}.");
                break;
            }
        }
        catch (Exception ex) when (ex is OperationCanceledException or InvalidDataException or IOException or ConnectionResetException)
        {
            // The worker is gone or spoke out of turn: either way the session ends below.
        }
        finally
        {
            _acknowledgements.Writer.TryComplete();
            await _workerGone.CancelAsync();
        }
    }

    /// <summary>Tells the worker the connection's status (<c>NotFound</c>, <c>InUse</c>, <c>Closed</c>, <c>Invalid</c>) and ends the session.</summary>
    private async Task EndAsync(string status, string message, bool canReconnect)
    {
        SubscriptionLog.Refused(_logger, Name ?? "(none)", status, message);
        try
        {
            await SendAsync(static (w, s) =>
            {
                w.WriteStartObject();
                w.WriteString("Type"u8, "ConnectionStatus"u8);
                w.WriteString("Status"u8, s.status);
                w.WriteString("Message"u8, s.message);
                w.WriteString("Exception"u8, s.message);
                w.WriteStartObject("Data"u8);
                w.WriteBoolean("CanReconnect"u8, s.canReconnect);
                w.WriteEndObject();
                w.WriteEndObject();
            }, (status, message, canReconnect), _connection.ConnectionClosed);
        }
        catch (Exception ex) when (ex is OperationCanceledException or ConnectionResetException or IOException)
        {
            // The worker went away first; there is nobody to tell.
        }

        await Output.CompleteAsync();
    }

    private async ValueTask SendHeartbeatAsync(CancellationToken cancellationToken)
    {
        Output.Write("\r\n"u8);
        await FlushAsync(cancellationToken);
    }

    /// <summary>Writes one message and flushes it.</summary>
    private async ValueTask SendAsync<TState>(Action<Utf8JsonWriter, TState> write, TState state, CancellationToken cancellationToken)
    {
        Write(write, state);
        await FlushAsync(cancellationToken);
    }

    /// <summary>Writes one message into the connection's buffer, to be flushed with others.</summary>
    private void Write<TState>(Action<Utf8JsonWriter, TState> write, TState state)
    {
        _writer.Reset(Output);
        write(_writer, state);
        _writer.Flush();
    }

    private async ValueTask FlushAsync(CancellationToken cancellationToken)
    {
        FlushResult flushed = await Output.FlushAsync(cancellationToken);
        if (flushed.IsCompleted)
            throw new ConnectionResetException("The worker closed the connection.");
    }
}
