using Folio.Server.Configuration;
using Folio.Server.Databases;
using Folio.Server.Documents;
using Folio.Server.Logging;
using Folio.Server.Routing;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Serilog;
using Serilog.Core;
using Serilog.Extensions.Hosting;
using Serilog.Extensions.Logging;

namespace Folio.Server.Hosting;

/// <summary>
/// The Folio server process: Kestrel with one catch-all middleware that dispatches through Folio's
/// router. Program.cs and the tests build it the same way, so tests exercise the real host.
/// </summary>
public sealed class FolioServer : IAsyncDisposable
{
    // Handler classes served by every server; each is created once through DI.
    private static readonly Type[] s_builtInHandlers =
    [
        typeof(HealthHandler),
        typeof(DatabasesHandler),
        typeof(Queries.QueriesHandler),
        typeof(Indexes.IndexesHandler),
        typeof(DatabaseStatsHandler),
        typeof(StorageReportHandler),
        typeof(DocumentsHandler),
        typeof(Patching.PatchHandler),
        typeof(Operations.OperationsHandler),
        typeof(CollectionsHandler),
        typeof(BulkDocsHandler),
        typeof(BulkInsert.BulkInsertHandler),
        typeof(Changes.ChangesHandler),
        typeof(Subscriptions.SubscriptionsHandler),
        typeof(Wire.OpenApiHandler),
        typeof(Studio.StudioHandler),
        typeof(Monitoring.ServerStatsHandler),
        typeof(Monitoring.MetricsHandler),
        typeof(Transfer.ExportHandler),
        typeof(Transfer.ImportHandler),
        typeof(Security.CredentialsHandler),
        typeof(Backup.BackupHandler),
        typeof(CompactionHandler),
        typeof(DocumentsCompressionHandler),
        typeof(RavenProtocol.NodeTopologyHandler),
        typeof(RavenProtocol.OperationIdsHandler),
        typeof(RavenProtocol.StreamsHandler),
        typeof(RavenProtocol.HiLoHandler),
        typeof(RavenProtocol.IdentitiesHandler),
        typeof(RavenProtocol.CompareExchangeHandler),
        typeof(RavenProtocol.DatabaseRecordHandler),
        typeof(RavenProtocol.MultiGetHandler),
        typeof(RavenProtocol.Indexes.RavenIndexesHandler),
        typeof(RavenProtocol.Indexes.RavenIndexAdminHandler),
        typeof(RavenProtocol.TcpInfoHandler),
        typeof(RavenProtocol.SubscriptionTasksHandler),
        typeof(RavenProtocol.Indexes.RavenIndexTermsHandler),
    ];

    private readonly WebApplication _app;
    private readonly ILogger<FolioServer> _logger;
    private readonly ListenEndpoints _endpoints;
    private Uri? _address;

    private FolioServer(WebApplication app, ServerOptions options, ListenEndpoints endpoints, FolioRouter router)
    {
        Router = router;
        _app = app;
        _endpoints = endpoints;
        Options = options;
        _logger = app.Services.GetRequiredService<ILogger<FolioServer>>();
    }

    /// <summary>The handler classes every server registers, so tests can compare their routes with the wire contract.</summary>
    internal static IReadOnlyList<Type> BuiltInHandlers => s_builtInHandlers;

    /// <summary>The validated options the server runs with.</summary>
    public ServerOptions Options { get; }

    /// <summary>The address actually bound (the real port when <see cref="ServerOptions.ServerUrl"/> asked for port 0).</summary>
    /// <exception cref="InvalidOperationException">The server has not started.</exception>
    public Uri Address => _address ?? throw new InvalidOperationException("The server has not started.");

    /// <summary>The TCP listener of data subscriptions (its port is the bound one), once started.</summary>
    public System.Net.IPEndPoint TcpEndPoint => _endpoints.Tcp?.IPEndPoint ?? throw new InvalidOperationException("The server has not started.");

    /// <summary>The route table the server dispatches through, with each route's declared access.</summary>
    public FolioRouter Router { get; }

    /// <summary>The application's services.</summary>
    public IServiceProvider Services => _app.Services;

    /// <summary>
    /// Builds a server from appsettings.json, <c>FOLIO_</c> environment variables and <paramref name="args"/>,
    /// creating the data and log directories.
    /// </summary>
    /// <param name="args">Command-line arguments, e.g. <c>--DataDir=/tmp/folio --ServerUrl=http://127.0.0.1:0</c>.</param>
    /// <param name="setup">Extra handlers and log sink from an embedder, or null.</param>
    /// <returns>A server that is built but not listening yet.</returns>
    /// <exception cref="ServerConfigurationException">The configuration is invalid.</exception>
    /// <exception cref="InvalidOperationException">A handler declares a route the router refuses (see <see cref="RouteTableBuilder.AddHandler"/>).</exception>
    public static FolioServer Create(string[] args, FolioServerSetup? setup = null)
    {
        WebApplicationBuilder builder = WebApplication.CreateEmptyBuilder(new WebApplicationOptions
        {
            Args = args,
            ContentRootPath = AppContext.BaseDirectory,
        });

        // Only Folio's own sources, so stray ASPNETCORE_/DOTNET_ variables cannot change what is served.
        builder.Configuration.Sources.Clear();
        ServerConfiguration.AddSources(builder.Configuration, args, AppContext.BaseDirectory);
        ServerOptions options = ServerConfiguration.Bind(builder.Configuration);
        Directory.CreateDirectory(options.DataDir);
        Directory.CreateDirectory(options.LogsDirectory);

        Logger serilog = LoggingSetup.CreateLogger(builder.Configuration, options, setup?.LogSink);
        builder.Logging.ClearProviders();
        builder.Logging.SetMinimumLevel(LogLevel.Trace);
        builder.Logging.AddSerilog(serilog, dispose: true);
        // What AddSerilog on the services would register for the request logging middleware, without also replacing
        // the logger factory (whose filters keep hosting diagnostics off, below).
        builder.Services.AddSingleton(new DiagnosticContext(serilog));
        builder.Services.AddSingleton<IDiagnosticContext>(static services => services.GetRequiredService<DiagnosticContext>());
        // The request logging middleware writes the line per request; ASP.NET Core's hosting diagnostics, when enabled at any
        // level, would also open a log scope and start an Activity for every request. AddSerilog adds a
        // rule for its provider (everything at Trace), and a provider's own rules win over rules for all
        // providers, so the filter has to name the provider too.
        builder.Logging.AddFilter<SerilogLoggerProvider>("Microsoft.AspNetCore.Hosting.Diagnostics", LogLevel.None);

        System.Security.Cryptography.X509Certificates.X509Certificate2? certificate = options.Security.UsesTls ? Security.ServerCertificate.Load(options.Security.Certificate) : null;
        builder.WebHost.UseKestrelCore();
        if (certificate is not null)
            builder.WebHost.UseKestrelHttpsConfiguration();
        var endpoints = new ListenEndpoints();
        builder.WebHost.ConfigureKestrel(kestrel => KestrelSetup.Apply(kestrel, options, endpoints, certificate));
        builder.Services.Configure<HostOptions>(host => host.ShutdownTimeout = options.ShutdownTimeout);
        builder.Services.AddSingleton(options);
        builder.Services.AddSingleton(endpoints);
        // Created by the container so the container disposes it at shutdown, after Kestrel has
        // drained the requests in flight; it opens the databases on disk when the router is built.
        builder.Services.AddSingleton<DatabaseRegistry>();
        builder.Services.AddSingleton<RavenProtocol.InnerRequests>();
        builder.Services.AddSingleton<Monitoring.ServerMetrics>();
        builder.Services.AddSingleton<Monitoring.PrometheusMetrics>();
        builder.Services.AddSingleton<Security.CredentialStore>();
        builder.Services.AddSingleton<Security.Authenticator>();
        builder.Services.AddSingleton<Wire.OpenApiDocument>();

        WebApplication app = builder.Build();
        FolioRouter router;
        try
        {
            router = BuildRouter(app.Services, setup);
            app.Services.GetRequiredService<Wire.OpenApiDocument>().Generate(router.Routes);
        }
        catch
        {
            // A refused route table ends the start; release the databases and log files opened so far.
            app.DisposeAsync().AsTask().GetAwaiter().GetResult();
            throw;
        }

        var dispatcher = new RequestDispatcher(router, app.Services.GetRequiredService<ILogger<RequestDispatcher>>(), app.Services.GetRequiredService<Monitoring.ServerMetrics>(), app.Services.GetRequiredService<Monitoring.PrometheusMetrics>(), app.Services.GetRequiredService<Security.Authenticator>(), options, app.Services.GetRequiredService<DatabaseRegistry>());
        app.UseSerilogRequestLogging(requestLogging => RequestLogging.Configure(requestLogging, serilog));
        // Only changes requests pass the WebSocket middleware: it would add a feature object to every other request.
        app.UseWhen(
            static context => context.Request.Path.Value is { } path && path.EndsWith("/changes", StringComparison.Ordinal),
            branch => branch.UseWebSockets(new WebSocketOptions { KeepAliveInterval = options.Changes.Heartbeat }));
        app.Services.GetRequiredService<RavenProtocol.InnerRequests>().Dispatch = dispatcher.InvokeAsync;
        app.Run(dispatcher.InvokeAsync);
        return new FolioServer(app, options, endpoints, router);
    }

    /// <summary>Starts listening and records the bound address.</summary>
    /// <param name="cancellationToken">Abandons the start.</param>
    /// <returns>Completes once the server accepts requests.</returns>
    public async Task StartAsync(CancellationToken cancellationToken = default)
    {
        IHostApplicationLifetime lifetime = _app.Lifetime;
        lifetime.ApplicationStopping.Register(() => HostingLog.Stopping(_logger, Options.ShutdownTimeout));
        lifetime.ApplicationStopped.Register(() => HostingLog.Stopped(_logger));
        try
        {
            await _app.StartAsync(cancellationToken);
        }
        catch (Exception ex) when (ex is not OperationCanceledException)
        {
            HostingLog.StartFailed(_logger, ex, Options.ServerUrl);
            throw;
        }

        _address = DiscoverAddress();
        HostingLog.Listening(_logger, _address.ToString(), Options.DataDir);
        HostingLog.ListeningTcp(_logger, TcpEndPoint.ToString());
        LogSecurity();
        HostingLog.Limits(
            _logger,
            Options.MaxRequestBodySizeBytes,
            Options.MaxRequestHeadersTotalSizeBytes,
            Options.MaxRequestHeaderCount,
            Options.MinRequestBodyBytesPerSecond,
            Options.MinResponseBytesPerSecond,
            Options.MinDataRateGracePeriod,
            Options.ShutdownTimeout);
    }

    /// <summary>Stops accepting connections and waits up to the shutdown timeout for requests in flight.</summary>
    /// <param name="cancellationToken">Cuts the wait short.</param>
    /// <returns>Completes once stopped.</returns>
    public Task StopAsync(CancellationToken cancellationToken = default) => _app.StopAsync(cancellationToken);

    /// <summary>Waits until Ctrl+C, SIGTERM or <see cref="StopAsync"/> stops the server.</summary>
    /// <param name="cancellationToken">Stops waiting.</param>
    /// <returns>Completes when the server has stopped.</returns>
    public Task WaitForShutdownAsync(CancellationToken cancellationToken = default) => _app.WaitForShutdownAsync(cancellationToken);

    /// <summary>Stops the server if it runs and releases it, flushing the logs.</summary>
    /// <returns>Completes when released.</returns>
    public ValueTask DisposeAsync() => _app.DisposeAsync();

    private static FolioRouter BuildRouter(IServiceProvider services, FolioServerSetup? setup)
    {
        var routes = new RouteTableBuilder();
        foreach (Type type in s_builtInHandlers)
            routes.AddHandler(ActivatorUtilities.CreateInstance(services, type));
        if (setup is not null)
        {
            foreach (object handler in setup.AdditionalHandlers)
                routes.AddHandler(handler);
        }

        return routes.Build();
    }

    private Uri DiscoverAddress()
    {
        // The bound end point, not ServerUrl's host: "*" or "localhost" name no address a client can use, and port 0 is resolved here.
        System.Net.IPEndPoint bound = _endpoints.Http?.IPEndPoint ?? throw new InvalidOperationException("Kestrel started without the HTTP listener.");
        return new Uri($"{(Options.Security.UsesTls ? "https" : "http")}://{bound}");
    }

    private void LogSecurity()
    {
        Security.SecurityOptions security = Options.Security;
        if (!security.RequiresAuthentication)
        {
            if (!System.Net.IPAddress.IsLoopback(_endpoints.Http!.IPEndPoint!.Address))
                Security.SecurityLog.Unsecured(_logger, Options.ServerUrl);
            return;
        }

        IReadOnlyList<Security.Credential> all = Services.GetRequiredService<Security.CredentialStore>().All;
        int keys = all.Count(c => c.Kind == Security.CredentialKind.ApiKey);
        Security.SecurityLog.Configured(_logger, keys, all.Count - keys, security.UsesTls ? "on" : "off");
        if (all.Count == 0)
            Security.SecurityLog.NoCredentials(_logger);
    }
}
