using Folio.Client.BulkInsert;
using Folio.Client.Changes;
using Folio.Client.Conventions;
using Folio.Client.Http;
using Folio.Client.Identity;
using Folio.Client.Security;
using Folio.Client.Session;
using Folio.Client.Subscriptions;

namespace Folio.Client;

/// <summary>
/// The entry point to Folio: set <see cref="Urls"/>, <see cref="Database"/> and, if needed, <see cref="Conventions"/>,
/// call <see cref="Initialize"/>, then open a session per unit of work. The store holds one <see cref="HttpClient"/>
/// for all its requests; keep one store for the application's lifetime and dispose it at the end.
/// </summary>
public sealed class DocumentStore : IDocumentStore
{
    private readonly Lock _initializeLock = new();
    private RequestExecutor? _executor;
    private HiLoIdGenerator? _hiLo;
    private DocumentSubscriptions? _subscriptions;
    private MaintenanceOperations? _maintenance;
    private bool _disposed;

    /// <summary>The servers' base urls; requests go to the first that answers.</summary>
    public string[] Urls { get; set; } = [];

    IReadOnlyList<string> IDocumentStore.Urls => Urls;

    /// <summary>The database sessions and operations use unless told another.</summary>
    public string? Database { get; set; }

    /// <summary>How entities map to documents.</summary>
    public DocumentConventions Conventions { get; set; } = new();

    /// <summary>The port of the server's TCP listener for data subscriptions (on the host of the url in use); 38888 by default.</summary>
    public int TcpPort { get; set; } = 38888;

    /// <summary>
    /// The API key (<c>folio.…</c>) sent with every request, the changes WebSocket and subscription sessions, for a server
    /// that requires authentication; null (the default) sends none. Set it before Initialize().
    /// </summary>
    public string? ApiKey { get; set; }

    /// <summary>
    /// TLS for a server started with a certificate: the client certificate to present, server certificates to trust
    /// beyond the machine's (self-signed), and whether subscriptions' TCP speaks TLS. Set it before Initialize().
    /// </summary>
    public TlsOptions Tls { get; set; } = new();

    /// <summary>How long one HTTP request may take; 100 seconds by default; set it before Initialize(). Streams (changes, bulk insert, query streams) are not limited by it.</summary>
    public TimeSpan RequestTimeout { get; set; } = TimeSpan.FromSeconds(100);

    /// <summary>Data subscriptions: define them and run workers.</summary>
    public DocumentSubscriptions Subscriptions => _subscriptions ??= new DocumentSubscriptions(this);

    /// <summary>Databases and indexes.</summary>
    public MaintenanceOperations Maintenance => _maintenance ??= new MaintenanceOperations(this);

    internal RequestExecutor Executor => _executor ?? throw new InvalidOperationException(
        _disposed ? "The document store is disposed." : "Call DocumentStore.Initialize() before using the store.");

    internal HiLoIdGenerator HiLo => _hiLo ??= new HiLoIdGenerator(this);

    /// <summary>Checks the settings and creates the connection pool; call once before using the store.</summary>
    public IDocumentStore Initialize()
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        if (Volatile.Read(ref _executor) is not null)
            return this;
        lock (_initializeLock)
            InitializeLocked();
        return this;
    }

    private void InitializeLocked()
    {
        if (_executor is not null)
            return;
        if (Urls.Length == 0)
            throw new InvalidOperationException("Set DocumentStore.Urls (e.g. http://127.0.0.1:8080) before Initialize().");
        foreach (string url in Urls)
        {
            if (!Uri.TryCreate(url, UriKind.Absolute, out Uri? uri) || (uri.Scheme != Uri.UriSchemeHttp && uri.Scheme != Uri.UriSchemeHttps))
                throw new InvalidOperationException($"'{url}' is not an http or https url.");
        }
        Volatile.Write(ref _executor, new RequestExecutor(Urls, RequestTimeout, ApiKey, Tls));
    }

    /// <inheritdoc />
    public IAsyncDocumentSession OpenAsyncSession(string? database = null) =>
        new AsyncDocumentSession(this, DatabaseOrDefault(database));

    /// <inheritdoc />
    public BulkInsertOperation BulkInsert(string? database = null, CancellationToken cancellationToken = default) =>
        new(this, DatabaseOrDefault(database), cancellationToken);

    /// <inheritdoc />
    public ChangesFeed Changes(string? database = null) => new(this, DatabaseOrDefault(database));

    internal string DatabaseOrDefault(string? database) =>
        database ?? Database ?? throw new InvalidOperationException("Name a database, or set DocumentStore.Database.");

    /// <summary>Releases the connection pool.</summary>
    public void Dispose()
    {
        if (_disposed)
            return;
        _disposed = true;
        _executor?.Dispose();
        _executor = null;
    }

    /// <summary>Releases the connection pool.</summary>
    public ValueTask DisposeAsync()
    {
        Dispose();
        return ValueTask.CompletedTask;
    }
}
