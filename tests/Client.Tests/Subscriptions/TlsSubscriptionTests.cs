using System.Collections.Concurrent;
using System.Net;
using System.Security.Authentication;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using Folio.Client.DependencyInjection;
using Folio.Client.Subscriptions;
using Folio.Client.Tests.Support;
using Folio.Server.Hosting;
using Folio.Server.Security;
using Microsoft.Extensions.DependencyInjection;

namespace Folio.Client.Tests.Subscriptions;

/// <summary>
/// Subscriptions, HTTPS and the changes feed against a real server started with <c>Security:Certificate:Path</c> (a
/// self-signed PFX made by the test) and <c>Security:Authentication=Required</c>: its TCP listener then speaks TLS only.
/// </summary>
public sealed class TlsSubscriptionTests : IAsyncLifetime
{
    private const string Database = "shop";
    private readonly string _dataDir = Path.Combine(Path.GetTempPath(), "folio-client-tests", Guid.NewGuid().ToString("N"));
    private readonly X509Certificate2 _serverCertificate = SelfSigned("CN=127.0.0.1", server: true);
    private readonly X509Certificate2 _clientCertificate = SelfSigned("CN=worker", server: false);
    private FolioServer? _server;
    private string _adminKey = string.Empty;

    public async Task InitializeAsync()
    {
        Directory.CreateDirectory(_dataDir);
        string pfx = Path.Combine(_dataDir, "server.pfx");
        await File.WriteAllBytesAsync(pfx, _serverCertificate.Export(X509ContentType.Pkcs12, "secret"));
        var credentials = new CredentialStore(Path.Combine(_dataDir, "System", "credentials.json"));
        (_, _adminKey) = credentials.CreateKey("client", Clearance.Admin, ["*"]);
        credentials.AddCertificate("worker", Clearance.Read, [Database], _clientCertificate.GetCertHashString(HashAlgorithmName.SHA256));
        _server = FolioServer.Create([
            "--DataDir=" + _dataDir, "--ServerUrl=https://127.0.0.1:0", "--TcpPort=0", "--LogToConsole=false", "--JournalFileSizeBytes=4194304",
            "--Security:Authentication=Required", "--Security:Certificate:Path=" + pfx, "--Security:Certificate:Password=secret",
        ]);
        await _server.StartAsync();
    }

    [Fact]
    public async Task Worker_SubscribesOverTls_WhenTheUrlIsHttpsAndTheSelfSignedCertificateIsTrusted()
    {
        using DocumentStore admin = Store(s => s.ApiKey = _adminKey);
        await SeedAsync(admin);

        string[] seen = await ReceiveAsync(admin);

        Assert.Equal("https", _server!.Address.Scheme);
        Assert.Equal(["orders/1"], seen);
    }

    [Fact]
    public async Task Worker_AuthenticatesWithItsClientCertificate_OverHttpsAndTcp()
    {
        using DocumentStore admin = Store(s => s.ApiKey = _adminKey);
        await SeedAsync(admin);
        using DocumentStore worker = Store(s => s.Tls.ClientCertificate = _clientCertificate);

        await using (var session = worker.OpenAsyncSession())
            Assert.True((await session.LoadAsync<Order>("orders/1"))!.Paid);
        string[] seen = await ReceiveAsync(worker);

        Assert.Equal(["orders/1"], seen);
    }

    [Fact]
    public async Task Worker_WithoutItsClientCertificate_IsRefusedByTheServer()
    {
        using DocumentStore admin = Store(s => s.ApiKey = _adminKey);
        await SeedAsync(admin);
        using DocumentStore anonymous = Store(_ => { });

        await using SubscriptionWorker<Order> worker = anonymous.Subscriptions.GetSubscriptionWorker<Order>("paid");
        Folio.Client.Exceptions.SubscriptionException refused = await Assert.ThrowsAsync<Folio.Client.Exceptions.SubscriptionException>(
            () => worker.RunAsync(_ => Task.CompletedTask).WaitAsync(Wait.Timeout));

        Assert.Contains("credentials", refused.Message, StringComparison.OrdinalIgnoreCase);
    }

    [Fact]
    public async Task Worker_RefusesAServerCertificateItDoesNotTrust_WithoutRetrying()
    {
        using DocumentStore admin = Store(s => s.ApiKey = _adminKey);
        await SeedAsync(admin);
        using DocumentStore untrusting = Store(s => s.ApiKey = _adminKey, trustServer: false);

        await using SubscriptionWorker<Order> worker = untrusting.Subscriptions.GetSubscriptionWorker<Order>("paid");
        await Assert.ThrowsAsync<AuthenticationException>(() => worker.RunAsync(_ => Task.CompletedTask).WaitAsync(Wait.Timeout));
        HttpRequestException https = await Assert.ThrowsAsync<HttpRequestException>(() => untrusting.Subscriptions.GetAsync("paid"));
        Assert.IsType<AuthenticationException>(https.InnerException);
        Assert.Equal(0, worker.Connections);
    }

    [Fact]
    public async Task Worker_SpeaksPlainTcp_WhenTlsIsTurnedOffForSubscriptions_AndTheServerDropsIt()
    {
        using DocumentStore admin = Store(s => s.ApiKey = _adminKey);
        await SeedAsync(admin);
        using DocumentStore plain = Store(s =>
        {
            s.ApiKey = _adminKey;
            s.Tls.UseTlsForSubscriptions = false;
        });

        await using SubscriptionWorker<Order> worker = plain.Subscriptions.GetSubscriptionWorker<Order>(new SubscriptionWorkerOptions { SubscriptionName = "paid", MaxErroneousPeriod = TimeSpan.FromSeconds(1), RetryDelay = TimeSpan.FromMilliseconds(100) });
        Exception dropped = await Assert.ThrowsAnyAsync<Exception>(() => worker.RunAsync(_ => Task.CompletedTask).WaitAsync(Wait.Timeout));

        Assert.True(dropped is IOException or System.Net.Sockets.SocketException or Folio.Client.Exceptions.FolioException, dropped.ToString());
        Assert.Equal(0, worker.Connections);
    }

    [Fact]
    public async Task AddFolio_PassesTheApiKeyAndTlsOptions_ToTheStore()
    {
        using DocumentStore admin = Store(s => s.ApiKey = _adminKey);
        await SeedAsync(admin);
        var services = new ServiceCollection();
        services.AddFolio(options =>
        {
            options.Urls = [_server!.Address.ToString()];
            options.Database = Database;
            options.TcpPort = _server.TcpEndPoint.Port;
            options.ApiKey = _adminKey;
            options.Tls = tls => tls.TrustServerThumbprint(_serverCertificate.GetCertHashString(HashAlgorithmName.SHA256));
        });
        await using ServiceProvider provider = services.BuildServiceProvider();
        var store = (DocumentStore)provider.GetRequiredService<IDocumentStore>();

        await using (var session = store.OpenAsyncSession())
            Assert.True((await session.LoadAsync<Order>("orders/1"))!.Paid);
        Assert.Equal(["orders/1"], await ReceiveAsync(store));
    }

    [Fact]
    public void TrustServerThumbprint_RejectsTextThatIsNotAThumbprint()
    {
        var options = new Security.TlsOptions();

        Assert.Throws<ArgumentException>(() => options.TrustServerThumbprint("not-hex"));
        options.TrustServerThumbprint(string.Join(':', Convert.ToHexString(SHA1.HashData([1])).Chunk(2).Select(c => new string(c))));

        Assert.Single(options.TrustedServerThumbprints);
    }

    public async Task DisposeAsync()
    {
        if (_server is not null)
        {
            await _server.StopAsync();
            await _server.DisposeAsync();
        }

        _serverCertificate.Dispose();
        _clientCertificate.Dispose();
        if (Directory.Exists(_dataDir))
            Directory.Delete(_dataDir, recursive: true);
    }

    private DocumentStore Store(Action<DocumentStore> configure, bool trustServer = true)
    {
        var store = new DocumentStore { Urls = [_server!.Address.ToString().TrimEnd('/')], Database = Database, TcpPort = _server.TcpEndPoint.Port };
        if (trustServer)
        {
            // Only the public part is handed over, as an operator would give it to a client.
            using X509Certificate2 publicPart = X509CertificateLoader.LoadCertificate(_serverCertificate.RawData);
            store.Tls.TrustServerCertificate(publicPart);
        }

        configure(store);
        store.Initialize();
        return store;
    }

    private static async Task SeedAsync(DocumentStore admin)
    {
        await admin.Maintenance.CreateDatabaseAsync(Database);
        await using (var session = admin.OpenAsyncSession())
        {
            await session.StoreAsync(new Order { Id = "orders/1", Paid = true });
            await session.StoreAsync(new Order { Id = "orders/2", Paid = false });
            await session.SaveChangesAsync();
        }

        await admin.Subscriptions.CreateAsync(new SubscriptionCreationOptions { Name = "paid", Query = "from Orders where Paid = true" });
    }

    private static async Task<string[]> ReceiveAsync(DocumentStore store)
    {
        var seen = new ConcurrentBag<string>();
        using var timeout = new CancellationTokenSource(Wait.Timeout);
        await using SubscriptionWorker<Order> worker = store.Subscriptions.GetSubscriptionWorker<Order>("paid");
        Task run = worker.RunAsync(batch =>
        {
            foreach (SubscriptionItem<Order> item in batch.Items)
                seen.Add(item.Id);
            return Task.CompletedTask;
        }, timeout.Token);
        await Wait.UntilAsync(() => Task.FromResult(!seen.IsEmpty), "the paid order through the subscription");
        await worker.DisposeAsync();
        await run;
        Assert.Equal(1, worker.Connections);
        return seen.ToArray();
    }

    private static X509Certificate2 SelfSigned(string subject, bool server)
    {
        using RSA rsa = RSA.Create(2048);
        var request = new CertificateRequest(subject, rsa, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1);
        request.CertificateExtensions.Add(new X509EnhancedKeyUsageExtension([new Oid(server ? "1.3.6.1.5.5.7.3.1" : "1.3.6.1.5.5.7.3.2")], critical: false));
        if (server)
        {
            var names = new SubjectAlternativeNameBuilder();
            names.AddIpAddress(IPAddress.Loopback);
            request.CertificateExtensions.Add(names.Build());
        }

        using X509Certificate2 made = request.CreateSelfSigned(DateTimeOffset.UtcNow.AddMinutes(-5), DateTimeOffset.UtcNow.AddDays(1));
        // Through PKCS#12 so the key is usable by TLS on every platform.
        return X509CertificateLoader.LoadPkcs12(made.Export(X509ContentType.Pkcs12), null);
    }
}
