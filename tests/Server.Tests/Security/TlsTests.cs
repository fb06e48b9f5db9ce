using System.Net;
using System.Net.Http.Json;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using System.Text.Json;
using Folio.Server.Http;
using Folio.Server.Security;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Security;

/// <summary>HTTPS from a certificate file, and client certificates as credentials, with certificates made by the test.</summary>
public sealed class TlsTests : IDisposable
{
    private readonly string _directory = Path.Combine(Path.GetTempPath(), "folio-tests", "tls-" + Guid.NewGuid().ToString("N"));
    private readonly X509Certificate2 _server = SelfSigned("CN=127.0.0.1", server: true);

    public TlsTests() => Directory.CreateDirectory(_directory);

    [Fact]
    public async Task Https_ServesWithAPfxCertificate()
    {
        string pfx = Path.Combine(_directory, "server.pfx");
        await File.WriteAllBytesAsync(pfx, _server.Export(X509ContentType.Pkcs12, "secret"));
        await using SecuredServer server = await SecuredServer.StartAsync("--ServerUrl=https://127.0.0.1:0", "--Security:Certificate:Path=" + pfx, "--Security:Certificate:Password=secret");
        using HttpClient client = Client(server, null);
        client.DefaultRequestHeaders.Authorization = new("ApiKey", server.AdminKey);

        using HttpResponseMessage stats = await client.GetAsync("/admin/stats");

        Assert.Equal("https", server.Running.Server.Address.Scheme);
        Assert.Equal(HttpStatusCode.OK, stats.StatusCode);
    }

    [Fact]
    public async Task Probe_PassesAgainstAnHttpsServer_WithASelfSignedCertificateOnLoopback()
    {
        string pfx = Path.Combine(_directory, "probe.pfx");
        await File.WriteAllBytesAsync(pfx, _server.Export(X509ContentType.Pkcs12, "secret"));
        await using SecuredServer server = await SecuredServer.StartAsync("--ServerUrl=https://127.0.0.1:0", "--Security:Certificate:Path=" + pfx, "--Security:Certificate:Password=secret");
        using var output = new StringWriter();

        int exit = await Folio.Server.Hosting.HealthProbe.RunAsync([new Uri(server.Running.Server.Address, "/healthz/ready").ToString()], output);

        Assert.True(exit == 0, output.ToString());
    }

    [Fact]
    public async Task Https_ServesWithAPemCertificateAndKey_AndAcceptsARegisteredClientCertificate()
    {
        string cert = Path.Combine(_directory, "server.crt");
        string key = Path.Combine(_directory, "server.key");
        await File.WriteAllTextAsync(cert, _server.ExportCertificatePem());
        await File.WriteAllTextAsync(key, _server.GetRSAPrivateKey()!.ExportPkcs8PrivateKeyPem());
        await using SecuredServer server = await SecuredServer.StartAsync("--ServerUrl=https://127.0.0.1:0", "--Security:Certificate:Path=" + cert, "--Security:Certificate:KeyPath=" + key);
        using HttpClient admin = Client(server, null);
        admin.DefaultRequestHeaders.Authorization = new("ApiKey", server.AdminKey);
        string db = await FolioApi.CreateDatabaseAsync(admin);
        using X509Certificate2 registered = SelfSigned("CN=worker", server: false);
        using X509Certificate2 unknown = SelfSigned("CN=stranger", server: false);
        using HttpResponseMessage added = await admin.PostAsJsonAsync("/admin/certificates", new { Name = "worker", Clearance = "Read", Databases = new[] { db }, Certificate = registered.ExportCertificatePem() }, SecuredServer.Pascal);
        Assert.Equal(HttpStatusCode.Created, added.StatusCode);
        Assert.Equal(registered.GetCertHashString(HashAlgorithmName.SHA256), JsonDocument.Parse(await added.Content.ReadAsStringAsync()).RootElement.GetProperty("Thumbprint").GetString());

        using HttpClient worker = Client(server, registered);
        using HttpClient stranger = Client(server, unknown);
        using HttpResponseMessage read = await worker.GetAsync($"/databases/{db}/stats");
        using HttpResponseMessage write = await FolioApi.PutAsync(worker, db, "a/1", "{}");
        using HttpResponseMessage refused = await stranger.GetAsync($"/databases/{db}/stats");

        Assert.Equal(HttpStatusCode.OK, read.StatusCode);
        await ProblemAssert.IsProblemAsync(write, HttpStatusCode.Forbidden, ProblemTypes.Forbidden);
        await ProblemAssert.IsProblemAsync(refused, HttpStatusCode.Unauthorized, ProblemTypes.Unauthorized);
    }

    public void Dispose()
    {
        _server.Dispose();
        RunningServer.DeleteDirectory(_directory);
    }

    /// <summary>A client that trusts exactly the test's server certificate, presenting <paramref name="certificate"/> if given.</summary>
    private HttpClient Client(SecuredServer server, X509Certificate2? certificate)
    {
        var handler = new SocketsHttpHandler { UseProxy = false };
        string expected = _server.Thumbprint;
        handler.SslOptions.RemoteCertificateValidationCallback = (_, presented, _, _) => presented is not null && presented.GetCertHashString() == expected;
        if (certificate is not null)
            handler.SslOptions.ClientCertificates = [certificate];
        return new HttpClient(handler) { BaseAddress = server.Running.Server.Address, Timeout = TestTimeouts.Default };
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
