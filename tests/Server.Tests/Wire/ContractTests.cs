using System.Net;
using System.Reflection;
using System.Text.Json;
using System.Text.Json.Nodes;
using System.Text.RegularExpressions;
using Folio.Server.Hosting;
using Folio.Server.Http;
using Folio.Server.Routing;
using Folio.Server.Tests.Support;
using Folio.Server.Wire;

namespace Folio.Server.Tests.Wire;

/// <summary>The wire contract against the route table, the problem types and itself.</summary>
public sealed partial class ContractTests : IClassFixture<ServerFixture>
{
    private readonly ServerFixture _fixture;

    public ContractTests(ServerFixture fixture)
    {
        _fixture = fixture;
    }

    private static WireContract Contract => WireContract.Embedded;

    [Fact]
    public void Document_ListsEveryRegisteredRoute_AndNoOtherOperation()
    {
        var registered = new SortedSet<string>(StringComparer.Ordinal);
        foreach (Type handler in FolioServer.BuiltInHandlers)
        {
            // As RouteTableBuilder.AddHandler reads them.
            foreach (MethodInfo method in handler.GetMethods(BindingFlags.Public | BindingFlags.Instance | BindingFlags.DeclaredOnly))
            {
                foreach (FolioRouteAttribute route in method.GetCustomAttributes<FolioRouteAttribute>())
                    registered.Add($"{route.Method} {route.Template}");
            }
        }

        var documented = new SortedSet<string>(StringComparer.Ordinal);
        foreach (WireOperation operation in Contract.Operations)
        {
            // The router answers HEAD with the GET handler of a path that declares no HEAD of its own.
            if (operation.Method == "HEAD" && !registered.Contains(operation.Key))
            {
                Assert.True(registered.Contains("GET " + operation.Path), $"{operation.Key} is documented, but neither it nor GET {operation.Path} is routed.");
                continue;
            }

            documented.Add(operation.Key);
        }

        Assert.Equal(registered, documented);
    }

    [Fact]
    public void Document_GivesEveryOperation_TheAccessItsRouteDeclares()
    {
        foreach (RouteDeclaration route in _fixture.Running.Server.Router.Routes)
        {
            JsonObject? operation = Contract.Operation(route.Method, route.Template);
            if (operation is null)
                continue;
            Assert.True(
                operation["x-folio-access"]?.GetValue<string>() == route.Access.ToString(),
                $"{route.Method} {route.Template} is documented with x-folio-access '{operation["x-folio-access"]}' but declares {route.Access} ({route.DeclaredBy}).");
        }
    }

    [Fact]
    public void Document_ListsTheRefusals_OfEveryOperationThatNeedsCredentials()
    {
        var failures = new List<string>();
        foreach (RouteDeclaration route in _fixture.Running.Server.Router.Routes)
        {
            if (Contract.Operation(route.Method, route.Template) is null)
                continue;
            // Any valid credential passes an Authenticated route, so only clearance-checked ones can answer 403.
            bool needsCredentials = route.Access != RouteAccess.Public;
            bool checksClearance = route.Access is RouteAccess.DatabaseRead or RouteAccess.DatabaseWrite or RouteAccess.Admin or RouteAccess.Unclassified;
            foreach (var (status, expected) in new[] { (401, needsCredentials), (403, checksClearance), (429, needsCredentials) })
            {
                if ((Contract.Response(route.Method, route.Template, status) is not null) != expected)
                    failures.Add($"{route.Method} {route.Template} ({route.Access}) {(expected ? "does not list" : "lists")} {status}.");
            }
        }

        Assert.True(failures.Count == 0, string.Join(Environment.NewLine, failures));
    }

    [Fact]
    public async Task Document_RoutesEveryOperation_WhenSentToTheServer()
    {
        HttpClient client = _fixture.Client;
        string db = await FolioApi.CreateDatabaseAsync(client);
        foreach (WireOperation operation in Contract.Operations)
        {
            // Without parameters or a body most operations answer 400; what matters is that none is left to the router's 404 or 405.
            string uri = operation.Path.Replace("{db}", db, StringComparison.Ordinal);
            using var request = new HttpRequestMessage(new HttpMethod(operation.Method), uri);
            using HttpResponseMessage response = await client.SendAsync(request);
            string body = await response.Content.ReadAsStringAsync();
            Assert.True(response.StatusCode != HttpStatusCode.MethodNotAllowed, $"{operation.Key} answered 405: {body}");
            bool routeMissing = response.Content.Headers.ContentType?.MediaType == ProblemWriter.ContentType
                && JsonDocument.Parse(body).RootElement.GetProperty("type").GetString() == ProblemTypes.RouteNotFound;
            Assert.False(routeMissing, $"{operation.Key} is not routed: {body}");
            Assert.True(operation.Method != "HEAD" || response.StatusCode != HttpStatusCode.NotFound, $"{operation.Key} answered 404 on an existing database.");
        }
    }

    [Fact]
    public void Document_NamesEveryProblemType_ThatProblemTypesDeclares()
    {
        var declared = typeof(ProblemTypes).GetFields(BindingFlags.Public | BindingFlags.Static)
            .Where(f => f.IsLiteral)
            .Select(f => (string)f.GetRawConstantValue()!)
            .Order(StringComparer.Ordinal);
        var documented = Contract.Document["components"]!["schemas"]!["Problem"]!["properties"]!["type"]!["enum"]!.AsArray()
            .Select(t => t!.GetValue<string>())
            .Order(StringComparer.Ordinal);

        Assert.Equal(declared, documented);
    }

    [Fact]
    public void Document_ResolvesEveryReference_AndDeclaresEveryPathParameter()
    {
        var references = new List<string>();
        Collect(Contract.Document, references);
        Assert.NotEmpty(references);
        foreach (string reference in references)
            Assert.True(Contract.Pointer(reference) is not null, $"The reference '{reference}' does not resolve.");

        foreach (var (path, item) in Contract.Document["paths"]!.AsObject())
        {
            foreach (Match parameter in TemplateParameter().Matches(path))
            {
                string name = parameter.Groups[1].Value;
                bool declared = (item!["parameters"]?.AsArray() ?? [])
                    .Select(p => Contract.Resolve(p!))
                    .Any(p => p["in"]?.GetValue<string>() == "path" && p["name"]?.GetValue<string>() == name && p["required"]?.GetValue<bool>() == true);
                Assert.True(declared, $"{path} does not declare its path parameter '{name}'.");
            }
        }
    }

    [Fact]
    public void Document_BuildsEveryComponentSchema_AndRefusesWhatItShould()
    {
        // Every component compiles; a few refusals show the validator is not vacuous.
        foreach (var (name, _) in Contract.Document["components"]!["schemas"]!.AsObject())
            Contract.ValidateComponent(name, JsonSerializer.SerializeToElement(new { }));

        Assert.Empty(Contract.ValidateComponent("FacetValue", Json("""{"Range":"a","Count":1,"Sum":3.5}""")));
        Assert.NotEmpty(Contract.ValidateComponent("FacetValue", Json("""{"Range":"a"}""")));
        Assert.Empty(Contract.ValidateComponent("FacetValue", Json("""{"Range":null,"Count":1,"Name":"Price","Sum":0,"Min":null}""")));
        Assert.NotEmpty(Contract.ValidateComponent("FacetResult", Json("""{"Name":"Brand","Values":[]}""")));
        Assert.NotEmpty(Contract.ValidateComponent("Problem", Json("""{"type":"urn:folio:problem:nope","title":"t","status":400}""")));
        Assert.NotEmpty(Contract.ValidateComponent("Document", Json("""{"Name":"no metadata"}""")));
        Assert.NotEmpty(Contract.ValidateComponent("Metadata", Json("""{"@collection":"a","@id":"a/1","@change-vector":"A:1-x","@last-modified":"yesterday"}""")));
        Assert.NotEmpty(Contract.ValidateComponent("DatabaseStats", Json("""{"CountOfDocuments":1}""")));
    }

    [Fact]
    public async Task Get_ServesTheGeneratedDocument_WithExactlyTheDeclaredRoutesAndTheirDescriptions()
    {
        var wire = new WireClient(_fixture.Client, Contract);
        IReadOnlyList<RouteDeclaration> routes = _fixture.Running.Server.Router.Routes;

        WireAnswer answer = await wire.GetAsync("/openapi/v1.json", "/openapi/v1.json");

        Assert.Equal(200, answer.Status);
        Assert.StartsWith("application/json", answer.Header("Content-Type"), StringComparison.Ordinal);
        Assert.Equal("3.1.0", answer.Body.GetProperty("openapi").GetString());
        var declared = routes.Select(r => $"{r.Method} {r.Template}").ToHashSet(StringComparer.Ordinal);
        var served = new HashSet<string>(StringComparer.Ordinal);
        foreach (JsonProperty path in answer.Body.GetProperty("paths").EnumerateObject())
        {
            foreach (JsonProperty operation in path.Value.EnumerateObject().Where(p => p.Name is "get" or "put" or "post" or "delete" or "head" or "patch" or "options"))
            {
                string key = $"{operation.Name.ToUpperInvariant()} {path.Name}";
                // The router answers HEAD with GET's handler.
                if (operation.Name == "head" && !declared.Contains(key))
                    Assert.Contains("GET " + path.Name, declared);
                else
                    served.Add(key);
                RouteDeclaration route = routes.Single(r => r.Template == path.Name && r.Method == (operation.Name == "head" && !declared.Contains(key) ? "GET" : operation.Name.ToUpperInvariant()));
                Assert.Equal(route.Access.ToString(), operation.Value.GetProperty("x-folio-access").GetString());
                if (Contract.Operation(operation.Name.ToUpperInvariant(), path.Name) is { } described)
                {
                    Assert.Equal(described["summary"]?.GetValue<string>(), operation.Value.GetProperty("summary").GetString());
                    foreach (var (status, _) in described["responses"]!.AsObject())
                        Assert.True(operation.Value.GetProperty("responses").TryGetProperty(status, out _), $"{key} lost its described answer {status}.");
                }
            }
        }

        Assert.Equal(declared.Order(StringComparer.Ordinal), served.Order(StringComparer.Ordinal));
    }

    [Fact]
    public void Generate_DescribesARouteFromItsDeclaration_AndLeavesOutOperationsNoRouteDeclares()
    {
        RouteDeclaration[] routes =
        [
            new("GET", "/databases/{db}/docs", RouteAccess.DatabaseRead, "DocumentsHandler"),
            new("POST", "/databases/{db}/widgets/{name}", RouteAccess.DatabaseWrite, "WidgetsHandler"),
            new("GET", "/healthz", RouteAccess.Public, "HealthHandler"),
        ];

        JsonObject paths = JsonNode.Parse(OpenApiGenerator.Generate(routes, OpenApiHandler.Descriptions.Span))!["paths"]!.AsObject();

        Assert.Equal(["/healthz", "/databases/{db}/docs", "/databases/{db}/widgets/{name}"], paths.Select(p => p.Key));
        Assert.Null(paths["/databases/{db}/docs"]!["put"]);
        string summary = Contract.Operation("GET", "/databases/{db}/docs")!["summary"]!.GetValue<string>();
        Assert.Equal(summary, paths["/databases/{db}/docs"]!["get"]!["summary"]!.GetValue<string>());
        JsonObject widgets = paths["/databases/{db}/widgets/{name}"]!["post"]!.AsObject();
        Assert.Equal("DatabaseWrite", widgets["x-folio-access"]!.GetValue<string>());
        Assert.Contains("WidgetsHandler", widgets["summary"]!.GetValue<string>(), StringComparison.Ordinal);
        Assert.Equal(["db", "name"], widgets["parameters"]!.AsArray().Select(p => p!["name"]!.GetValue<string>()));
        Assert.Equal(["200", "401", "403", "429"], widgets["responses"]!.AsObject().Select(r => r.Key));
        JsonObject health = paths["/healthz"]!["get"]!.AsObject();
        Assert.Empty(health["security"]!.AsArray());
        Assert.Null(health["responses"]!["401"]);
    }

    [Fact]
    public void Exercises_NameEveryDocumentedOperation_AcrossTheConformanceTests()
    {
        var exercised = typeof(ContractTests).Assembly.GetTypes()
            .SelectMany(t => t.GetMethods())
            .SelectMany(m => m.GetCustomAttribute<ExercisesAttribute>()?.Operations ?? [])
            .ToHashSet(StringComparer.Ordinal);
        var documented = Contract.Operations.Select(o => o.Key).ToHashSet(StringComparer.Ordinal);

        Assert.Empty(documented.Except(exercised));
        Assert.Empty(exercised.Except(documented));
    }

    private static JsonElement Json(string text) => JsonDocument.Parse(text).RootElement.Clone();

    private static void Collect(JsonNode? node, List<string> references)
    {
        switch (node)
        {
            case JsonObject obj:
                foreach (var (key, child) in obj)
                {
                    if (key == "$ref")
                        references.Add(child!.GetValue<string>());
                    else
                        Collect(child, references);
                }

                break;
            case JsonArray array:
                foreach (JsonNode? item in array)
                    Collect(item, references);
                break;
        }
    }

    [GeneratedRegex(@"\{([A-Za-z][A-Za-z0-9_]*)\}")]
    private static partial Regex TemplateParameter();
}
