using System.Collections.Concurrent;
using System.Text.Json;
using System.Text.Json.Nodes;
using Folio.Server.Wire;
using Json.Schema;

namespace Folio.Server.Tests.Wire;

/// <summary>One operation of the wire contract: a method on a path template and the statuses it documents.</summary>
public sealed record WireOperation(string Method, string Path, IReadOnlyList<int> Statuses)
{
    /// <summary>As the tests name operations: <c>GET /databases/{db}/docs</c>.</summary>
    public string Key => $"{Method} {Path}";
}

/// <summary>
/// The OpenAPI document the server embeds, read for tests: its operations, its responses, and validators
/// for the schemas they give. OpenAPI 3.1 schemas are JSON Schema 2020-12, so a schema from the document
/// is validated as a 2020-12 schema whose <c>$defs</c> are the components' schemas, with
/// <c>#/components/schemas/</c> references pointed at <c>#/$defs/</c>.
/// </summary>
public sealed class WireContract
{
    private const string ComponentsPrefix = "#/components/schemas/";
    private static readonly string[] s_methods = ["get", "put", "post", "delete", "head", "patch", "options"];
    private static int s_built;

    private readonly JsonObject _defs;
    private readonly ConcurrentDictionary<string, JsonSchema> _schemas = new(StringComparer.Ordinal);

    private WireContract(JsonObject document)
    {
        Document = document;
        _defs = (JsonObject)PointRefsAtDefs(document["components"]!["schemas"]!.DeepClone());
        var operations = new List<WireOperation>();
        foreach (var (path, item) in document["paths"]!.AsObject())
        {
            foreach (string method in s_methods)
            {
                if (item![method] is not JsonObject operation)
                    continue;
                var statuses = operation["responses"]!.AsObject().Select(r => int.Parse(r.Key, System.Globalization.CultureInfo.InvariantCulture)).ToList();
                operations.Add(new WireOperation(method.ToUpperInvariant(), path, statuses));
            }
        }

        Operations = operations;
    }

    /// <summary>The contract as the server embeds and serves it.</summary>
    public static WireContract Embedded { get; } = Parse(OpenApiHandler.Descriptions.Span);

    /// <summary>The whole document.</summary>
    public JsonObject Document { get; }

    /// <summary>Every operation, in document order.</summary>
    public IReadOnlyList<WireOperation> Operations { get; }

    /// <summary>Reads a document.</summary>
    /// <param name="utf8">The document's bytes.</param>
    /// <returns>The contract.</returns>
    public static WireContract Parse(ReadOnlySpan<byte> utf8) => new(JsonNode.Parse(utf8)!.AsObject());

    /// <summary>The operation of a method and path template, or null when the document has none.</summary>
    /// <param name="method">Upper-case HTTP method.</param>
    /// <param name="path">Path template as the document spells it.</param>
    /// <returns>The operation object.</returns>
    public JsonObject? Operation(string method, string path) =>
        Document["paths"]![path]?[method.ToLowerInvariant()] as JsonObject;

    /// <summary>The documented response of an operation for a status, with <c>$ref</c>s followed, or null.</summary>
    /// <param name="method">Upper-case HTTP method.</param>
    /// <param name="path">Path template.</param>
    /// <param name="status">The status answered.</param>
    /// <returns>The response object.</returns>
    public JsonObject? Response(string method, string path, int status) =>
        Operation(method, path)?["responses"]?[status.ToString(System.Globalization.CultureInfo.InvariantCulture)] is JsonNode response
            ? Resolve(response).AsObject()
            : null;

    /// <summary>Follows <c>$ref</c> (a JSON pointer into this document) until the node is not a reference.</summary>
    /// <param name="node">A node of the document.</param>
    /// <returns>The node it refers to.</returns>
    /// <exception cref="InvalidOperationException">The reference does not resolve.</exception>
    public JsonNode Resolve(JsonNode node)
    {
        while (node is JsonObject reference && reference["$ref"]?.GetValue<string>() is { } target)
            node = Pointer(target) ?? throw new InvalidOperationException($"The reference '{target}' does not resolve.");
        return node;
    }

    /// <summary>The node a local reference (<c>#/a/b</c>) points at, or null.</summary>
    /// <param name="reference">The reference.</param>
    /// <returns>The node.</returns>
    public JsonNode? Pointer(string reference)
    {
        if (!reference.StartsWith("#/", StringComparison.Ordinal))
            return null;
        JsonNode? node = Document;
        foreach (string token in reference[2..].Split('/'))
        {
            string name = Uri.UnescapeDataString(token).Replace("~1", "/", StringComparison.Ordinal).Replace("~0", "~", StringComparison.Ordinal);
            node = node switch
            {
                JsonObject obj => obj[name],
                JsonArray array when int.TryParse(name, out int i) && i < array.Count => array[i],
                _ => null,
            };
            if (node is null)
                return null;
        }

        return node;
    }

    /// <summary>Validates a value against a schema of the document (inline, or a <c>$ref</c> to a component).</summary>
    /// <param name="schema">A schema node of the document.</param>
    /// <param name="instance">The value.</param>
    /// <returns>Empty when valid, else one line per failed keyword.</returns>
    public IReadOnlyList<string> Validate(JsonNode schema, JsonElement instance)
    {
        JsonSchema compiled = _schemas.GetOrAdd(schema.ToJsonString(), Build);
        EvaluationResults results = compiled.Evaluate(instance, new EvaluationOptions { OutputFormat = OutputFormat.List, RequireFormatValidation = true });
        if (results.IsValid)
            return [];
        var failures = new List<string>();
        foreach (EvaluationResults detail in results.Details ?? [])
        {
            if (detail.Errors is { Count: > 0 } errors)
                failures.Add($"at '{detail.InstanceLocation}' (schema {detail.EvaluationPath}): {string.Join("; ", errors.Select(e => $"{e.Key}: {e.Value}"))}");
        }

        return failures.Count > 0 ? failures : ["invalid (no detail reported)"];
    }

    /// <summary>Validates a value against a schema of <c>components/schemas</c>.</summary>
    /// <param name="name">The component's name, e.g. <c>BulkInsertCommand</c>.</param>
    /// <param name="instance">The value.</param>
    /// <returns>Empty when valid, else one line per failed keyword.</returns>
    public IReadOnlyList<string> ValidateComponent(string name, JsonElement instance) =>
        Validate(new JsonObject { ["$ref"] = ComponentsPrefix + name }, instance);

    /// <summary>Builds a 2020-12 schema: the document's schema at its root, the components beside it in <c>$defs</c>.</summary>
    private JsonSchema Build(string schemaText)
    {
        JsonNode root = PointRefsAtDefs(JsonNode.Parse(schemaText)!);
        var wrapper = new JsonObject
        {
            ["$schema"] = "https://json-schema.org/draft/2020-12/schema",
            // Every build gets its own id: schemas are registered by id, and two roots must not collide.
            ["$id"] = $"urn:folio:wire:{Interlocked.Increment(ref s_built)}",
            ["$defs"] = _defs.DeepClone(),
            ["allOf"] = new JsonArray(root),
        };
        using JsonDocument parsed = JsonDocument.Parse(wrapper.ToJsonString());
        return JsonSchema.Build(parsed.RootElement.Clone(), new BuildOptions { SchemaRegistry = new SchemaRegistry() });
    }

    /// <summary>Rewrites every <c>#/components/schemas/X</c> reference under <paramref name="node"/> to <c>#/$defs/X</c>.</summary>
    private static JsonNode PointRefsAtDefs(JsonNode node)
    {
        switch (node)
        {
            case JsonObject obj:
                foreach (string key in obj.Select(p => p.Key).ToList())
                {
                    if (key == "$ref" && obj[key]!.GetValue<string>() is { } target && target.StartsWith(ComponentsPrefix, StringComparison.Ordinal))
                        obj[key] = "#/$defs/" + target[ComponentsPrefix.Length..];
                    else if (obj[key] is { } child)
                        PointRefsAtDefs(child);
                }

                break;
            case JsonArray array:
                foreach (JsonNode? item in array)
                {
                    if (item is not null)
                        PointRefsAtDefs(item);
                }

                break;
        }

        return node;
    }
}
