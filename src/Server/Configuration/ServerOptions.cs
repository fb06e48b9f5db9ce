namespace Folio.Server.Configuration;

/// <summary>
/// The server's settings, bound from appsettings.json, <c>FOLIO_</c> environment variables and the
/// command line (in that order of precedence, last wins), e.g. <c>--DataDir=/var/folio</c>.
/// </summary>
public sealed class ServerOptions
{
    /// <summary>The address served when nothing else is configured.</summary>
    public const string DefaultServerUrl = "http://127.0.0.1:8080";

    /// <summary>Directory holding databases and logs; a relative path resolves against the working directory.</summary>
    public string DataDir { get; set; } = "data";

    /// <summary>HTTP address to listen on; port 0 asks the OS for a free port (see <see cref="Hosting.FolioServer.Address"/>).</summary>
    public string ServerUrl { get; set; } = DefaultServerUrl;

    /// <summary>Largest single document accepted, in bytes (32 MB by default).</summary>
    public long MaxDocumentSizeBytes { get; set; } = 32L * 1024 * 1024;

    /// <summary>
    /// Room above <see cref="MaxDocumentSizeBytes"/> allowed in a request body, because a document
    /// travels wrapped in a command or with whitespace around it.
    /// </summary>
    public long RequestBodyMarginBytes { get; set; } = 1024 * 1024;

    /// <summary>Largest page a paging request may ask for; larger requests get this many.</summary>
    public int MaxPageSize { get; set; } = 1024;

    /// <summary>Deepest JSON nesting accepted in a request body.</summary>
    public int MaxJsonDepth { get; set; } = 64;

    /// <summary>
    /// The largest a database's journal file gets, in bytes. Each new file is sized from the write rate (about one
    /// flush interval of writing, from 1 MB up to this) and zero-filled ahead of the records, so commits only sync data.
    /// </summary>
    public long JournalFileSizeBytes { get; set; } = 64L * 1024 * 1024;

    /// <summary>Port of the TCP listener that carries data subscriptions.</summary>
    public int TcpPort { get; set; } = 38888;

    /// <summary>Largest total size of a request's headers, in bytes.</summary>
    public int MaxRequestHeadersTotalSizeBytes { get; set; } = 32 * 1024;

    /// <summary>Most headers a request may carry.</summary>
    public int MaxRequestHeaderCount { get; set; } = 100;

    /// <summary>Longest request line (method, path and query), in bytes; multi-id loads put many ids in the query.</summary>
    public int MaxRequestLineSizeBytes { get; set; } = 16 * 1024;

    /// <summary>How long a client may take to send its request headers.</summary>
    public TimeSpan RequestHeadersTimeout { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>Slowest request body upload tolerated after the grace period, in bytes per second; 0 turns the check off.</summary>
    public double MinRequestBodyBytesPerSecond { get; set; } = 240;

    /// <summary>Slowest response download tolerated after the grace period, in bytes per second; 0 turns the check off.</summary>
    public double MinResponseBytesPerSecond { get; set; } = 240;

    /// <summary>How long a slow client is given before the data-rate minimums apply; Kestrel needs more than one second.</summary>
    public TimeSpan MinDataRateGracePeriod { get; set; } = TimeSpan.FromSeconds(5);

    /// <summary>How long a connection may sit idle between requests (or before its first) before it is closed.</summary>
    public TimeSpan KeepAliveTimeout { get; set; } = TimeSpan.FromSeconds(130);

    /// <summary>
    /// Most connections open at once; 0 sets no cap. A cap bounds descriptors, but once idle connections fill it new
    /// clients are refused, so by default idle ones are bounded by <see cref="KeepAliveTimeout"/> instead.
    /// </summary>
    public long MaxConcurrentConnections { get; set; }

    /// <summary>
    /// Most bytes of a refused body (413) read and dropped before answering, so a client that sends its whole body
    /// without waiting for <c>100 Continue</c> reads the answer instead of a reset; past it the connection is closed.
    /// </summary>
    public long RequestBodyDrainBytes { get; set; } = 64L * 1024 * 1024;

    /// <summary>Longest time spent reading and dropping a refused body (<see cref="RequestBodyDrainBytes"/>).</summary>
    public TimeSpan RequestBodyDrainTimeout { get; set; } = TimeSpan.FromSeconds(10);

    /// <summary>How long an auto index may go unqueried before it is retired.</summary>
    public TimeSpan AutoIndexIdleTimeout { get; set; } = TimeSpan.FromMinutes(30);

    /// <summary>How often each database checks whether a rebuilt index can replace the old one and whether auto indexes went idle.</summary>
    public TimeSpan IndexMaintenanceInterval { get; set; } = TimeSpan.FromMilliseconds(250);

    /// <summary>How long in-flight requests may run on after a shutdown signal before connections are cut.</summary>
    public TimeSpan ShutdownTimeout { get; set; } = TimeSpan.FromSeconds(15);

    /// <summary>
    /// Whether every database compresses the document bodies it writes (Zstd with a dictionary trained per
    /// collection; <c>--DocumentsCompression=false</c> turns it off). On by default: through the system's libzstd it
    /// costs bulk insert nothing measurable and stores orders at 0.4× their JSON (docs/benchmarks.md, "Documents
    /// compression through the system's libzstd"). Bodies already compressed stay readable either way.
    /// </summary>
    public bool DocumentsCompression { get; set; } = true;

    /// <summary>Collections (case-insensitive, comma-separated) whose bodies are stored uncompressed even when compression is on.</summary>
    public string UncompressedCollections { get; set; } = string.Empty;

    /// <summary>Whether logs also go to the console (the rolling file under <see cref="LogsDirectory"/> always gets them).</summary>
    public bool LogToConsole { get; set; } = true;

    /// <summary>How bulk inserts batch their streams and report progress.</summary>
    public BulkInsert.BulkInsertOptions BulkInsert { get; set; } = new();

    /// <summary>Indexing settings (<c>Indexing:SearchEngine</c>).</summary>
    public IndexingOptions Indexing { get; set; } = new();

    /// <summary>Loading databases on demand and unloading idle ones.</summary>
    public Databases.DatabasesOptions Databases { get; set; } = new();

    /// <summary>Limits of JavaScript projections and patches (<c>Scripting:TimeoutMs</c>, <c>Scripting:MaxStatements</c>, …).</summary>
    public ScriptingOptions Scripting { get; set; } = new();

    /// <summary>Query governance (<c>Queries:Timeout</c>, <c>Queries:MaxTimeout</c>).</summary>
    public QueriesOptions Queries { get; set; } = new();

    /// <summary>How the changes feed waits, sends heartbeats and treats slow consumers.</summary>
    public Changes.ChangesOptions Changes { get; set; } = new();

    /// <summary>How data subscriptions batch and keep their TCP sessions alive.</summary>
    public Subscriptions.Tcp.SubscriptionOptions Subscriptions { get; set; } = new();

    /// <summary>Authentication and TLS (<c>Security:Authentication</c>, <c>Security:Certificate:Path</c>, …).</summary>
    public Security.SecurityOptions Security { get; set; } = new();

    /// <summary>Largest request body Kestrel accepts: a document plus <see cref="RequestBodyMarginBytes"/>.</summary>
    public long MaxRequestBodySizeBytes => MaxDocumentSizeBytes + RequestBodyMarginBytes;

    /// <summary>Where the rolling log files go.</summary>
    public string LogsDirectory => Path.Combine(DataDir, "Logs");

    /// <summary>Lists every setting that is out of range, so a bad configuration is reported in one go.</summary>
    /// <returns>One message per invalid setting; empty when the options are usable.</returns>
    public IReadOnlyList<string> Validate()
    {
        var errors = new List<string>();
        if (string.IsNullOrWhiteSpace(DataDir))
            errors.Add("DataDir must not be empty.");
        if (!Uri.TryCreate(ServerUrl, UriKind.Absolute, out Uri? url) || (url.Scheme != Uri.UriSchemeHttp && url.Scheme != Uri.UriSchemeHttps))
            errors.Add($"ServerUrl '{ServerUrl}' must be an absolute http:// or https:// address, e.g. {DefaultServerUrl}.");
        else if (Hosting.KestrelSetup.ListenAddress(url.Host) is not { } address)
            errors.Add($"ServerUrl's host '{url.Host}' must be an IP address, localhost or * (every interface).");
        else
            errors.AddRange(ListenerSecurity.Check(url, address, Security));
        if (MaxDocumentSizeBytes <= 0)
            errors.Add("MaxDocumentSizeBytes must be positive.");
        if (RequestBodyMarginBytes < 0)
            errors.Add("RequestBodyMarginBytes must not be negative.");
        if (MaxPageSize <= 0)
            errors.Add("MaxPageSize must be positive.");
        if (MaxJsonDepth <= 0)
            errors.Add("MaxJsonDepth must be positive.");
        if (JournalFileSizeBytes < 1024 * 1024)
            errors.Add("JournalFileSizeBytes must be at least 1 MB.");
        if (TcpPort is < 0 or > 65535)
            errors.Add("TcpPort must be between 0 and 65535.");
        if (MaxRequestHeadersTotalSizeBytes <= 0 || MaxRequestHeaderCount <= 0 || MaxRequestLineSizeBytes <= 0)
            errors.Add("Request header limits must be positive.");
        if (RequestHeadersTimeout <= TimeSpan.Zero)
            errors.Add("RequestHeadersTimeout must be positive.");
        if (MinRequestBodyBytesPerSecond < 0 || MinResponseBytesPerSecond < 0)
            errors.Add("Minimum data rates must not be negative.");
        if (MinDataRateGracePeriod <= TimeSpan.FromSeconds(1))
            errors.Add("MinDataRateGracePeriod must be longer than one second.");
        if (KeepAliveTimeout <= TimeSpan.Zero)
            errors.Add("KeepAliveTimeout must be positive.");
        if (MaxConcurrentConnections < 0)
            errors.Add("MaxConcurrentConnections must not be negative (0 sets no cap).");
        if (RequestBodyDrainBytes < 0 || RequestBodyDrainTimeout < TimeSpan.Zero)
            errors.Add("RequestBodyDrainBytes and RequestBodyDrainTimeout must not be negative.");
        if (ShutdownTimeout < TimeSpan.Zero)
            errors.Add("ShutdownTimeout must not be negative.");
        errors.AddRange(BulkInsert.Validate());
        errors.AddRange(Indexing.Validate());
        errors.AddRange(Databases.Validate());
        errors.AddRange(Scripting.Validate());
        errors.AddRange(Queries.Validate());
        errors.AddRange(Changes.Validate());
        errors.AddRange(Subscriptions.Validate());
        errors.AddRange(Security.Validate());
        return errors;
    }
}
