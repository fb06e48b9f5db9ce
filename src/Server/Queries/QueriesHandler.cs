using System.Globalization;
using System.Text.Json;
using Folio.Indexing.Querying;
using Folio.Indexing.Rql;
using Folio.Server.Configuration;
using Folio.Server.Databases;
using Folio.Server.Http;
using Folio.Server.Routing;
using Microsoft.AspNetCore.Http;

namespace Folio.Server.Queries;

/// <summary>
/// <c>POST /databases/{db}/queries</c> and <c>GET /databases/{db}/queries?query=</c> run RQL and
/// answer one page; <c>GET /databases/{db}/streams/queries?query=</c> streams every result.
/// </summary>
public sealed class QueriesHandler(DatabaseRegistry databases, ServerOptions options)
{
    private const int StreamFlushBytes = 32 * 1024;

    /// <summary>
    /// Runs <c>{"Query","QueryParameters"?,"WaitForNonStaleResults"?,"WaitForNonStaleResultsTimeout"?,"SkipDuplicateChecking"?}</c>
    /// and answers <c>{"Results","Includes","TotalResults","SkippedResults","IsStale","IndexName","IndexEtag","DurationInMs"}</c>, and
    /// <c>"Highlightings"</c>, <c>"Timings"</c> and <c>"Explanations"</c> when the query includes <c>highlight(…)</c>,
    /// <c>timings()</c> and <c>explanations()</c>.
    /// </summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the answer is written.</returns>
    [FolioRoute("POST", "/databases/{db}/queries", Access = RouteAccess.DatabaseRead)]
    public async ValueTask Post(FolioRequest request)
    {
        using var body = await JsonBody.ParseAsync(request.Request, options, request.Aborted);
        var root = body.RootElement;
        if (root.ValueKind != JsonValueKind.Object || !root.TryGetProperty("Query", out var query) || query.ValueKind != JsonValueKind.String)
            throw QueryParameters.Invalid("The body must be an object with a \"Query\" string.");
        var wait = root.TryGetProperty("WaitForNonStaleResults", out var waitValue) && waitValue.ValueKind == JsonValueKind.True;
        var timeout = root.TryGetProperty("WaitForNonStaleResultsTimeout", out var timeoutValue) ? ParseTimeout(timeoutValue) : (TimeSpan?)null;
        JsonElement? parameters = root.TryGetProperty("QueryParameters", out var parameterValue) && parameterValue.ValueKind != JsonValueKind.Null ? parameterValue : null;
        if (parameters is { ValueKind: not JsonValueKind.Object })
            throw QueryParameters.Invalid("QueryParameters must be an object of parameter names to values.");
        var skipDuplicates = root.TryGetProperty("SkipDuplicateChecking", out var skipValue) && skipValue.ValueKind == JsonValueKind.True;
        await RunAsync(request, query.GetString()!, Options(wait, timeout, parameters, Budget(request)) with
        {
            SeedsFacetShapes = RavenProtocol.RavenClientErrors.IsRavenClient(request.Request),
            Start = Paging(root, "Start"),
            PageSize = Paging(root, "PageSize"),
            SkipDuplicateChecking = skipDuplicates,
        });
    }

    /// <summary>The body's <c>Start</c> or <c>PageSize</c>: a whole number of zero or more, or absent (null).</summary>
    private static int? Paging(JsonElement root, string name)
    {
        if (!root.TryGetProperty(name, out var value) || value.ValueKind == JsonValueKind.Null)
            return null;
        return value.ValueKind == JsonValueKind.Number && value.TryGetInt32(out var number) && number >= 0
            ? number
            : throw QueryParameters.Invalid($"{name} must be a whole number of zero or more; it is {value.GetRawText()}.");
    }

    /// <summary>Runs <c>?query=</c> (with optional <c>waitForNonStaleResults</c> and <c>waitForNonStaleResultsTimeout</c>).</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the answer is written.</returns>
    [FolioRoute("GET", "/databases/{db}/queries", Access = RouteAccess.DatabaseRead)]
    public async ValueTask Get(FolioRequest request)
    {
        var query = QueryParameters.Required(request.Request, "query");
        var wait = string.Equals(QueryParameters.Optional(request.Request, "waitForNonStaleResults"), "true", StringComparison.OrdinalIgnoreCase);
        var timeoutText = QueryParameters.Optional(request.Request, "waitForNonStaleResultsTimeout");
        TimeSpan? timeout = timeoutText is null ? null : QueryParameters.Duration(timeoutText);
        await RunAsync(request, query, Options(wait, timeout, null, Budget(request)) with { SeedsFacetShapes = RavenProtocol.RavenClientErrors.IsRavenClient(request.Request) });
    }

    /// <summary>Streams every result of <c>?query=</c> as <c>{"Results":[…]}</c>, without paging limits and in constant memory.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the last result is written.</returns>
    [FolioRoute("GET", "/databases/{db}/streams/queries", Access = RouteAccess.DatabaseRead)]
    public async ValueTask Stream(FolioRequest request)
    {
        var query = QueryParameters.Required(request.Request, "query");
        using var lease = databases.Lease(request.DatabaseSpan);
        using var results = await lease.Database.Queries.StreamAsync(query, Options(false, null, null, null), request.Aborted);
        var response = request.Response;
        response.ContentType = JsonWriters.ContentType;
        // Started before the first result: a failure while streaming then aborts the connection, so
        // the client sees a cut answer rather than a problem document appended to half an array.
        await response.StartAsync(request.Aborted);
        var writer = JsonWriters.Rent(response.BodyWriter);
        try
        {
            writer.WriteStartObject();
            writer.WriteStartArray("Results"u8);
            long flushed = 0;
            foreach (var result in results)
            {
                writer.WriteRawValue(result, skipInputValidation: true);
                // The writer hands full buffers to the pipe by itself (BytesPending stays small), but
                // only a flush sends them: without one the whole answer would wait in memory.
                if (writer.BytesCommitted + writer.BytesPending - flushed > StreamFlushBytes)
                {
                    writer.Flush();
                    flushed = writer.BytesCommitted;
                    await response.BodyWriter.FlushAsync(request.Aborted);
                }
            }
            writer.WriteEndArray();
            writer.WriteEndObject();
        }
        finally
        {
            JsonWriters.Return(writer);
        }
        await response.BodyWriter.FlushAsync(request.Aborted);
    }

    /// <summary>
    /// The query's time budget: the <c>timeout</c> query-string parameter (a TimeSpan or milliseconds), at most
    /// <c>Queries:MaxTimeout</c>; <c>Queries:Timeout</c> without it.
    /// </summary>
    private TimeSpan Budget(FolioRequest request)
    {
        if (QueryParameters.Optional(request.Request, "timeout") is not { } text)
            return options.Queries.Timeout;
        var asked = QueryParameters.Duration(text);
        if (asked <= TimeSpan.Zero || asked > options.Queries.MaxTimeout)
            throw QueryParameters.Invalid($"The query parameter 'timeout' must be more than zero and at most the server's Queries:MaxTimeout of {options.Queries.MaxTimeout.TotalMilliseconds:0} ms; it is '{text}'.");
        return asked;
    }

    private QueryOptions Options(bool wait, TimeSpan? timeout, JsonElement? parameters, TimeSpan? budget) => new()
    {
        Timeout = budget,
        MaxMemoryBytes = options.Queries.MaxMemory > 0 ? options.Queries.MaxMemory : null,
        WaitForNonStaleResults = wait,
        WaitTimeout = timeout ?? TimeSpan.FromSeconds(15),
        Parameters = parameters,
        MaxPageSize = options.MaxPageSize,
        ScriptLimits = options.Scripting.ToLimits(),
    };

    private async ValueTask RunAsync(FolioRequest request, string query, QueryOptions queryOptions)
    {
        QueryResult result;
        long lastWrite;
        using (var lease = databases.Lease(request.DatabaseSpan))
        {
            lastWrite = lease.Database.Store.LastEtag;
            result = await lease.Database.Queries.RunAsync(query, queryOptions, request.Aborted);
        }

        using (result)
        {
            if (QueryResultETag.Compute(query, queryOptions.Parameters, result.IndexName ?? "", result.IndexEtag, result.IsStale, lastWrite, queryOptions.SeedsFacetShapes) is { } etag)
            {
                request.Response.Headers.ETag = etag;
                if (QueryResultETag.Matches(request.Request.Headers.IfNoneMatch, etag))
                {
                    request.Response.StatusCode = StatusCodes.Status304NotModified;
                    return;
                }
            }
            if (result.CappedPageSize is { } cap)
                request.Response.Headers["Folio-Page-Size-Capped"] = cap.ToString(CultureInfo.InvariantCulture);
            await JsonResponse.WriteAsync(request.Response, (result, RavenProtocol.RavenClientErrors.IsRavenClient(request.Request)), WriteResult, request.Aborted);
        }
    }

    private static void WriteResult(Utf8JsonWriter writer, (QueryResult Result, bool ForSeedsClient) answer)
    {
        var result = answer.Result;
        writer.WriteStartObject();
        writer.WriteStartArray("Results"u8);
        foreach (var item in result.Results)
        {
            if (answer.ForSeedsClient)
                RavenProtocol.ResultMetadata.Write(writer, item.Span);
            else
                writer.WriteRawValue(item.Span, skipInputValidation: true);
        }
        foreach (var facet in result.Facets)
            WriteFacet(writer, facet, answer.ForSeedsClient);
        writer.WriteEndArray();
        writer.WriteStartObject("Includes"u8);
        foreach (var (id, document) in result.Includes)
        {
            writer.WritePropertyName(id);
            writer.WriteRawValue(document, skipInputValidation: true);
        }
        writer.WriteEndObject();
        if (result.CompareExchangeIncludes.Count > 0)
        {
            writer.WriteStartObject("CompareExchangeValueIncludes"u8);
            foreach (var (key, entry) in result.CompareExchangeIncludes)
            {
                writer.WritePropertyName(key);
                RavenProtocol.CompareExchangeHandler.WriteEntry(writer, key, entry);
            }
            writer.WriteEndObject();
        }
        if (result.Highlightings is { } highlightings)
            WriteHighlightings(writer, highlightings);
        if (result.Timings is { } timings)
            WriteTimings(writer, timings);
        if (result.Explanations is { } explanations)
            WriteExplanations(writer, explanations);
        writer.WriteNumber("TotalResults"u8, result.TotalResults);
        writer.WriteNumber("SkippedResults"u8, result.SkippedResults);
        writer.WriteBoolean("IsStale"u8, result.IsStale);
        writer.WriteString("IndexName"u8, result.IndexName);
        writer.WriteNumber("IndexEtag"u8, result.IndexEtag);
        writer.WriteNumber("DurationInMs"u8, Math.Round(result.DurationInMs, 3));
        if (result.CappedPageSize is { } capped)
        {
            writer.WriteNumber("PageSize"u8, capped);
            writer.WriteBoolean("PageSizeCapped"u8, true);
        }
        writer.WriteEndObject();
    }

    /// <summary>
    /// <c>include highlight(…)</c>'s fragments in the seeds' clients' shape: <c>"Highlightings": {field: {id: [fragment, …]}}</c>.
    /// </summary>
    private static void WriteHighlightings(Utf8JsonWriter writer, IReadOnlyDictionary<string, Dictionary<string, string[]>> highlightings)
    {
        writer.WriteStartObject("Highlightings"u8);
        foreach (var (field, byId) in highlightings)
        {
            writer.WriteStartObject(field);
            foreach (var (id, fragments) in byId)
            {
                writer.WriteStartArray(id);
                foreach (var fragment in fragments)
                    writer.WriteStringValue(fragment);
                writer.WriteEndArray();
            }
            writer.WriteEndObject();
        }
        writer.WriteEndObject();
    }

    /// <summary>
    /// <c>include timings()</c> in the seeds' clients' shape, a tree of <c>{"DurationInMs","Timings"?}</c>:
    /// <c>"Timings": {"DurationInMs": total, "Timings": {"Parse": {"DurationInMs": …}, "Plan", "Query", "Load", "Projection"}}</c>.
    /// </summary>
    private static void WriteTimings(Utf8JsonWriter writer, QueryTimings timings)
    {
        writer.WriteStartObject("Timings"u8);
        writer.WriteNumber("DurationInMs"u8, Math.Round(timings.Total, 3));
        writer.WriteStartObject("Timings"u8);
        WriteStage(writer, "Parse"u8, timings.Parse);
        WriteStage(writer, "Plan"u8, timings.Plan);
        WriteStage(writer, "Query"u8, timings.Query);
        WriteStage(writer, "Load"u8, timings.Load);
        WriteStage(writer, "Projection"u8, timings.Projection);
        writer.WriteEndObject();
        writer.WriteEndObject();
    }

    private static void WriteStage(Utf8JsonWriter writer, ReadOnlySpan<byte> name, double milliseconds)
    {
        writer.WriteStartObject(name);
        writer.WriteNumber("DurationInMs"u8, Math.Round(milliseconds, 3));
        writer.WriteEndObject();
    }

    /// <summary><c>include explanations()</c> in the seeds' clients' shape: <c>"Explanations": {id: [explanation]}</c>.</summary>
    private static void WriteExplanations(Utf8JsonWriter writer, Dictionary<string, string[]> explanations)
    {
        writer.WriteStartObject("Explanations"u8);
        foreach (var (id, lines) in explanations)
        {
            writer.WriteStartArray(id);
            foreach (var line in lines)
                writer.WriteStringValue(line);
            writer.WriteEndArray();
        }
        writer.WriteEndObject();
    }

    /// <summary>
    /// A facet in the seeds' clients' shape: <c>{"Name","Values":[{"Range","Count"}…],"RemainingTerms","RemainingTermsCount","RemainingHits"}</c>,
    /// each value with <c>Name</c> and the aggregations asked for (<c>Sum</c>, <c>Min</c>, <c>Max</c>, <c>Average</c>) when the
    /// facet aggregates, and a term facet with Folio's <c>MissingCount</c>, except for the seeds' clients: they tell a
    /// facet result from a document by its having exactly the seeds' five properties.
    /// </summary>
    private static void WriteFacet(Utf8JsonWriter writer, FacetResult facet, bool forSeedsClient)
    {
        writer.WriteStartObject();
        writer.WriteString("Name"u8, facet.Name);
        writer.WriteStartArray("Values"u8);
        foreach (var value in facet.Values)
        {
            writer.WriteStartObject();
            writer.WriteString("Range"u8, value.Range);
            writer.WriteNumber("Count"u8, value.Count);
            if (value.Name is not null)
                writer.WriteString("Name"u8, value.Name);
            WriteAggregate(writer, "Sum"u8, value.Aggregations, RqlFacetAggregationOp.Sum, value.Sum);
            WriteAggregate(writer, "Min"u8, value.Aggregations, RqlFacetAggregationOp.Min, value.Min);
            WriteAggregate(writer, "Max"u8, value.Aggregations, RqlFacetAggregationOp.Max, value.Max);
            WriteAggregate(writer, "Average"u8, value.Aggregations, RqlFacetAggregationOp.Average, value.Average);
            writer.WriteEndObject();
        }
        writer.WriteEndArray();
        writer.WriteStartArray("RemainingTerms"u8);
        foreach (var term in facet.RemainingTerms)
            writer.WriteStringValue(term);
        writer.WriteEndArray();
        writer.WriteNumber("RemainingTermsCount"u8, facet.RemainingTermsCount);
        writer.WriteNumber("RemainingHits"u8, facet.RemainingHits);
        if (facet.MissingCount is { } missing && !forSeedsClient)
            writer.WriteNumber("MissingCount"u8, missing);
        writer.WriteEndObject();
    }

    /// <summary>An aggregation the facet asked for: its number, or null when no match under the value had a number.</summary>
    private static void WriteAggregate(Utf8JsonWriter writer, ReadOnlySpan<byte> name, RqlFacetAggregationOp asked, RqlFacetAggregationOp op, double? value)
    {
        if ((asked & op) == 0)
            return;
        if (value is { } number)
            writer.WriteNumber(name, number);
        else
            writer.WriteNull(name);
    }

    /// <summary>A timeout as a TimeSpan (<c>"00:00:05"</c>) or a number of milliseconds.</summary>
    private static TimeSpan ParseTimeout(JsonElement value) => value.ValueKind switch
    {
        JsonValueKind.Number when value.TryGetDouble(out var ms) && ms >= 0 && ms <= int.MaxValue => TimeSpan.FromMilliseconds(ms),
        JsonValueKind.String => QueryParameters.Duration(value.GetString()!),
        _ => throw QueryParameters.Invalid("WaitForNonStaleResultsTimeout must be a duration like \"00:00:05\" or a number of milliseconds."),
    };
}
