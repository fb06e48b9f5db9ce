using System.Collections.Concurrent;
using System.Globalization;
using System.Text;
using System.Text.Json;
using System.Text.Json.Nodes;
using Folio.Server.Configuration;
using Folio.Server.Databases;
using Folio.Server.Http;
using Folio.Server.Routing;
using Folio.Storage.Documents;

namespace Folio.Server.RavenProtocol;

/// <summary>
/// HiLo id ranges as the seeds' system's clients take them: the highest id handed out for a tag is kept in
/// the document <c>Raven/Hilo/{tag}</c> (<c>{"Max"}</c>, collection <c>@hilo</c>), so a range is never given
/// twice, survives a restart and can be read, set or exported like any document.
/// </summary>
public sealed class HiLoHandler
{
    private const string DocumentPrefix = "Raven/Hilo/";
    private const long MinimumRange = 32;
    private const long MaximumRange = 1024 * 1024;

    // One range at a time per database and tag; the document's change vector still guards against a client
    // writing the document in between.
    private readonly ConcurrentDictionary<string, SemaphoreSlim> _locks = new(StringComparer.OrdinalIgnoreCase);
    private readonly DatabaseRegistry _databases;
    private readonly ServerOptions _options;

    /// <summary>Creates the handler.</summary>
    /// <param name="databases">Resolves the <c>{db}</c> segment.</param>
    /// <param name="options">Supplies the JSON depth limit.</param>
    public HiLoHandler(DatabaseRegistry databases, ServerOptions options)
    {
        _databases = databases;
        _options = options;
    }

    /// <summary>
    /// <c>GET /databases/{db}/hilo/next?tag=&amp;lastBatchSize=&amp;lastRangeAt=&amp;identityPartsSeparator=&amp;lastMax=</c>:
    /// reserves the next range, <c>{"Prefix","Low","High","LastSize","ServerTag","LastRangeAt"}</c>. The range
    /// doubles while the client uses ranges up within a minute, and halves once it does not for five.
    /// </summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the range is durable and the answer written.</returns>
    [FolioRoute("GET", "/databases/{db}/hilo/next", Access = RouteAccess.DatabaseWrite)]
    public async ValueTask Next(FolioRequest request)
    {
        string tag = Tag(request.Request);
        long lastBatchSize = OptionalInt64(request.Request, "lastBatchSize");
        DateTime? lastRangeAt = OptionalDate(request.Request, "lastRangeAt");
        string separator = QueryParameters.Optional(request.Request, "identityPartsSeparator") is { Length: > 0 } s ? s : "/";
        if (separator.Length != 1)
            throw QueryParameters.Invalid("'identityPartsSeparator' must be one character.");

        long size = RangeSize(lastBatchSize, lastRangeAt, DateTime.UtcNow);
        long low, high;
        using (DatabaseLease lease = _databases.Lease(request.DatabaseSpan))
        {
            SemaphoreSlim gate = _locks.GetOrAdd(lease.Database.Name + "\u0000" + tag, static _ => new SemaphoreSlim(1, 1));
            await gate.WaitAsync(request.Aborted);
            try
            {
                (JsonObject document, long max, string? changeVector) = Read(lease.Database, tag);
                low = max + 1;
                high = max + size;
                document["Max"] = high;
                await Write(lease.Database, tag, document, changeVector);
            }
            finally
            {
                gate.Release();
            }
        }

        await JsonResponse.WriteAsync(request.Response, (Prefix: tag + separator, low, high, size), WriteRange, request.Aborted);
    }

    /// <summary>
    /// <c>PUT /databases/{db}/hilo/return?tag=&amp;end=&amp;last=</c>: gives back the unused end of a range when a
    /// client closes, if no range was taken after it (<c>Max</c> is still <c>end</c>). 204.
    /// </summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the document is written.</returns>
    [FolioRoute("PUT", "/databases/{db}/hilo/return", Access = RouteAccess.DatabaseWrite)]
    public async ValueTask Return(FolioRequest request)
    {
        string tag = Tag(request.Request);
        long end = RequiredInt64(request.Request, "end");
        long last = RequiredInt64(request.Request, "last");
        if (last > end)
            throw QueryParameters.Invalid("'last' must not be greater than 'end'.");

        using (DatabaseLease lease = _databases.Lease(request.DatabaseSpan))
        {
            SemaphoreSlim gate = _locks.GetOrAdd(lease.Database.Name + "\u0000" + tag, static _ => new SemaphoreSlim(1, 1));
            await gate.WaitAsync(request.Aborted);
            try
            {
                (JsonObject document, long max, string? changeVector) = Read(lease.Database, tag);
                if (changeVector is not null && max == end)
                {
                    document["Max"] = last;
                    await Write(lease.Database, tag, document, changeVector);
                }
            }
            finally
            {
                gate.Release();
            }
        }

        request.Response.StatusCode = StatusCodes.Status204NoContent;
    }

    private static long RangeSize(long lastBatchSize, DateTime? lastRangeAt, DateTime now)
    {
        if (lastBatchSize <= 0 || lastRangeAt is not { } at)
            return MinimumRange;
        TimeSpan since = now - at;
        if (since <= TimeSpan.FromMinutes(1))
            return Math.Min(Math.Max(MinimumRange, lastBatchSize * 2), MaximumRange);
        if (since <= TimeSpan.FromMinutes(5))
            return Math.Clamp(lastBatchSize, MinimumRange, MaximumRange);
        return Math.Clamp(lastBatchSize / 2, MinimumRange, MaximumRange);
    }

    private (JsonObject Document, long Max, string? ChangeVector) Read(Database database, string tag)
    {
        using DocumentReader reader = database.Store.OpenReader();
        if (!reader.TryGet(DocumentPrefix + tag, out Document stored))
            return (new JsonObject { ["@metadata"] = new JsonObject { ["@collection"] = "@hilo" } }, 0, null);

        JsonObject document = JsonNode.Parse(stored.Json, documentOptions: new JsonDocumentOptions { MaxDepth = _options.MaxJsonDepth })?.AsObject()
            ?? throw new InvalidOperationException("A stored document is not a JSON object.");
        long max = document["Max"] is JsonValue value && value.TryGetValue(out long m) ? m : 0;
        string? changeVector = document["@metadata"] is JsonObject metadata && metadata["@change-vector"] is JsonValue cv && cv.TryGetValue(out string? text) ? text : null;
        return (document, max, changeVector);
    }

    private async Task Write(Database database, string tag, JsonObject document, string? changeVector)
    {
        try
        {
            await database.Store.PutAsync(DocumentPrefix + tag, PreparedDocument.Parse(Encoding.UTF8.GetBytes(document.ToJsonString()), _options.MaxJsonDepth), changeVector);
        }
        catch (ConcurrencyException)
        {
            throw new FolioHttpException(
                StatusCodes.Status409Conflict,
                "HiLo range taken concurrently",
                $"The document '{DocumentPrefix}{tag}' changed while a range was being taken; ask again.",
                ProblemTypes.ConcurrencyConflict);
        }
    }

    private static string Tag(HttpRequest request)
    {
        string tag = QueryParameters.Required(request, "tag");
        try
        {
            DocumentIds.Validate(DocumentPrefix + tag);
        }
        catch (DocumentValidationException e)
        {
            throw new FolioHttpException(StatusCodes.Status400BadRequest, "Invalid HiLo tag", e.Message, ProblemTypes.InvalidParameter);
        }

        return tag;
    }

    private static long OptionalInt64(HttpRequest request, string name)
    {
        string? text = QueryParameters.Optional(request, name);
        if (string.IsNullOrEmpty(text))
            return 0;
        return long.TryParse(text, NumberStyles.Integer, CultureInfo.InvariantCulture, out long value) && value >= 0
            ? value
            : throw QueryParameters.Invalid($"'{name}' must be a non-negative integer.");
    }

    private static long RequiredInt64(HttpRequest request, string name)
    {
        string text = QueryParameters.Required(request, name);
        return long.TryParse(text, NumberStyles.Integer, CultureInfo.InvariantCulture, out long value) && value >= 0
            ? value
            : throw QueryParameters.Invalid($"'{name}' must be a non-negative integer.");
    }

    private static DateTime? OptionalDate(HttpRequest request, string name)
    {
        string? text = QueryParameters.Optional(request, name);
        if (string.IsNullOrEmpty(text))
            return null;
        return DateTime.TryParse(text, CultureInfo.InvariantCulture, DateTimeStyles.AdjustToUniversal | DateTimeStyles.AssumeUniversal, out DateTime at)
            ? at
            : throw QueryParameters.Invalid($"'{name}' must be a date and time.");
    }

    private static void WriteRange(Utf8JsonWriter writer, (string Prefix, long Low, long High, long Size) range)
    {
        writer.WriteStartObject();
        writer.WriteString("Prefix"u8, range.Prefix);
        writer.WriteNumber("Low"u8, range.Low);
        writer.WriteNumber("High"u8, range.High);
        writer.WriteNumber("LastSize"u8, range.Size);
        writer.WriteString("ServerTag"u8, NodeTopologyHandler.NodeTag);
        writer.WriteString("LastRangeAt"u8, DateTime.UtcNow);
        writer.WriteEndObject();
    }
}
