using System.Net;
using Folio.Server.Routing;
using Folio.Server.Tests.Support;
using Folio.Server.Tests.Wire;

namespace Folio.Server.Tests.Security;

/// <summary>
/// Every route the server registers, built-in or added, against every clearance: 401 without credentials, 403 with
/// too little clearance, served otherwise. Routes are classified by their own declaration, so a route added on
/// another branch is covered as soon as it is registered.
/// </summary>
public sealed class RouteClearanceTests
{
    private const string Fix = "add Access = RouteAccess.Public, Authenticated, DatabaseRead, DatabaseWrite or Admin to its [FolioRoute(...)] (or pass access to RouteTableBuilder.Add)";

    [Fact]
    public async Task EveryRoute_DeclaresItsAccess()
    {
        await using SecuredServer server = await SecuredServer.StartAsync();
        var unclassified = server.Running.Server.Router.Routes.Where(r => r.Access == RouteAccess.Unclassified)
            .Select(r => $"{r.Method} {r.Template} (declared by {r.DeclaredBy})")
            .ToList();

        Assert.True(unclassified.Count == 0, $"Routes without a declared access (served to admins only until fixed); for each, {Fix}:{Environment.NewLine}{string.Join(Environment.NewLine, unclassified)}");
    }

    [Fact]
    public async Task EveryRoute_RefusesOrServes_AsItsAccessAndTheCallersClearanceSay()
    {
        await using SecuredServer server = await SecuredServer.StartAsync();
        string db = await FolioApi.CreateDatabaseAsync(server.Admin);
        string other = await FolioApi.CreateDatabaseAsync(server.Admin);
        var callers = new (string Name, HttpClient Client, Func<RouteAccess, bool> Allowed)[]
        {
            ("Admin", server.Admin, _ => true),
            ("ReadWrite on the database", server.ClientWith(await server.CreateKeyAsync("rw", "ReadWrite", db)), a => a is not (RouteAccess.Admin or RouteAccess.Unclassified)),
            ("Read on the database", server.ClientWith(await server.CreateKeyAsync("r", "Read", db)), a => a is RouteAccess.Public or RouteAccess.Authenticated or RouteAccess.DatabaseRead),
            ("ReadWrite on another database", server.ClientWith(await server.CreateKeyAsync("rw-other", "ReadWrite", other)), a => a is RouteAccess.Public or RouteAccess.Authenticated),
        };

        var failures = new List<string>();
        try
        {
            foreach (RouteDeclaration route in server.Running.Server.Router.Routes)
            {
                if (route.Access == RouteAccess.Unclassified)
                {
                    failures.Add($"{route.Method} {route.Template} (declared by {route.DeclaredBy}) declares no access: {Fix}.");
                    continue;
                }

                string uri = Concrete(route.Template, db);
                (int anonymous, string? challenge) = await SendAsync(server.Anonymous, route.Method, uri);
                if (route.Access == RouteAccess.Public ? anonymous is 401 or 403 : anonymous != 401 || challenge != "ApiKey")
                    failures.Add($"{route.Method} {uri} ({route.Access}) without credentials answered {anonymous} (WWW-Authenticate: {challenge}).");
                RequireDocumented(route, anonymous, failures);

                foreach (var (name, client, allowed) in callers)
                {
                    (int status, _) = await SendAsync(client, route.Method, uri);
                    bool expectedAllowed = allowed(route.Access);
                    if (expectedAllowed ? status is 401 or 403 : status != 403)
                        failures.Add($"{route.Method} {uri} ({route.Access}) with {name} answered {status}; expected {(expectedAllowed ? "to be served" : "403")}.");
                    RequireDocumented(route, status, failures);
                }
            }
        }
        finally
        {
            // The test handlers' gate holds its requests until opened.
            server.Running.Handlers.OpenGate();
            foreach (var (_, client, _) in callers[1..])
                client.Dispose();
        }

        Assert.True(failures.Count == 0, string.Join(Environment.NewLine, failures));
        Assert.True(server.Running.Server.Router.Routes.Count > 40, "The route table looks empty.");
    }

    /// <summary>A refusal the server gave must be one the wire contract lists for the operation (test-only routes are not in it).</summary>
    private static void RequireDocumented(RouteDeclaration route, int status, List<string> failures)
    {
        if (status is not (401 or 403 or 429) || WireContract.Embedded.Operation(route.Method, route.Template) is null)
            return;
        if (WireContract.Embedded.Response(route.Method, route.Template, status) is null)
            failures.Add($"{route.Method} {route.Template} answered {status}, which src/Server/Wire/openapi.json does not list for it.");
    }

    /// <summary>A path the template matches, on the given database; catch-alls match nothing after their prefix.</summary>
    private static string Concrete(string template, string db) =>
        System.Text.RegularExpressions.Regex.Replace(template.Replace("{db}", db, StringComparison.Ordinal), @"/\{\*[^}]+\}|\{[^}]+\}", m => m.Value.StartsWith("/{*", StringComparison.Ordinal) ? string.Empty : "x");

    /// <summary>
    /// The status, or 200 when no answer began within two seconds: refusals are immediate, while some served routes
    /// (feeds, the test gate) hold their request open; 0 when the server cut the connection after serving.
    /// </summary>
    private static async Task<(int Status, string? Challenge)> SendAsync(HttpClient client, string method, string uri)
    {
        using var request = new HttpRequestMessage(new HttpMethod(method), uri);
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(2));
        try
        {
            using HttpResponseMessage response = await client.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, timeout.Token);
            return ((int)response.StatusCode, response.Headers.WwwAuthenticate.FirstOrDefault()?.Scheme);
        }
        catch (OperationCanceledException) when (timeout.IsCancellationRequested)
        {
            return ((int)HttpStatusCode.OK, null);
        }
        catch (HttpRequestException)
        {
            // Served, then cut (a test route fails halfway through its answer on purpose): neither refusal.
            return (0, null);
        }
    }
}
