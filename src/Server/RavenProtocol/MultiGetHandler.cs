using System.Text;
using System.Text.Json;
using Folio.Server.Configuration;
using Folio.Server.Http;
using Folio.Server.Routing;

namespace Folio.Server.RavenProtocol;

/// <summary>
/// <c>POST /databases/{db}/multi_get</c>: several reads in one round trip, as the seeds' system's clients send
/// their lazy operations: <c>{"Requests":[{"Url":"/databases/{db}/docs","Query":"?id=…","Method":"GET","Headers":{},"Content":…}]}</c>,
/// answered <c>{"Results":[{"Result","StatusCode","Headers"}]}</c> in order. Each part runs through Folio's own
/// routes; only reads of the same database are allowed (GET, and POST to <c>/queries</c>), so a multi_get never writes.
/// </summary>
public sealed class MultiGetHandler
{
    private const int MaxParts = 1024;

    private readonly InnerRequests _inner;
    private readonly Databases.DatabaseRegistry _databases;
    private readonly ServerOptions _options;

    /// <summary>Creates the handler.</summary>
    /// <param name="inner">Runs each part.</param>
    /// <param name="databases">Checks that the database exists, even for an empty list.</param>
    /// <param name="options">Supplies the body and depth limits.</param>
    public MultiGetHandler(InnerRequests inner, Databases.DatabaseRegistry databases, ServerOptions options)
    {
        _inner = inner;
        _databases = databases;
        _options = options;
    }

    /// <summary>Runs the parts in order and answers 200 with each part's status, headers and JSON result.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when every part has run and the answer is written.</returns>
    [FolioRoute("POST", "/databases/{db}/multi_get", Access = RouteAccess.DatabaseRead)]
    public async ValueTask Post(FolioRequest request)
    {
        Func<HttpContext, Task> dispatch = _inner.Dispatch ?? throw new InvalidOperationException("Inner requests are not set up.");
        // Only the database's existence matters here (404 even for an empty list): each part leases it again.
        _databases.Lease(request.DatabaseSpan).Dispose();

        string prefix = "/databases/" + request.Database + "/";
        List<Part> parts;
        using (JsonDocument body = await JsonBody.ParseAsync(request.Request, _options, request.Aborted))
            parts = ReadParts(body.RootElement, prefix);

        var answers = new List<Answer>(parts.Count);
        foreach (Part part in parts)
            answers.Add(await RunAsync(dispatch, request, part));
        await JsonResponse.WriteAsync(request.Response, answers, WriteAnswers, request.Aborted);
    }

    private static List<Part> ReadParts(JsonElement root, string prefix)
    {
        const string Shape = "The body must be {\"Requests\":[{\"Url\":\"/databases/{db}/…\",\"Query\":\"?…\",\"Method\":\"GET\"}, …]}.";
        if (root.ValueKind != JsonValueKind.Object || !root.TryGetProperty("Requests", out JsonElement list) || list.ValueKind != JsonValueKind.Array)
            throw QueryParameters.Invalid(Shape);
        if (list.GetArrayLength() > MaxParts)
            throw QueryParameters.Invalid($"A multi_get holds at most {MaxParts} requests.");
        var parts = new List<Part>();
        int index = 0;
        foreach (JsonElement item in list.EnumerateArray())
        {
            if (item.ValueKind != JsonValueKind.Object || !item.TryGetProperty("Url", out JsonElement url) || url.ValueKind != JsonValueKind.String)
                throw QueryParameters.Invalid($"Request {index}: {Shape}");
            string path = url.GetString()!;
            if (!path.StartsWith(prefix, StringComparison.OrdinalIgnoreCase) || path.Contains("..", StringComparison.Ordinal))
                throw QueryParameters.Invalid($"Request {index}: \"Url\" must be a path of this database ({prefix}…).");
            string method = item.TryGetProperty("Method", out JsonElement m) && m.ValueKind == JsonValueKind.String ? m.GetString()!.ToUpperInvariant() : "GET";
            bool isQuery = path.EndsWith("/queries", StringComparison.OrdinalIgnoreCase);
            if (method != "GET" && !(method == "POST" && isQuery))
                throw QueryParameters.Invalid($"Request {index}: a multi_get only reads: GET, or POST to /queries (not {method} {path}).");
            string query = item.TryGetProperty("Query", out JsonElement q) && q.ValueKind == JsonValueKind.String ? q.GetString()! : "";
            if (query.Length > 0 && query[0] != '?')
                query = "?" + query;
            string? ifNoneMatch = item.TryGetProperty("Headers", out JsonElement h) && h.ValueKind == JsonValueKind.Object
                && h.TryGetProperty("If-None-Match", out JsonElement etag) && etag.ValueKind == JsonValueKind.String ? etag.GetString() : null;
            byte[]? content = item.TryGetProperty("Content", out JsonElement c) && c.ValueKind is not (JsonValueKind.Null or JsonValueKind.Undefined)
                ? Encoding.UTF8.GetBytes(c.ValueKind == JsonValueKind.String ? c.GetString()! : c.GetRawText())
                : null;
            parts.Add(new Part(method, path, query, ifNoneMatch, content));
            index++;
        }

        return parts;
    }

    private static async Task<Answer> RunAsync(Func<HttpContext, Task> dispatch, FolioRequest outer, Part part)
    {
        var context = new DefaultHttpContext { RequestServices = outer.Context.RequestServices, RequestAborted = outer.Aborted };
        context.Request.Method = part.Method;
        context.Request.Path = part.Path;
        context.Request.QueryString = new QueryString(part.Query.Length > 1 ? part.Query : "");
        context.Request.Scheme = outer.Request.Scheme;
        context.Request.Host = outer.Request.Host;
        if (RavenClientErrors.IsRavenClient(outer.Request))
            context.Request.Headers[RavenClientErrors.ClientVersionHeader] = outer.Request.Headers[RavenClientErrors.ClientVersionHeader];
        if (part.IfNoneMatch is not null)
            context.Request.Headers.IfNoneMatch = part.IfNoneMatch;
        if (part.Content is not null)
        {
            context.Request.ContentType = "application/json";
            context.Request.ContentLength = part.Content.Length;
            context.Request.Body = new MemoryStream(part.Content, writable: false);
        }

        using var output = new MemoryStream();
        context.Response.Body = output;
        await dispatch(context);
        await context.Response.BodyWriter.FlushAsync(outer.Aborted);
        string? etag = context.Response.Headers.ETag.Count > 0 ? context.Response.Headers.ETag.ToString() : null;
        byte[]? result = null;
        // A missing document or an unchanged one has no result for those clients; an error keeps its problem.
        bool hasResult = context.Response.StatusCode is not (StatusCodes.Status404NotFound or StatusCodes.Status304NotModified);
        if (hasResult && output.Length > 0 && (context.Response.ContentType ?? "").Contains("json", StringComparison.OrdinalIgnoreCase))
            result = output.ToArray();
        // The clients parse a lazy load's result whatever its status: a missing document reads as a null in its place.
        if (context.Response.StatusCode == StatusCodes.Status404NotFound && part.Path.EndsWith("/docs", StringComparison.OrdinalIgnoreCase))
            result = "{\"Results\":[null],\"Includes\":{}}"u8.ToArray();
        return new Answer(context.Response.StatusCode, etag, result);
    }

    private static void WriteAnswers(Utf8JsonWriter writer, List<Answer> answers)
    {
        writer.WriteStartObject();
        writer.WriteStartArray("Results"u8);
        foreach (Answer answer in answers)
        {
            writer.WriteStartObject();
            writer.WritePropertyName("Result"u8);
            if (answer.Result is null)
                writer.WriteNullValue();
            else
                writer.WriteRawValue(answer.Result, skipInputValidation: true);
            writer.WriteNumber("StatusCode"u8, answer.StatusCode);
            writer.WriteStartObject("Headers"u8);
            if (answer.ETag is not null)
                writer.WriteString("ETag"u8, answer.ETag);
            writer.WriteEndObject();
            writer.WriteEndObject();
        }

        writer.WriteEndArray();
        writer.WriteEndObject();
    }

    private sealed record Part(string Method, string Path, string Query, string? IfNoneMatch, byte[]? Content);

    private sealed record Answer(int StatusCode, string? ETag, byte[]? Result);
}
