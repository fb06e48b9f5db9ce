using BenchmarkDotNet.Attributes;
using Folio.Server.Configuration;
using Folio.Server.Routing;
using Folio.Server.Security;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Logging.Abstractions;

namespace Folio.Benchmarks.Security;

/// <summary>
/// The authentication check a secured server runs before every protected request, alone: read the header, find the
/// key by its id, hash it and compare, and compare clearances. The open server's check is the one-branch baseline.
/// Run: <c>dotnet run -c Release --project tests/Benchmarks -- --filter '*AuthenticatorBenchmarks*' --job short --inProcess</c>.
/// </summary>
[MemoryDiagnoser]
public class AuthenticatorBenchmarks
{
    private readonly string _dataDir = Path.Combine(Path.GetTempPath(), "folio-auth-bench-" + Guid.NewGuid().ToString("N"));
    private Authenticator _secured = null!;
    private Authenticator _open = null!;
    private DefaultHttpContext _context = null!;

    [GlobalSetup]
    public void Setup()
    {
        var options = new ServerOptions { DataDir = _dataDir };
        options.Security.Authentication = AuthenticationMode.Required;
        var store = new CredentialStore(options);
        (_, string key) = store.CreateKey("bench", Clearance.Read, ["shop"]);
        _secured = new Authenticator(options, store, NullLogger<Authenticator>.Instance);
        _open = new Authenticator(new ServerOptions { DataDir = _dataDir }, store, NullLogger<Authenticator>.Instance);
        _context = new DefaultHttpContext();
        _context.Request.Headers.Authorization = ApiKeys.Scheme + " " + key;
    }

    [GlobalCleanup]
    public void Cleanup() => Directory.Delete(_dataDir, recursive: true);

    /// <summary>A server without authentication: what every request pays.</summary>
    [Benchmark(Baseline = true)]
    public bool Open() => !_open.Required || _open.Check(_context, RouteAccess.DatabaseRead, "shop") is null;

    /// <summary>A valid Read key on a GET of its database.</summary>
    [Benchmark]
    public bool ApiKey() => !_secured.Required || _secured.Check(_context, RouteAccess.DatabaseRead, "shop") is null;
}
