using System.Net;
using System.Net.Http.Json;
using System.Net.WebSockets;
using System.Text.Json;
using Folio.Server.Http;
using Folio.Server.Security;
using Folio.Server.Tests.Support;
using Serilog.Events;

namespace Folio.Server.Tests.Security;

/// <summary>API keys over HTTP, WebSocket and TCP against a real server that requires authentication.</summary>
public sealed class AuthenticationTests
{
    [Fact]
    public async Task Request_Answers401WithChallenge_WithoutCredentials()
    {
        await using SecuredServer server = await SecuredServer.StartAsync();

        using HttpResponseMessage response = await server.Anonymous.GetAsync("/databases");

        await ProblemAssert.IsProblemAsync(response, HttpStatusCode.Unauthorized, ProblemTypes.Unauthorized);
        Assert.Equal("ApiKey", Assert.Single(response.Headers.WwwAuthenticate).Scheme);
        using HttpResponseMessage health = await server.Anonymous.GetAsync("/healthz");
        Assert.Equal(HttpStatusCode.OK, health.StatusCode);
    }

    [Fact]
    public async Task Request_Answers403_WhenTheClearanceIsTooLow()
    {
        await using SecuredServer server = await SecuredServer.StartAsync();
        string db = await FolioApi.CreateDatabaseAsync(server.Admin);
        using HttpClient reader = server.ClientWith(await server.CreateKeyAsync("reader", "Read", db));

        using HttpResponseMessage write = await FolioApi.PutAsync(reader, db, "users/1", """{"Name":"Ann"}""");
        using HttpResponseMessage read = await reader.GetAsync(FolioApi.DocsUri(db, "users/1"));
        using HttpResponseMessage admin = await reader.PutAsJsonAsync("/admin/databases", new { Name = FolioApi.NewDatabaseName() }, SecuredServer.Pascal);

        JsonElement problem = await ProblemAssert.IsProblemAsync(write, HttpStatusCode.Forbidden, ProblemTypes.Forbidden);
        Assert.Contains("reader", problem.GetProperty("detail").GetString(), StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.NotFound, read.StatusCode);
        await ProblemAssert.IsProblemAsync(admin, HttpStatusCode.Forbidden, ProblemTypes.Forbidden);
        Assert.Equal(0, (await FolioApi.StatsAsync(server.Admin, db)).CountOfDocuments);
    }

    [Fact]
    public async Task DatabaseList_ShowsOnlyTheCallersDatabases()
    {
        await using SecuredServer server = await SecuredServer.StartAsync();
        string mine = await FolioApi.CreateDatabaseAsync(server.Admin);
        string theirs = await FolioApi.CreateDatabaseAsync(server.Admin);
        using HttpClient reader = server.ClientWith(await server.CreateKeyAsync("reader", "Read", mine));

        JsonElement list = await FolioApi.GetJsonAsync(reader, "/databases");
        JsonElement all = await FolioApi.GetJsonAsync(server.Admin, "/databases");

        Assert.Equal([mine], list.GetProperty("Databases").EnumerateArray().Select(d => d.GetProperty("Name").GetString()));
        Assert.Contains(all.GetProperty("Databases").EnumerateArray(), d => d.GetProperty("Name").GetString() == theirs);
    }

    [Fact]
    public async Task RevokedKey_IsRefused_FromTheNextRequest()
    {
        await using SecuredServer server = await SecuredServer.StartAsync();
        string key = await server.CreateKeyAsync("temporary", "Admin");
        using HttpClient client = server.ClientWith(key);
        Assert.Equal(HttpStatusCode.OK, (await client.GetAsync("/admin/stats")).StatusCode);

        using HttpResponseMessage revoked = await server.Admin.DeleteAsync("/admin/api-keys?name=temporary");
        using HttpResponseMessage after = await client.GetAsync("/admin/stats");

        Assert.Equal(HttpStatusCode.NoContent, revoked.StatusCode);
        await ProblemAssert.IsProblemAsync(after, HttpStatusCode.Unauthorized, ProblemTypes.Unauthorized);
    }

    [Fact]
    public async Task BadCredentials_AreLoggedWithoutTheSecret_AndLimitedPerClient()
    {
        await using SecuredServer server = await SecuredServer.StartAsync("--Security:MaxFailedAttemptsPerMinute=3");
        string wrong = server.AdminKey[..^4] + "AAAA";
        using HttpClient guesser = server.ClientWith(wrong);

        var statuses = new List<HttpStatusCode>();
        for (int i = 0; i < 4; i++)
        {
            using HttpResponseMessage response = await guesser.GetAsync("/admin/stats");
            statuses.Add(response.StatusCode);
            if (response.StatusCode == HttpStatusCode.TooManyRequests)
                Assert.NotNull(response.Headers.RetryAfter);
        }

        using HttpResponseMessage rightKeyNow = await server.Admin.GetAsync("/admin/stats");

        Assert.Equal([HttpStatusCode.Unauthorized, HttpStatusCode.Unauthorized, HttpStatusCode.Unauthorized, HttpStatusCode.TooManyRequests], statuses);
        await ProblemAssert.IsProblemAsync(rightKeyNow, HttpStatusCode.TooManyRequests, ProblemTypes.TooManyAttempts);
        LogEvent failed = server.Running.Log.Events.First(e => e.MessageTemplate.Text.StartsWith("Authentication failed", StringComparison.Ordinal));
        Assert.Equal("127.0.0.1", CapturingSink.Scalar(failed, "ClientAddress"));
        Assert.Equal(wrong.Split('.')[1], CapturingSink.Scalar(failed, "CredentialId"));
        string secret = wrong.Split('.')[2];
        Assert.DoesNotContain(server.Running.Log.Events, e => e.RenderMessage().Contains(secret, StringComparison.Ordinal) || e.Properties.Values.Any(p => p.ToString().Contains(secret, StringComparison.Ordinal)));
    }

    [Fact]
    public async Task ChangesWebSocket_NeedsAKeyWithRead()
    {
        await using SecuredServer server = await SecuredServer.StartAsync();
        string db = await FolioApi.CreateDatabaseAsync(server.Admin);
        string key = await server.CreateKeyAsync("reader", "Read", db);
        var uri = new Uri($"ws://{server.Running.Server.Address.Authority}/databases/{db}/changes");

        using var anonymous = new ClientWebSocket();
        anonymous.Options.CollectHttpResponseDetails = true;
        await Assert.ThrowsAsync<WebSocketException>(() => anonymous.ConnectAsync(uri, CancellationToken.None).WaitAsync(TestTimeouts.Default));
        using var reader = new ClientWebSocket();
        reader.Options.SetRequestHeader("Authorization", "ApiKey " + key);
        await reader.ConnectAsync(uri, CancellationToken.None).WaitAsync(TestTimeouts.Default);

        Assert.Equal(HttpStatusCode.Unauthorized, anonymous.HttpStatusCode);
        Assert.Equal(WebSocketState.Open, reader.State);
        await reader.CloseAsync(WebSocketCloseStatus.NormalClosure, null, CancellationToken.None).WaitAsync(TestTimeouts.Default);
    }

    [Fact]
    public async Task SubscriptionSession_NeedsAKeyWithRead_InItsHeader()
    {
        await using SecuredServer server = await SecuredServer.StartAsync();
        string db = await FolioApi.CreateDatabaseAsync(server.Admin);
        string other = await FolioApi.CreateDatabaseAsync(server.Admin);
        using HttpResponseMessage created = await server.Admin.PutAsJsonAsync($"/databases/{db}/subscriptions", new { Name = "all", Query = "from Users" }, SecuredServer.Pascal);
        Assert.Equal(HttpStatusCode.Created, created.StatusCode);
        string reader = await server.CreateKeyAsync("reader", "Read", db);
        string stranger = await server.CreateKeyAsync("stranger", "ReadWrite", other);

        string Header(string? key) => JsonSerializer.Serialize(new { Database = db, Subscription = "all", ApiKey = key });
        using SubscriptionClient none = await SubscriptionClient.ConnectAsync(server.Running.Server.TcpEndPoint, SubscriptionClient.Header(db, "all"));
        using SubscriptionClient wrong = await SubscriptionClient.ConnectAsync(server.Running.Server.TcpEndPoint, Header(stranger));
        using SubscriptionClient right = await SubscriptionClient.ConnectAsync(server.Running.Server.TcpEndPoint, Header(reader));

        Assert.Equal("Unauthorized", (await none.ExpectAsync("Error")).GetProperty("Code").GetString());
        Assert.Equal("Forbidden", (await wrong.ExpectAsync("Error")).GetProperty("Code").GetString());
        await right.ExpectAsync("Connected");
    }

    [Fact]
    public async Task CommandLineKey_IsAccepted_ByTheRunningServer()
    {
        await using SecuredServer server = await SecuredServer.StartAsync();
        var output = new StringWriter();
        var error = new StringWriter();

        int exit = CredentialsCommand.Run(["api-keys", "create", "--Name=ops", "--Clearance=Admin", "--DataDir=" + server.Running.DataDir], output, error);
        string key = output.ToString().Trim();
        using HttpClient client = server.ClientWith(key);
        HttpStatusCode status = HttpStatusCode.Unauthorized;
        using var deadline = new CancellationTokenSource(TestTimeouts.Default);
        // The server looks at the credentials file at most once a second.
        while (status == HttpStatusCode.Unauthorized && !deadline.IsCancellationRequested)
        {
            using HttpResponseMessage response = await client.GetAsync("/admin/api-keys", deadline.Token);
            status = response.StatusCode;
            if (status == HttpStatusCode.Unauthorized)
                await Task.Delay(200, deadline.Token);
        }

        Assert.Equal(0, exit);
        Assert.StartsWith(ApiKeys.Prefix, key, StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.OK, status);
        Assert.Equal(1, CredentialsCommand.Run(["api-keys", "create", "--Name=ops", "--Clearance=Admin", "--DataDir=" + server.Running.DataDir], output, error));
        Assert.Equal(2, CredentialsCommand.Run(["api-keys", "create", "--Name=x", "--Clearance=Read", "--DataDir=" + server.Running.DataDir], output, error));
        Assert.DoesNotContain(key.Split('.')[2], await File.ReadAllTextAsync(CredentialFile.PathIn(server.Running.DataDir)), StringComparison.Ordinal);
    }
}
