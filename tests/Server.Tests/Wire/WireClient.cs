using System.Net.Http.Headers;
using System.Text;
using System.Text.Json;
using System.Text.Json.Nodes;

namespace Folio.Server.Tests.Wire;

/// <summary>An answer as a conformance test sees it, after it was checked against the contract.</summary>
/// <param name="Status">The status code.</param>
/// <param name="Body">The parsed body; <c>Undefined</c> when there was none.</param>
/// <param name="Headers">Response and content headers by name.</param>
public sealed record WireAnswer(int Status, JsonElement Body, IReadOnlyDictionary<string, string> Headers)
{
    /// <summary>A header's value, or null.</summary>
    /// <param name="name">The header, ignoring case.</param>
    /// <returns>The value.</returns>
    public string? Header(string name) => Headers.TryGetValue(name, out string? value) ? value : null;
}

/// <summary>
/// Sends requests to a real server and checks every answer against the wire contract: the status must
/// be one the document lists for the operation, the content type one it lists for that status, the body
/// valid against its schema (or empty where it gives none, and always for HEAD), and the headers it marks
/// required present; a JSON body the server accepted must satisfy the operation's request schema.
/// Remembers which operations answered what, for <see cref="AssertExercised"/>.
/// </summary>
public sealed class WireClient(HttpClient client, WireContract contract)
{
    private readonly List<(string Operation, int Status)> _seen = [];

    /// <summary>Sends a request and checks its answer.</summary>
    /// <param name="method">The method.</param>
    /// <param name="path">The operation's path template, e.g. <c>/databases/{db}/docs</c>.</param>
    /// <param name="uri">The request's path and query.</param>
    /// <param name="body">JSON text for the body, or null for none.</param>
    /// <param name="headers">Request headers, or null.</param>
    /// <returns>The checked answer.</returns>
    public async Task<WireAnswer> SendAsync(HttpMethod method, string path, string uri, string? body = null, params (string Name, string Value)[] headers)
    {
        WireAnswer answer = await SendAsync(method, path, uri, body is null ? null : new StringContent(body, Encoding.UTF8, "application/json"), headers);
        if (body is not null && answer.Status is >= 200 and < 300)
            CheckAcceptedBody(method.Method, path, body);
        return answer;
    }

    /// <summary>Sends a request with any content and checks its answer.</summary>
    /// <param name="method">The method.</param>
    /// <param name="path">The operation's path template.</param>
    /// <param name="uri">The request's path and query.</param>
    /// <param name="content">The body, or null.</param>
    /// <param name="headers">Request headers.</param>
    /// <returns>The checked answer.</returns>
    public async Task<WireAnswer> SendAsync(HttpMethod method, string path, string uri, HttpContent? content, params (string Name, string Value)[] headers)
    {
        using var request = new HttpRequestMessage(method, uri) { Content = content };
        foreach (var (name, value) in headers)
        {
            // Content-Encoding and its kind are content headers, which the request's own collection refuses.
            if (!request.Headers.TryAddWithoutValidation(name, value))
                Assert.True(content?.Headers.TryAddWithoutValidation(name, value), $"Cannot send the header {name}.");
        }
        using HttpResponseMessage response = await client.SendAsync(request);
        byte[] bytes = await response.Content.ReadAsByteArrayAsync();
        var answerHeaders = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);
        foreach (var (name, values) in response.Headers.Concat(response.Content.Headers))
            answerHeaders[name] = string.Join(", ", values);

        int status = (int)response.StatusCode;
        string what = $"{method.Method} {uri} (operation {method.Method} {path}) answered {status}";
        JsonElement parsed = Check(method.Method, path, status, response.Content.Headers.ContentType, bytes, answerHeaders, what);
        lock (_seen)
            _seen.Add(($"{method.Method} {path}", status));
        return new WireAnswer(status, parsed, answerHeaders);
    }

    /// <summary>GET, checked.</summary>
    /// <param name="path">The operation's path template.</param>
    /// <param name="uri">The request's path and query.</param>
    /// <param name="headers">Request headers.</param>
    /// <returns>The checked answer.</returns>
    public Task<WireAnswer> GetAsync(string path, string uri, params (string Name, string Value)[] headers) =>
        SendAsync(HttpMethod.Get, path, uri, (HttpContent?)null, headers);

    /// <summary>
    /// Fails unless each operation answered at least one success (2xx, or 3xx: a redirect or 304) through this client and,
    /// when the document lists any 4xx for it, at least one 4xx: good input and bad input both went through the contract.
    /// The refusals of a secured server (401, 403, 429) do not count as bad input: RouteClearanceTests provokes them for
    /// every route and checks them against the document.
    /// </summary>
    /// <param name="operations">Operation keys, e.g. <c>GET /databases/{db}/docs</c>.</param>
    public void AssertExercised(IEnumerable<string> operations)
    {
        foreach (string key in operations)
        {
            WireOperation operation = contract.Operations.SingleOrDefault(o => o.Key == key)
                ?? throw new InvalidOperationException($"'{key}' is not an operation of the document.");
            List<int> answered;
            lock (_seen)
                answered = _seen.Where(s => s.Operation == key).Select(s => s.Status).ToList();
            Assert.True(answered.Exists(s => s is >= 200 and < 400), $"{key} was never answered with success; answers: [{string.Join(", ", answered)}]");
            if (operation.Statuses.Any(s => s is >= 400 and < 500 and not (401 or 403 or 429)))
                Assert.True(answered.Exists(s => s is >= 400 and < 500), $"{key} was never sent bad input; answers: [{string.Join(", ", answered)}]");
        }
    }

    /// <summary>A body the server accepted must be one the document's request schema accepts, or the schema is too strict.</summary>
    private void CheckAcceptedBody(string method, string path, string body)
    {
        JsonNode? schema = contract.Operation(method, path)?["requestBody"] is JsonNode requestBody
            ? contract.Resolve(requestBody)["content"]?["application/json"]?["schema"]
            : null;
        if (schema is null)
            return;
        using JsonDocument parsed = JsonDocument.Parse(body);
        IReadOnlyList<string> failures = contract.Validate(schema, parsed.RootElement);
        Assert.True(failures.Count == 0, $"{method} {path} accepted a body its request schema refuses:{Environment.NewLine}{string.Join(Environment.NewLine, failures)}{Environment.NewLine}Body: {body}");
    }

    private JsonElement Check(string method, string path, int status, MediaTypeHeaderValue? contentType, byte[] bytes, Dictionary<string, string> headers, string what)
    {
        string text = Encoding.UTF8.GetString(bytes);
        Assert.True(contract.Operation(method, path) is not null, $"{what}, but the document has no operation {method} {path}.");
        JsonObject response = contract.Response(method, path, status)
            ?? throw new Xunit.Sdk.XunitException($"{what}, a status the document does not list for it. Body: {text}");

        foreach (var (name, header) in response["headers"]?.AsObject() ?? new JsonObject())
        {
            bool required = contract.Resolve(header!)["required"]?.GetValue<bool>() == true;
            Assert.True(!required || headers.ContainsKey(name), $"{what} without the header {name} the document requires.");
        }

        JsonObject? content = response["content"]?.AsObject();
        if (content is null || method == "HEAD")
        {
            Assert.True(bytes.Length == 0, $"{what} with a body where the document gives none: {text}");
            return default;
        }

        string mediaType = contentType?.MediaType ?? "(none)";
        JsonNode media = content[mediaType]
            ?? throw new Xunit.Sdk.XunitException($"{what} as {mediaType}; the document lists [{string.Join(", ", content.Select(c => c.Key))}]. Body: {text}");
        JsonNode schema = media["schema"] ?? throw new Xunit.Sdk.XunitException($"The document gives no schema for {what} as {mediaType}.");

        if (mediaType == "application/x-ndjson")
            return CheckLines(schema, text, what);

        // Only the JSON media types hold JSON; a text answer is validated as one JSON string.
        JsonElement instance = mediaType.EndsWith("json", StringComparison.Ordinal)
            ? JsonDocument.Parse(bytes).RootElement.Clone()
            : JsonSerializer.SerializeToElement(text);
        IReadOnlyList<string> failures = contract.Validate(schema, instance);
        Assert.True(failures.Count == 0, $"{what} with a body its schema refuses:{Environment.NewLine}{string.Join(Environment.NewLine, failures)}{Environment.NewLine}Body: {text}");
        return instance;
    }

    /// <summary>NDJSON: every non-empty line (empty ones are heartbeats) must satisfy the schema; the answer is the lines as an array.</summary>
    private JsonElement CheckLines(JsonNode schema, string text, string what)
    {
        var lines = new List<JsonElement>();
        foreach (string line in text.Split('\n'))
        {
            if (line.Length == 0)
                continue;
            JsonElement item = JsonDocument.Parse(line).RootElement.Clone();
            IReadOnlyList<string> failures = contract.Validate(schema, item);
            Assert.True(failures.Count == 0, $"{what} with a line its schema refuses:{Environment.NewLine}{string.Join(Environment.NewLine, failures)}{Environment.NewLine}Line: {line}");
            lines.Add(item);
        }

        return JsonSerializer.SerializeToElement(lines);
    }
}
