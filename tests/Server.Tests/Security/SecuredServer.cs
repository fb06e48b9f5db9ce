using System.Net.Http.Headers;
using System.Net.Http.Json;
using System.Text.Json;
using Folio.Server.Security;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Security;

/// <summary>
/// A real server on 127.0.0.1 with <c>Security:Authentication=Required</c>, whose first admin key is made on its data
/// directory before it starts, as an operator does with the command line. Disposing it deletes the directory.
/// </summary>
public sealed class SecuredServer : IAsyncDisposable
{
    private SecuredServer(RunningServer running, string adminKey)
    {
        Running = running;
        AdminKey = adminKey;
        Admin = ClientWith(adminKey);
    }

    /// <summary>Serializes bodies with the property names as written, as Folio reads them (the web defaults would camel-case them).</summary>
    public static JsonSerializerOptions Pascal { get; } = new();

    public RunningServer Running { get; }

    /// <summary>The first admin key, made before the start.</summary>
    public string AdminKey { get; }

    /// <summary>A client sending the admin key.</summary>
    public HttpClient Admin { get; }

    /// <summary>A client sending no credentials.</summary>
    public HttpClient Anonymous => Running.Client;

    public static async Task<SecuredServer> StartAsync(params string[] extraArgs)
    {
        string dataDir = RunningServer.NewDataDir();
        var store = new CredentialStore(CredentialFile.PathIn(dataDir));
        (_, string key) = store.CreateKey("first-admin", Clearance.Admin, [Credential.AllDatabases]);
        try
        {
            RunningServer running = await RunningServer.StartOnAsync(dataDir, ["--Security:Authentication=Required", .. extraArgs]);
            return new SecuredServer(running, key);
        }
        catch
        {
            RunningServer.DeleteDirectory(dataDir);
            throw;
        }
    }

    /// <summary>A client that sends <c>Authorization: ApiKey {key}</c>.</summary>
    public HttpClient ClientWith(string key)
    {
        HttpClient client = RunningServer.CreateClient(Running.Server.Address);
        client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue(ApiKeys.Scheme, key);
        return client;
    }

    /// <summary>Creates a key through the admin endpoint and answers its text.</summary>
    public async Task<string> CreateKeyAsync(string name, string clearance, params string[] databases)
    {
        object body = databases.Length == 0 ? new { Name = name, Clearance = clearance } : new { Name = name, Clearance = clearance, Databases = databases };
        using HttpResponseMessage response = await Admin.PostAsJsonAsync("/admin/api-keys", body, SecuredServer.Pascal);
        string text = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == System.Net.HttpStatusCode.Created, text);
        return JsonDocument.Parse(text).RootElement.GetProperty("Key").GetString()!;
    }

    public async ValueTask DisposeAsync()
    {
        Admin.Dispose();
        await Running.StopAsync();
        RunningServer.DeleteDirectory(Running.DataDir);
    }
}
