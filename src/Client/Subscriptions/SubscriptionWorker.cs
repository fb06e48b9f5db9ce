using System.Net.Security;
using System.Net.Sockets;
using System.Security.Authentication;
using System.Text;
using Folio.Client.Exceptions;
using Folio.Client.Http;
using Folio.Client.Security;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;

namespace Folio.Client.Subscriptions;

/// <summary>
/// Consumes a subscription over the server's TCP listener: receives batches in etag order, runs the handler on each,
/// and acknowledges it when the handler returns, which moves the subscription's stored position. A handler that
/// throws gets the same batch again (up to <see cref="SubscriptionWorkerOptions.MaxHandlerRetries"/> times); a dropped
/// connection or an unavailable server is retried after <see cref="SubscriptionWorkerOptions.RetryDelay"/>, and
/// delivery resumes after the last acknowledged batch. Delivery is at least once: a batch processed but not
/// acknowledged before a crash comes again.
/// </summary>
/// <typeparam name="T">The type documents are read as.</typeparam>
public sealed class SubscriptionWorker<T> : IAsyncDisposable where T : class
{
    private readonly DocumentStore _store;
    private readonly string _database;
    private readonly SubscriptionWorkerOptions _options;
    private readonly CancellationTokenSource _stop = new();

    internal SubscriptionWorker(DocumentStore store, string database, SubscriptionWorkerOptions options)
    {
        _store = store;
        _database = database;
        _options = options;
        store.Initialize();
    }

    /// <summary>Batches acknowledged by this worker.</summary>
    public long AcknowledgedBatches { get; private set; }

    /// <summary>The etag of the last batch this worker acknowledged.</summary>
    public long LastAcknowledgedEtag { get; private set; }

    /// <summary>How many times the worker connected (more than one after reconnects).</summary>
    public int Connections { get; private set; }

    /// <summary>
    /// Runs until <paramref name="cancellationToken"/> is cancelled or the worker is disposed (then completes normally),
    /// or until a failure it cannot retry: the subscription or database is gone, another worker took over, the handler
    /// failed too often, or reconnecting failed for longer than <see cref="SubscriptionWorkerOptions.MaxErroneousPeriod"/>.
    /// </summary>
    public async Task RunAsync(Func<SubscriptionBatch<T>, Task> handler, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(handler);
        using var linked = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, _stop.Token);
        CancellationToken token = linked.Token;
        DateTime? failingSince = null;
        while (!token.IsCancellationRequested)
        {
            try
            {
                await RunSessionAsync(handler, () => failingSince = null, token).ConfigureAwait(false);
            }
            catch (Exception) when (token.IsCancellationRequested)
            {
                // Stopping closes the socket, so whatever the session was doing fails: that is the stop, not an error.
                return;
            }
            catch (Exception e) when (IsRetryable(e))
            {
                failingSince ??= DateTime.UtcNow;
                if (_options.MaxErroneousPeriod != Timeout.InfiniteTimeSpan && DateTime.UtcNow - failingSince > _options.MaxErroneousPeriod)
                    throw;
            }
            try
            {
                await Task.Delay(_options.RetryDelay, token).ConfigureAwait(false);
            }
            catch (OperationCanceledException)
            {
                return;
            }
        }
    }

    private static bool IsRetryable(Exception e) => e switch
    {
        SubscriptionException subscription => !subscription.IsFinal,
        IOException or SocketException or ConnectionClosedException => true,
        _ => false,
    };

    private async Task RunSessionAsync(Func<SubscriptionBatch<T>, Task> handler, Action connected, CancellationToken token)
    {
        Uri baseUrl = _store.Executor.BaseUrl;
        using var tcp = new TcpClient { NoDelay = true };
        await tcp.ConnectAsync(baseUrl.Host, _store.TcpPort, token).ConfigureAwait(false);
        await using Stream stream = await OpenStreamAsync(tcp, baseUrl, token).ConfigureAwait(false);
        using var reader = new StreamReader(stream, new UTF8Encoding(false), false, 64 * 1024);
        // Closing the socket is what ends a pending read when the worker is stopped.
        await using CancellationTokenRegistration closeOnStop = token.Register(static state => ((TcpClient)state!).Dispose(), tcp);

        var header = new JObject
        {
            ["Database"] = _database,
            ["Subscription"] = _options.SubscriptionName,
            ["Strategy"] = _options.Strategy.ToString(),
            ["BatchSize"] = _options.MaxDocsPerBatch,
            ["MaxBatchWaitMs"] = (long)_options.MaxBatchWait.TotalMilliseconds,
        };
        if (_store.Executor.ApiKey is { } key)
            header["ApiKey"] = key;
        await SendAsync(stream, header, token).ConfigureAwait(false);
        JObject first = await ReceiveAsync(reader, token).ConfigureAwait(false);
        if ((string?)first["Type"] != "Connected")
            throw new SubscriptionException("Invalid", $"Expected Connected, received {first.ToString(Formatting.None)}");
        Connections++;
        connected();

        while (true)
        {
            JObject message = await ReceiveAsync(reader, token).ConfigureAwait(false);
            if ((string?)message["Type"] != "Batch")
                throw new SubscriptionException("Invalid", $"Expected a batch, received {message.ToString(Formatting.None)}");
            SubscriptionBatch<T> batch = ReadBatch(message);
            await HandleAsync(handler, batch, token).ConfigureAwait(false);
            await SendAsync(stream, new JObject { ["Type"] = "Ack", ["LastEtag"] = batch.LastEtag }, token).ConfigureAwait(false);
            AcknowledgedBatches++;
            LastAcknowledgedEtag = batch.LastEtag;
        }
    }

    /// <summary>
    /// The connection's stream: TLS when the url is https (the server's TCP listener then speaks TLS too) or the store's
    /// <see cref="TlsOptions.UseTlsForSubscriptions"/> says so. A refused certificate throws <see cref="AuthenticationException"/>,
    /// which is not retried: trying again would meet the same certificate.
    /// </summary>
    private async Task<Stream> OpenStreamAsync(TcpClient tcp, Uri baseUrl, CancellationToken token)
    {
        NetworkStream network = tcp.GetStream();
        RequestExecutor executor = _store.Executor;
        if (!(executor.UseTlsForSubscriptions ?? baseUrl.Scheme == Uri.UriSchemeHttps))
            return network;
        var tls = new SslStream(network, leaveInnerStreamOpen: false);
        try
        {
            await tls.AuthenticateAsClientAsync(executor.ClientAuthentication(baseUrl.IdnHost), token).ConfigureAwait(false);
        }
        catch
        {
            await tls.DisposeAsync().ConfigureAwait(false);
            throw;
        }

        return tls;
    }

    private async Task HandleAsync(Func<SubscriptionBatch<T>, Task> handler, SubscriptionBatch<T> batch, CancellationToken token)
    {
        for (int attempt = 1; ; attempt++)
        {
            try
            {
                await handler(batch).ConfigureAwait(false);
                return;
            }
            catch (Exception) when (attempt <= _options.MaxHandlerRetries && !token.IsCancellationRequested)
            {
                await Task.Delay(_options.RetryDelay, token).ConfigureAwait(false);
            }
        }
    }

    private SubscriptionBatch<T> ReadBatch(JObject message)
    {
        var items = new List<SubscriptionItem<T>>();
        if (message["Items"] is JArray array)
        {
            foreach (JToken item in array)
            {
                string id = (string)item["Id"]!;
                T? result = null;
                if (item["Document"] is JObject document)
                {
                    document.Remove("@metadata");
                    result = document.ToObject<T>(_store.Conventions.Serializer);
                    if (result is not null)
                        _store.Conventions.SetId(result, id);
                }
                items.Add(new SubscriptionItem<T>((long)item["Etag"]!, id, (string)item["ChangeType"]!, (string?)item["ChangeVector"], result));
            }
        }
        return new SubscriptionBatch<T>((long)message["LastEtag"]!, items);
    }

    private static async Task SendAsync(Stream stream, JObject message, CancellationToken token)
    {
        byte[] line = Encoding.UTF8.GetBytes(message.ToString(Formatting.None) + "\n");
        await stream.WriteAsync(line, token).ConfigureAwait(false);
    }

    /// <summary>The next message that is not a heartbeat; an error message throws.</summary>
    private static async Task<JObject> ReceiveAsync(StreamReader reader, CancellationToken token)
    {
        while (true)
        {
            string? line = await reader.ReadLineAsync(token).ConfigureAwait(false) ?? throw new ConnectionClosedException();
            if (line.Length == 0)
                continue;
            JObject message;
            using (var json = new JsonTextReader(new StringReader(line)) { DateParseHandling = DateParseHandling.None })
                message = JObject.Load(json);
            switch ((string?)message["Type"])
            {
                case "Heartbeat":
                    continue;
                case "Error":
                    throw new SubscriptionException((string?)message["Code"] ?? "Unknown", (string?)message["Detail"]);
                default:
                    return message;
            }
        }
    }

    /// <summary>Stops the worker: <see cref="RunAsync"/> completes. Disposing again does nothing.</summary>
    public ValueTask DisposeAsync()
    {
        // The source is only cancelled, never disposed: it has no timer to release, and a run may still be linking to it.
        _stop.Cancel();
        return ValueTask.CompletedTask;
    }

    /// <summary>The server closed the connection without an error message.</summary>
    private sealed class ConnectionClosedException() : IOException("The server closed the subscription connection.");
}
