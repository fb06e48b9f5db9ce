using System.Text.Encodings.Web;
using System.Text.Json;
using System.Text.Json.Nodes;
using System.Text.RegularExpressions;
using Folio.Server.Routing;

namespace Folio.Server.Wire;

/// <summary>
/// Builds the served OpenAPI document from the route table: one operation per declared route (a HEAD only where the
/// descriptions give one and GET is declared, since the router answers HEAD with GET), each with its declared
/// <c>x-folio-access</c>, its path parameters and the refusals that access can give (401 and 429, and 403 where a
/// clearance is checked). The text of each operation (summary, bodies, answers) comes from the hand-written
/// descriptions in <c>Wire/openapi.json</c>; a route they do not describe still appears, marked as such.
/// </summary>
internal static partial class OpenApiGenerator
{
    private static readonly string[] s_methods = ["get", "put", "post", "delete", "head", "patch", "options"];
    // Served as application/json only, never inside HTML, so '<', '>' and '&' in descriptions stay readable.
    private static readonly JsonSerializerOptions s_indented = new() { WriteIndented = true, Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping };

    /// <summary>The document for these routes.</summary>
    /// <param name="routes">The router's declarations.</param>
    /// <param name="descriptions">The hand-written document (UTF-8 JSON).</param>
    /// <returns>The document's UTF-8 bytes, indented.</returns>
    public static byte[] Generate(IReadOnlyList<RouteDeclaration> routes, ReadOnlySpan<byte> descriptions)
    {
        JsonObject document = JsonNode.Parse(descriptions)!.AsObject();
        JsonObject described = document["paths"]!.AsObject();
        JsonObject parameters = document["components"]?["parameters"]?.AsObject() ?? [];
        var paths = new JsonObject();
        foreach (string template in Templates(routes, described))
        {
            JsonObject? describedItem = described[template] as JsonObject;
            var item = new JsonObject();
            foreach (var (key, value) in describedItem ?? [])
            {
                if (Array.IndexOf(s_methods, key) < 0)
                    item[key] = value?.DeepClone();
            }

            foreach (string method in s_methods)
            {
                RouteDeclaration? route = Find(routes, template, method);
                JsonObject? operation = describedItem?[method] as JsonObject;
                // The router answers HEAD with GET's handler: a described HEAD stays while GET is declared.
                if (route is null && method == "head" && operation is not null)
                    route = Find(routes, template, "get");
                if (route is null)
                    continue;
                item[method] = Complete(operation?.DeepClone().AsObject() ?? Undescribed(route), route, item, parameters);
            }

            paths[template] = item;
        }

        document["paths"] = paths;
        return JsonSerializer.SerializeToUtf8Bytes(document, s_indented);
    }

    /// <summary>The templates in the descriptions' order, then any they do not describe, in the route table's order.</summary>
    private static List<string> Templates(IReadOnlyList<RouteDeclaration> routes, JsonObject described)
    {
        var declared = new HashSet<string>(StringComparer.Ordinal);
        foreach (RouteDeclaration route in routes)
            declared.Add(route.Template);
        var templates = new List<string>();
        foreach (var (template, _) in described)
        {
            if (declared.Remove(template))
                templates.Add(template);
        }

        foreach (RouteDeclaration route in routes)
        {
            if (declared.Remove(route.Template))
                templates.Add(route.Template);
        }

        return templates;
    }

    private static RouteDeclaration? Find(IReadOnlyList<RouteDeclaration> routes, string template, string method)
    {
        foreach (RouteDeclaration route in routes)
        {
            if (route.Template == template && string.Equals(route.Method, method, StringComparison.OrdinalIgnoreCase))
                return route;
        }

        return null;
    }

    private static JsonObject Undescribed(RouteDeclaration route) => new()
    {
        ["summary"] = $"Declared by {route.DeclaredBy}; not described in Wire/openapi.json.",
        ["responses"] = new JsonObject { ["200"] = new JsonObject { ["description"] = "Not described." } },
    };

    /// <summary>What the declaration says, over what the description says: access, path parameters, refusals.</summary>
    private static JsonObject Complete(JsonObject operation, RouteDeclaration route, JsonObject item, JsonObject componentParameters)
    {
        operation["x-folio-access"] = route.Access.ToString();
        if (route.Access == RouteAccess.Public)
            operation["security"] = new JsonArray();

        foreach (Match parameter in PathParameter().Matches(route.Template))
        {
            string name = parameter.Groups[1].Value;
            if (DeclaresPathParameter(item["parameters"], name, componentParameters) || DeclaresPathParameter(operation["parameters"], name, componentParameters))
                continue;
            if (operation["parameters"] is not JsonArray list)
                operation["parameters"] = list = [];
            list.Add(new JsonObject { ["name"] = name, ["in"] = "path", ["required"] = true, ["schema"] = new JsonObject { ["type"] = "string" } });
        }

        JsonObject responses = operation["responses"] as JsonObject ?? [];
        operation["responses"] = responses;
        if (route.Access != RouteAccess.Public)
        {
            responses["401"] ??= Reference("Unauthorized");
            if (route.Access != RouteAccess.Authenticated)
                responses["403"] ??= Reference("Forbidden");
            responses["429"] ??= Reference("TooManyAttempts");
        }

        return operation;
    }

    private static JsonObject Reference(string response) => new() { ["$ref"] = "#/components/responses/" + response };

    private static bool DeclaresPathParameter(JsonNode? parameters, string name, JsonObject componentParameters)
    {
        if (parameters is not JsonArray list)
            return false;
        foreach (JsonNode? entry in list)
        {
            JsonNode? parameter = entry?["$ref"]?.GetValue<string>() is { } reference && reference.StartsWith("#/components/parameters/", StringComparison.Ordinal)
                ? componentParameters[reference["#/components/parameters/".Length..]]
                : entry;
            if (parameter?["in"]?.GetValue<string>() == "path" && parameter["name"]?.GetValue<string>() == name)
                return true;
        }

        return false;
    }

    [GeneratedRegex(@"\{\*?([A-Za-z][A-Za-z0-9_]*)\}")]
    private static partial Regex PathParameter();
}
