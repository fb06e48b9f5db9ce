using System.Net;
using System.Net.Http.Headers;
using System.Text.Json;
using Folio.Server.Configuration;
using Folio.Server.Hosting;
using Folio.Server.Security;

namespace Folio.Studio.Tests.Support;

/// <summary>
/// A real server with <c>Security:Authentication=Required</c> (127.0.0.1, OS-chosen ports, its own data directory).
/// Its first admin key is made on the data directory before the start, as an operator does with the command line;
/// disposing it stops the server and deletes the directory.
/// </summary>
public sealed class SecuredStudioServer : IAsyncDisposable
{
    private readonly FolioServer _server;
    private readonly string _dataDir;

    private SecuredStudioServer(FolioServer server, string dataDir, string adminKey)
    {
        _server = server;
        _dataDir = dataDir;
        Admin = new HttpClient(new SocketsHttpHandler { UseProxy = false }) { BaseAddress = server.Address, Timeout = TimeSpan.FromSeconds(60) };
        Admin.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue(ApiKeys.Scheme, adminKey);
    }

    public Uri Address => _server.Address;

    /// <summary>A client sending the first admin key.</summary>
    public HttpClient Admin { get; }

    public static async Task<SecuredStudioServer> StartAsync()
    {
        string dataDir = Path.Combine(Path.GetTempPath(), "folio-studio-tests", Guid.NewGuid().ToString("N"));
        (_, string adminKey) = new CredentialStore(new ServerOptions { DataDir = dataDir }).CreateKey("first-admin", Clearance.Admin, [Credential.AllDatabases]);
        FolioServer server = FolioServer.Create(["--DataDir=" + dataDir, "--ServerUrl=http://127.0.0.1:0", "--TcpPort=0", "--LogToConsole=false", "--JournalFileSizeBytes=4194304", "--Security:Authentication=Required"]);
        await server.StartAsync();
        return new SecuredStudioServer(server, dataDir, adminKey);
    }

    /// <summary>Creates a key through the admin endpoint, as an administrator would, and answers its text.</summary>
    public async Task<string> CreateKeyAsync(string name, string clearance, string database)
    {
        using HttpResponseMessage response = await Admin.PostAsync("/admin/api-keys", StudioSession.Json(JsonSerializer.Serialize(new { Name = name, Clearance = clearance, Databases = new[] { database } })));
        string text = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == HttpStatusCode.Created, text);
        return JsonDocument.Parse(text).RootElement.GetProperty("Key").GetString()!;
    }

    public async ValueTask DisposeAsync()
    {
        Admin.Dispose();
        await _server.DisposeAsync();
        try
        {
            Directory.Delete(_dataDir, recursive: true);
        }
        catch (DirectoryNotFoundException)
        {
        }
    }
}
